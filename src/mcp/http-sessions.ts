import { randomUUID } from "node:crypto";
import {
  isInitializeRequest,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { KeptAnswers, TackClient } from "../client/tack-client.js";
import { ACTOR_MAX } from "../model/limits.js";
import { KeptAnswerStore } from "./kept-answers.js";
import { createMcpServer, type McpOptions } from "./mcp-server.js";

// MCP's Streamable HTTP transport (the 2025 revisions every agent host speaks) for `/mcp` of
// `tack serve`. Each `initialize` opens a session: one MCP server instance with its own actor,
// toolsets and instructions, found again by the `Mcp-Session-Id` header the answer carries.
// Host and Origin are checked before this runs, by the same hook as every other route.

/** What the URL of `/mcp` chose; fixed for the session `initialize` opens. */
export interface SessionChoice extends Omit<McpOptions, "client"> {
  /** The claims' actor from the URL; else the client's name from `initialize`. */
  actor?: string | undefined;
  /** The access token `initialize` came with: the session's API calls present it too. */
  token?: string | undefined;
}

/**
 * A client of tack's API acting as `actor`, presenting `token` if there is one, keeping its GET
 * answers in `answers` (shared by every session).
 */
export type ClientFactory = (
  actor: string,
  token: string | undefined,
  answers: KeptAnswers,
) => TackClient;

interface Session {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  /** When it was last used, for the idle limit. */
  lastUsed: number;
  /** Order of last use (a clock can tie), for dropping the least recently used. */
  useOrder: number;
}

/** Sessions clients never end (most never send DELETE) make room for new ones: LRU, then age. */
export const MAX_SESSIONS = 100;
export const SESSION_IDLE_MS = 60 * 60 * 1000;
/** The actor when neither the URL nor the client names one. */
export const DEFAULT_ACTOR = "mcp";

export class McpSessions {
  private readonly sessions = new Map<string, Session>();
  private uses = 0;
  private readonly answers = new KeptAnswerStore();

  constructor(
    private readonly clientFor: ClientFactory,
    private readonly maxSessions = MAX_SESSIONS,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Answers one HTTP request to `/mcp`; `body` is the raw POST body. */
  async handle(request: Request, body: string, choice: SessionChoice): Promise<Response> {
    let message: unknown;
    if (request.method === "POST") {
      const type = request.headers.get("content-type") ?? "";
      if (!/^application\/json\s*(;|$)/i.test(type)) {
        return rpcError(
          415,
          -32000,
          "Unsupported Media Type: Content-Type must be application/json",
        );
      }
      try {
        message = JSON.parse(body);
      } catch {
        return rpcError(400, -32700, "Parse error: the body is not JSON");
      }
    }
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = this.sessions.get(id);
      if (!session) return rpcError(404, -32001, "Session not found: send initialize again");
      session.lastUsed = Date.now();
      session.useOrder = ++this.uses;
      return session.transport.handleRequest(request, { parsedBody: message });
    }
    if (request.method === "POST" && isInitializeRequest(message)) {
      return this.open(request, message, choice);
    }
    return rpcError(
      400,
      -32000,
      "Bad Request: Mcp-Session-Id header is required (send initialize first to get one)",
    );
  }

  /** Ends every session (server shutdown): open event streams end with them. */
  async closeAll(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((session) => endSession(session)));
  }

  private async open(
    request: Request,
    message: { params: { clientInfo: { name: string } } },
    choice: SessionChoice,
  ): Promise<Response> {
    this.makeRoom();
    const { actor, token, ...options } = choice;
    const named = (actor ?? message.params.clientInfo.name).trim().slice(0, ACTOR_MAX);
    const server = await createMcpServer({
      ...options,
      client: this.clientFor(named === "" ? DEFAULT_ACTOR : named, token, this.answers),
    });
    const session: Session = {
      server,
      lastUsed: Date.now(),
      useOrder: ++this.uses,
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        // tack's tools send nothing before their result: one JSON answer, no stream needed.
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          this.sessions.set(id, session);
        },
        onsessionclosed: (id) => {
          this.sessions.delete(id);
        },
      }),
    };
    await server.connect(session.transport);
    return session.transport.handleRequest(request, { parsedBody: message });
  }

  private makeRoom(): void {
    const now = Date.now();
    for (const [id, session] of this.sessions) {
      if (now - session.lastUsed > SESSION_IDLE_MS) this.drop(id, session);
    }
    while (this.sessions.size >= this.maxSessions) {
      let oldest: [string, Session] | undefined;
      for (const entry of this.sessions) {
        if (!oldest || entry[1].useOrder < oldest[1].useOrder) oldest = entry;
      }
      if (!oldest) break;
      this.drop(...oldest);
    }
  }

  private drop(id: string, session: Session): void {
    this.sessions.delete(id);
    void endSession(session);
  }
}

async function endSession(session: Session): Promise<void> {
  await session.transport.close().catch(() => {});
  await session.server.close().catch(() => {});
}

function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }), {
    status,
    headers: { "content-type": "application/json" },
  });
}
