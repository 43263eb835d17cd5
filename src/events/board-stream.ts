import type { ServerResponse } from "node:http";
import type { BoardEvent, BoardEventBus } from "./board-events.js";

/**
 * The per-board server-sent-events stream (CONTRACT.md §9): transport only, no domain rules.
 * Each connected client gets `: connected`, then one `id:` + `data:` message per committed change
 * (as published by the bus after commit), a `: ping` comment every interval, and, when the board
 * is deleted, a `board_deleted` message after which its response ends.
 */
export const STREAM_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
} as const;

export const DEFAULT_PING_INTERVAL_MS = 15_000;

/**
 * Messages published within this long of the last write to the streams go out together, one
 * write per stream (docs/performance.md, "Writes on a busy board"): each write is a system call
 * per open stream, and 34 of them cost a busy board's writes more than their own SQL did. A
 * message after a quiet spell goes out at once (on the next turn of the event loop), so the
 * delay is only ever this long for the later messages of a burst.
 */
export const DEFAULT_BATCH_MS = 10;

export interface BoardStreamOptions {
  /** How often every open stream receives a `: ping` comment line. */
  pingIntervalMs?: number;
  /** How long after a write to the streams the next messages wait to go out together. */
  batchMs?: number;
}

interface Client {
  response: ServerResponse;
  unsubscribe(): void;
  /** The newest message held back while the socket drains (only the latest one matters). */
  pending: BoardEvent | null;
  /** Messages waiting for the next write to the streams, in publication order. */
  queued: BoardEvent[];
}

export class BoardStreams {
  private readonly clients = new Set<Client>();
  private readonly pingIntervalMs: number;
  private pingTimer: NodeJS.Timeout | undefined;
  private readonly batchMs: number;
  /** Clients with queued messages, and when those go out. */
  private readonly waiting = new Set<Client>();
  private flushTimer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private lastFlushAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly bus: Pick<BoardEventBus, "subscribe" | "latestId" | "latestIdFor">,
    options: BoardStreamOptions = {},
  ) {
    this.pingIntervalMs = options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
    this.batchMs = options.batchMs ?? DEFAULT_BATCH_MS;
  }

  /** Number of open streams (all boards). */
  get size(): number {
    return this.clients.size;
  }

  /**
   * Takes over `response` (already validated: the board exists) and streams the board's messages
   * until the client disconnects, the board is deleted, or `closeAll` runs.
   *
   * `lastEventId` is the client's `Last-Event-ID` header. Message ids come from one counter per
   * process. A client whose id is older than this board's newest message missed a change; one
   * whose id is beyond every id of this process saw an earlier run of the server, and cannot know
   * what changed since. Either way it gets one `board_updated` at once so it refetches.
   */
  attach(boardId: number, response: ServerResponse, lastEventId?: string): void {
    response.writeHead(200, STREAM_HEADERS);
    response.write(": connected\n\n");

    const client: Client = { response, unsubscribe: () => {}, pending: null, queued: [] };
    client.unsubscribe = this.bus.subscribe(boardId, (event) => this.deliver(client, event));
    this.clients.add(client);
    response.on("close", () => this.forget(client));
    response.on("drain", () => {
      const held = client.pending;
      client.pending = null;
      if (held) this.send(client, held);
    });

    if (isBehind(lastEventId, this.bus.latestIdFor(boardId), this.bus.latestId)) {
      this.send(client, {
        id: this.bus.latestId,
        boardId,
        event: "board_updated",
        sentAt: new Date().toISOString(),
      });
    }
    this.startPinging();
  }

  /** Ends every open stream, so the server can close (used from Fastify's preClose hook). */
  closeAll(): void {
    for (const client of [...this.clients]) {
      this.forget(client);
      client.response.end();
    }
  }

  private deliver(client: Client, event: BoardEvent): void {
    if (event.event === "board_deleted") {
      const queued = client.response.writableNeedDrain ? "" : client.queued.map(format).join("");
      this.forget(client);
      client.response.end(queued + format(event));
      return;
    }
    client.queued.push(event);
    this.waiting.add(client);
    this.scheduleFlush();
  }

  /** Writes the queued messages now, or once `batchMs` has passed since the last write. */
  private scheduleFlush(): void {
    if (this.flushTimer) return;
    const wait = this.lastFlushAt + this.batchMs - performance.now();
    const flush = () => {
      this.flushTimer = undefined;
      this.flush();
    };
    // Even at once, after the current publication has reached every client.
    this.flushTimer = wait <= 0 ? setImmediate(flush) : setTimeout(flush, wait);
  }

  private flush(): void {
    this.lastFlushAt = performance.now();
    for (const client of this.waiting) {
      const queued = client.queued;
      client.queued = [];
      if (client.response.writableNeedDrain) {
        // A client that does not keep up gets the newest change once it drains, not a backlog:
        // each message only says "refetch".
        for (const event of queued) client.pending = coalesce(client.pending, event);
      } else {
        client.response.write(queued.map(format).join(""));
      }
    }
    this.waiting.clear();
  }

  private send(client: Client, event: BoardEvent): void {
    client.response.write(format(event));
  }

  private forget(client: Client): void {
    if (!this.clients.delete(client)) return;
    client.unsubscribe();
    client.queued = [];
    this.waiting.delete(client);
    if (this.clients.size === 0) this.stopPinging();
  }

  private startPinging(): void {
    if (this.pingTimer || this.clients.size === 0) return;
    this.pingTimer = setInterval(() => {
      for (const client of this.clients) {
        if (!client.response.writableNeedDrain) client.response.write(": ping\n\n");
      }
    }, this.pingIntervalMs);
    // Pings alone must never keep the process alive.
    this.pingTimer.unref();
  }

  private stopPinging(): void {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }
}

/** Each message's text, made once for all of a board's streams (34 on a busy board). */
const formatted = new WeakMap<BoardEvent, string>();

function format(event: BoardEvent): string {
  let text = formatted.get(event);
  if (text === undefined) {
    text = formatOnce(event);
    formatted.set(event, text);
  }
  return text;
}

function formatOnce(event: BoardEvent): string {
  const data = JSON.stringify({
    boardId: event.boardId,
    event: event.event,
    sentAt: event.sentAt,
    ...(event.ticketIds ? { ticketIds: event.ticketIds } : {}),
  });
  return `id: ${event.id}\ndata: ${data}\n\n`;
}

/** The newest message standing for both: its ticket ids are those of both (absent = all). */
function coalesce(held: BoardEvent | null, next: BoardEvent): BoardEvent {
  if (!held) return next;
  if (!held.ticketIds || !next.ticketIds) return { ...next, ticketIds: undefined };
  const ids = [...new Set([...held.ticketIds, ...next.ticketIds])].sort((a, b) => a - b);
  return { ...next, ticketIds: ids };
}

function isBehind(
  lastEventId: string | undefined,
  latestForBoard: number,
  latestOverall: number,
): boolean {
  if (lastEventId === undefined) return false;
  const trimmed = lastEventId.trim();
  if (!/^\d{1,15}$/.test(trimmed)) return trimmed !== "";
  const seen = Number(trimmed);
  return seen < latestForBoard || seen > latestOverall;
}
