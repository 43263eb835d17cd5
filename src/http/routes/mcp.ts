import { Readable } from "node:stream";
import { type Static, Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ClientFactory, McpSessions } from "../../mcp/http-sessions.js";
import { TOOLSETS, type Toolset } from "../../mcp/toolsets.js";
import type { TackApp } from "../types.js";

// `/mcp`: MCP's Streamable HTTP transport (docs/agents.md). The query string chooses what the
// session offers; mcp/http-sessions.ts speaks the protocol. The answers are the SDK's web
// Responses, written to the socket as they are (event streams included), past the JSON hooks.

const McpQuery = Type.Object(
  {
    actor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "Who claims; default: the client's name.",
      }),
    ),
    toolsets: Type.Optional(
      Type.String({ description: `Extra tool groups, comma-separated: ${TOOLSETS.join(", ")}.` }),
    ),
    read_only: Type.Optional(Type.Boolean({ description: "Only tools that read." })),
    board: Type.Optional(
      Type.Integer({ minimum: 1, description: "Board used when a call names none." }),
    ),
  },
  { additionalProperties: false },
);

export function mcpRoutes(app: TackApp, clientFor: ClientFactory): void {
  // The MCP SDK loads on the first request to /mcp, not with every `tack serve`.
  let loaded: Promise<McpSessions> | undefined;
  const sessions = () => {
    loaded ??= import("../../mcp/http-sessions.js").then(
      ({ McpSessions }) => new McpSessions(clientFor),
    );
    return loaded;
  };
  app.addHook("preClose", async () => {
    if (loaded) await (await loaded).closeAll();
  });
  void app.register(async (scope) => {
    // MCP reads its own bodies: a JSON-RPC parse error is an MCP answer (-32700), not tack's.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) =>
      done(null, body),
    );
    scope.route({
      method: ["POST", "GET", "DELETE"],
      url: "/mcp",
      schema: { hide: true, querystring: McpQuery },
      handler: async (request, reply) => {
        const query = request.query as Static<typeof McpQuery>;
        const toolsets = (query.toolsets ?? "")
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean);
        const unknown = toolsets.find((name) => !(TOOLSETS as readonly string[]).includes(name));
        if (unknown !== undefined) {
          return reply
            .code(400)
            .send({ error: `unknown toolset "${unknown}": use ${TOOLSETS.join(", ")}` });
        }
        const answer = await (await sessions()).handle(
          webRequest(request),
          typeof request.body === "string" ? request.body : "",
          {
            actor: query.actor,
            toolsets: toolsets as Toolset[],
            // A read-only token gets the read-only tools, whatever the URL asks.
            readOnly: query.read_only === true || request.access?.readOnly === true,
            token: bearerToken(request),
            boardId: query.board,
          },
        );
        await sendWebResponse(reply, answer);
      },
    });
  });
}

function bearerToken(request: FastifyRequest): string | undefined {
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? "")?.[1];
}

/** The request as the SDK's web-standard transport reads it (the body is passed apart). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(`http://${request.headers.host ?? "localhost"}${request.url}`, {
    method: request.method,
    headers,
  });
}

async function sendWebResponse(reply: FastifyReply, answer: Response): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  const headers = Object.fromEntries(answer.headers);
  if (!answer.body) {
    raw.writeHead(answer.status, headers);
    raw.end();
    return;
  }
  if (!headers["content-type"]?.startsWith("text/event-stream")) {
    // One JSON answer: read whole and written in one go, without a stream between the two.
    const text = await answer.text();
    raw.writeHead(answer.status, { ...headers, "content-length": Buffer.byteLength(text) });
    raw.end(text);
    return;
  }
  raw.writeHead(answer.status, headers);
  const body = Readable.fromWeb(answer.body as import("node:stream/web").ReadableStream);
  // An event stream ends when the client leaves: stop reading it so the session lets go of it.
  raw.once("close", () => body.destroy());
  body.on("error", () => raw.destroy());
  body.pipe(raw);
}
