import { type IncomingMessage, request } from "node:http";

export interface SseMessage {
  id: string | undefined;
  data: any;
}

/**
 * A minimal server-sent-events reader over raw HTTP (no EventSource, so the test sees exactly the
 * bytes tack writes): it splits the stream on blank lines and keeps data messages and comment
 * lines apart, in arrival order.
 */
export class SseClient {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  /** Resolves when the server ends the response. */
  readonly ended: Promise<void>;
  private buffer = "";
  private waiters: Array<() => void> = [];

  private constructor(
    readonly response: IncomingMessage,
    private readonly abort: () => void,
  ) {
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      this.buffer += chunk;
      let end = this.buffer.indexOf("\n\n");
      while (end !== -1) {
        this.take(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 2);
        end = this.buffer.indexOf("\n\n");
      }
      this.notify();
    });
    this.ended = new Promise((resolve) => {
      response.on("end", resolve);
      response.on("close", resolve);
    });
    this.ended.then(() => this.notify());
  }

  /** Connects and resolves once the response headers arrived (whatever the status). */
  static open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = request(url, { headers }, (response) => {
        resolve(new SseClient(response, () => req.destroy()));
      });
      req.on("error", reject);
      req.end();
    });
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  /** Waits until `condition` holds (checked on every chunk), failing after `timeoutMs`. */
  async waitUntil(condition: () => boolean, timeoutMs = 2000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("timed out waiting for stream data");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until at least `count` data messages arrived. */
  waitForMessages(count: number, timeoutMs?: number): Promise<void> {
    return this.waitUntil(() => this.messages.length >= count, timeoutMs);
  }

  close(): void {
    this.abort();
  }

  private take(block: string): void {
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) this.comments.push(line.slice(1).trim());
      else if (line.startsWith("id:")) id = line.slice(3).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) this.messages.push({ id, data: JSON.parse(data.join("\n")) });
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
