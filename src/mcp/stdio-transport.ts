import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import {
  INVALID_REQUEST,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  PARSE_ERROR,
  type Transport,
} from "@modelcontextprotocol/server";

type RequestId = string | number;

/**
 * MCP's stdio binding (newline-delimited JSON-RPC) with two promises the SDK's own stdio
 * transport does not keep:
 * - A line that is not JSON is answered with a -32700 parse error, one that is JSON but no
 *   JSON-RPC message with -32600, instead of being dropped.
 * - When stdin ends, the requests already received are still answered before the transport
 *   closes, so `printf '<initialize>\n<tools/list>\n' | tack mcp` prints both answers.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Requests received and not yet answered, by id. */
  private readonly unanswered = new Set<RequestId>();
  private inputEnded = false;
  private closed = false;
  readonly done: Promise<void>;
  private resolveDone!: () => void;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }

  async start(): Promise<void> {
    const lines = createInterface({ input: this.input, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on("line", (line) => this.receive(line));
    lines.once("close", () => {
      this.inputEnded = true;
      this.closeWhenAnswered();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    await new Promise<void>((resolve, reject) => {
      this.output.write(`${JSON.stringify(message)}\n`, (error) =>
        error ? reject(error) : resolve(),
      );
    });
    if (("result" in message || "error" in message) && message.id !== undefined) {
      this.unanswered.delete(message.id as RequestId);
      this.closeWhenAnswered();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.pause();
    this.onclose?.();
    this.resolveDone();
  }

  private receive(line: string): void {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      this.refuse(null, PARSE_ERROR, `Parse error: ${(error as Error).message}`);
      return;
    }
    if (!isMessage(parsed)) {
      const id = (parsed as { id?: unknown } | null)?.id;
      const usableId = typeof id === "string" || typeof id === "number" ? id : null;
      this.refuse(usableId, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message");
      return;
    }
    const message = parsed;
    if ("method" in message && "id" in message && message.id !== undefined) {
      this.unanswered.add(message.id as RequestId);
    }
    this.onmessage?.(message);
  }

  private refuse(id: RequestId | null, code: number, message: string): void {
    const reply = { jsonrpc: "2.0", id, error: { code, message } };
    this.output.write(`${JSON.stringify(reply)}\n`);
  }

  private closeWhenAnswered(): void {
    if (this.inputEnded && this.unanswered.size === 0) void this.close();
  }
}

function isMessage(value: unknown): value is JSONRPCMessage {
  return (
    isJSONRPCRequest(value) ||
    isJSONRPCNotification(value) ||
    isJSONRPCResultResponse(value) ||
    isJSONRPCErrorResponse(value)
  );
}
