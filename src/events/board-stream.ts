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

export interface BoardStreamOptions {
  /** How often every open stream receives a `: ping` comment line. */
  pingIntervalMs?: number;
}

interface Client {
  response: ServerResponse;
  unsubscribe(): void;
  /** The newest message held back while the socket drains (only the latest one matters). */
  pending: BoardEvent | null;
}

export class BoardStreams {
  private readonly clients = new Set<Client>();
  private readonly pingIntervalMs: number;
  private pingTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly bus: Pick<BoardEventBus, "subscribe" | "latestId" | "latestIdFor">,
    options: BoardStreamOptions = {},
  ) {
    this.pingIntervalMs = options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
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

    const client: Client = { response, unsubscribe: () => {}, pending: null };
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
      this.forget(client);
      client.response.end(format(event));
      return;
    }
    // A client that does not keep up gets the newest change once it drains, not a backlog:
    // each message only says "refetch".
    if (client.response.writableNeedDrain) client.pending = coalesce(client.pending, event);
    else this.send(client, event);
  }

  private send(client: Client, event: BoardEvent): void {
    client.response.write(format(event));
  }

  private forget(client: Client): void {
    if (!this.clients.delete(client)) return;
    client.unsubscribe();
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

function format(event: BoardEvent): string {
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
