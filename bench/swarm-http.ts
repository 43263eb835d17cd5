/**
 * The swarm benchmark's board stream reader: reports each message with its arrival time. (Its
 * requests go through bench/lib.ts's Client, with `parse: false` for big answers: the benchmark
 * shares two cores with the server, and what it measures is the server.)
 */
import { type IncomingMessage, request } from "node:http";
import { performance } from "node:perf_hooks";

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
