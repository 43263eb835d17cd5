/**
 * The swarm benchmark's HTTP side: a keep-alive client that can skip parsing big answers (the
 * benchmark shares two cores with the server, and what it measures is the server), and a board
 * stream reader that reports each message with its arrival time.
 */
import { Agent, type IncomingMessage, request } from "node:http";
import { performance } from "node:perf_hooks";

export interface Exchange {
  status: number;
  /** The parsed JSON answer, or null when not asked for (or not JSON, or empty). */
  body: any;
  bytes: number;
  /** performance.now() when the request went out and when the answer's last byte arrived. */
  sentAt: number;
  answeredAt: number;
}

export class SwarmClient {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;

  constructor(baseUrl: string, maxSockets = 128) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  /** Sends one request; `parse: false` counts the answer's bytes without decoding them. */
  call(method: string, path: string, body?: unknown, parse = true): Promise<Exchange> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = {};
    if (payload !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = Buffer.byteLength(payload);
    }
    const sentAt = performance.now();
    return new Promise((resolve, reject) => {
      const req = request(
        { host: this.host, port: this.port, method, path, headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on("data", (chunk: Buffer) => {
            bytes += chunk.length;
            if (parse) chunks.push(chunk);
          });
          res.on("end", () => {
            const answeredAt = performance.now();
            let parsed: unknown = null;
            const json = String(res.headers["content-type"]).startsWith("application/json");
            if (parse && json && bytes > 0) parsed = JSON.parse(Buffer.concat(chunks).toString());
            resolve({ status: res.statusCode ?? 0, body: parsed, bytes, sentAt, answeredAt });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** One message of a board stream: its `ticketIds` (null: reload everything) and arrival time. */
export interface StreamMessage {
  event: string;
  ticketIds: number[] | null;
  arrivedAt: number;
}

export interface BoardStream {
  messages: number;
  close(): void;
}

/**
 * Opens `GET /api/boards/{id}/events` on its own socket; resolves once `: connected` arrived,
 * then calls `onMessage` for every data message.
 */
export function openBoardStream(
  baseUrl: string,
  boardId: number,
  onMessage: (message: StreamMessage) => void,
): Promise<BoardStream> {
  return new Promise((resolve, reject) => {
    let response: IncomingMessage | undefined;
    const stream: BoardStream = {
      messages: 0,
      close: () => {
        req.destroy();
        response?.destroy();
      },
    };
    const req = request(`${baseUrl}/api/boards/${boardId}/events`, { agent: false }, (res) => {
      response = res;
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`board stream answered ${res.statusCode}`));
        return;
      }
      res.setEncoding("utf8");
      let buffer = "";
      let connected = false;
      res.on("data", (chunk: string) => {
        const arrivedAt = performance.now();
        buffer += chunk;
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
          if (!connected && block.includes(": connected")) {
            connected = true;
            resolve(stream);
          }
          const data = block
            .split("\n")
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).trim())
            .join("\n");
          if (data === "") continue;
          const parsed = JSON.parse(data) as { event: string; ticketIds?: unknown };
          stream.messages++;
          onMessage({
            event: parsed.event,
            ticketIds: Array.isArray(parsed.ticketIds) ? (parsed.ticketIds as number[]) : null,
            arrivedAt,
          });
        }
      });
      res.on("error", () => {});
    });
    req.on("error", (error) => {
      if (response === undefined) reject(error);
    });
    req.end();
  });
}
