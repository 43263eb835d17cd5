import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { BoardEvent, BoardEventBus } from "./board-events.js";

/**
 * The per-board server-sent-events stream (docs/api.md, "The board change stream"): transport only,
 * no domain rules. Each connected client gets `: connected`, then one `id:` + `data:` message per
 * committed change (as published by the bus after commit), a `: ping` comment every interval, and,
 * when the board is deleted, a `board_deleted` message after which its response ends.
 */
export const STREAM_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
} as const;

export const DEFAULT_PING_INTERVAL_MS = 15_000;

/**
 * Messages published within this long of a board's last write to its streams go out together,
 * one write per stream (docs/performance.md, "Board streams"): each write is a system call
 * per open stream, and 34 of them cost a busy board's writes more than their own SQL did. A
 * message after a quiet spell goes out at once, so only the later messages of a burst wait.
 */
export const DEFAULT_BATCH_MS = 10;

export interface BoardStreamOptions {
  /** How often every open stream receives a `: ping` comment line. */
  pingIntervalMs?: number;
  /** How long after a board's write to its streams the next messages wait to go out together. */
  batchMs?: number;
}

interface Client {
  response: ServerResponse;
  /**
   * The connection, written to directly (one `write` of bytes shared by every stream of the
   * board, instead of the response's chunk framing, corking and copying per stream); null when
   * the response had no socket of its own yet (a pipelined request), which then goes through
   * the response.
   */
  socket: Socket | null;
  /** The newest message held back while the socket drains (only the latest one matters). */
  pending: BoardEvent | null;
  /** Writes `pending` once the socket has drained. */
  onDrain(): void;
}

/** A board's open streams, and the messages waiting for their next write. */
interface BoardFanOut {
  boardId: number;
  clients: Set<Client>;
  unsubscribe(): void;
  queued: BoardEvent[];
  lastFlushAt: number;
  /** A write to come: at once (after the current turn of JS), or when the batch has passed. */
  flushing: "soon" | NodeJS.Timeout | undefined;
  /** While a timer waits for the batch to pass: when it does, and how to write at once then. */
  waiting: { due: number; flushNow(): void };
}

/** The fan-outs whose messages wait for their batch to pass (any BoardStreams). */
const waitingForBatch = new Set<BoardFanOut["waiting"]>();

/**
 * Writes the messages whose batch has passed, without waiting for their timer. Called as each
 * request starts (http/stream-after-response.ts): on a saturated server a timer fires only once
 * the event loop has run every handler ready in this turn (100 ms and more with 32 agents),
 * while new requests keep starting in between.
 */
export function flushStreamsDue(): void {
  if (waitingForBatch.size === 0) return;
  const now = performance.now();
  for (const waiting of waitingForBatch) if (waiting.due <= now) waiting.flushNow();
}

export class BoardStreams {
  private readonly boards = new Map<number, BoardFanOut>();
  private openStreams = 0;
  private readonly pingIntervalMs: number;
  private pingTimer: NodeJS.Timeout | undefined;
  private readonly batchMs: number;

  constructor(
    private readonly bus: Pick<BoardEventBus, "subscribe" | "latestId" | "latestIdFor">,
    options: BoardStreamOptions = {},
  ) {
    this.pingIntervalMs = options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
    this.batchMs = options.batchMs ?? DEFAULT_BATCH_MS;
  }

  /** Number of open streams (all boards). */
  get size(): number {
    return this.openStreams;
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
    // With a socket of its own, the head and the line above are already in the socket's queue,
    // so bytes written to the socket from now on follow them in order.
    const client: Client = {
      response,
      socket: response.socket,
      pending: null,
      onDrain: () => {
        const held = client.pending;
        client.pending = null;
        if (held) write(client, wireBytes([held]));
      },
    };
    const board = this.boardOf(boardId);
    board.clients.add(client);
    this.openStreams += 1;
    response.on("close", () => this.forget(board, client));
    drainSource(client).on("drain", client.onDrain);

    if (isBehind(lastEventId, this.bus.latestIdFor(boardId), this.bus.latestId)) {
      write(
        client,
        wireBytes([
          {
            id: this.bus.latestId,
            boardId,
            event: "board_updated",
            sentAt: new Date().toISOString(),
          },
        ]),
      );
    }
    this.startPinging();
  }

  /** Ends every open stream, so the server can close (used from Fastify's preClose hook). */
  closeAll(): void {
    for (const board of [...this.boards.values()]) {
      for (const client of [...board.clients]) {
        this.forget(board, client);
        client.response.end();
      }
    }
  }

  private boardOf(boardId: number): BoardFanOut {
    let board = this.boards.get(boardId);
    if (!board) {
      const created: BoardFanOut = {
        boardId,
        clients: new Set(),
        unsubscribe: () => {},
        queued: [],
        lastFlushAt: Number.NEGATIVE_INFINITY,
        flushing: undefined,
        waiting: { due: 0, flushNow: () => this.scheduleFlush(created) },
      };
      created.unsubscribe = this.bus.subscribe(boardId, (event) => this.deliver(created, event));
      this.boards.set(boardId, created);
      board = created;
    }
    return board;
  }

  private deliver(board: BoardFanOut, event: BoardEvent): void {
    if (event.event === "board_deleted") {
      const held = board.queued;
      this.drop(board);
      for (const client of board.clients) {
        const queued = needsDrain(client) ? [] : held;
        this.openStreams -= 1;
        drainSource(client).off("drain", client.onDrain);
        client.response.end(queued.map(format).join("") + format(event));
      }
      board.clients.clear();
      this.stopPingingIfIdle();
      return;
    }
    board.queued.push(event);
    this.scheduleFlush(board);
  }

  /**
   * At once when the board's last write is a batch ago: after the current turn of JS, so the
   * messages released together (the answers one group commit covered) share one write.
   * Otherwise when the batch has passed, or at the first message released after that, whichever
   * comes first: on a busy server the timer waits behind whole turns of the event loop, while
   * answers keep releasing messages.
   */
  private scheduleFlush(board: BoardFanOut): void {
    if (board.flushing === "soon") return;
    const wait = board.lastFlushAt + this.batchMs - performance.now();
    if (wait > 0) {
      if (board.flushing === undefined) {
        board.flushing = setTimeout(() => this.flush(board), wait);
        board.waiting.due = board.lastFlushAt + this.batchMs;
        waitingForBatch.add(board.waiting);
      }
      return;
    }
    if (board.flushing) clearTimeout(board.flushing);
    waitingForBatch.delete(board.waiting);
    board.flushing = "soon";
    process.nextTick(() => this.flush(board));
  }

  private flush(board: BoardFanOut): void {
    if (board.flushing !== undefined && board.flushing !== "soon") clearTimeout(board.flushing);
    board.flushing = undefined;
    waitingForBatch.delete(board.waiting);
    const queued = board.queued;
    if (queued.length === 0) return;
    board.queued = [];
    board.lastFlushAt = performance.now();
    const bytes = wireBytes(queued);
    for (const client of board.clients) {
      if (needsDrain(client)) {
        // A client that does not keep up gets the newest change once it drains, not a backlog:
        // each message only says "refetch".
        for (const event of queued) client.pending = coalesce(client.pending, event);
      } else {
        write(client, bytes);
      }
    }
  }

  private forget(board: BoardFanOut, client: Client): void {
    if (!board.clients.delete(client)) return;
    this.openStreams -= 1;
    // The connection may outlive the stream (keep-alive after the response ends).
    drainSource(client).off("drain", client.onDrain);
    if (board.clients.size === 0) this.drop(board);
    this.stopPingingIfIdle();
  }

  /** Stops following a board whose last stream closed (or that was deleted). */
  private drop(board: BoardFanOut): void {
    if (this.boards.get(board.boardId) !== board) return;
    this.boards.delete(board.boardId);
    board.unsubscribe();
    if (board.flushing !== undefined && board.flushing !== "soon") clearTimeout(board.flushing);
    board.flushing = undefined;
    waitingForBatch.delete(board.waiting);
    board.queued = [];
  }

  private startPinging(): void {
    if (this.pingTimer || this.openStreams === 0) return;
    this.pingTimer = setInterval(() => {
      for (const board of this.boards.values()) {
        for (const client of board.clients) {
          if (!needsDrain(client)) client.response.write(": ping\n\n");
        }
      }
    }, this.pingIntervalMs);
    // Pings alone must never keep the process alive.
    this.pingTimer.unref();
  }

  private stopPingingIfIdle(): void {
    if (this.openStreams > 0) return;
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }
}

/**
 * Messages as they go on the wire, made once for all of a board's streams: the text, and the
 * same bytes framed as one HTTP/1.1 chunk (a response without a length is chunked, except to an
 * HTTP/1.0 client, which reads until the connection closes).
 */
interface WireBytes {
  text: string;
  chunk(): Buffer;
}

function wireBytes(events: BoardEvent[]): WireBytes {
  const text = events.length === 1 ? format(events[0] as BoardEvent) : events.map(format).join("");
  let chunk: Buffer | undefined;
  return {
    text,
    chunk() {
      if (!chunk) {
        const size = Buffer.byteLength(text);
        const head = `${size.toString(16)}\r\n`;
        chunk = Buffer.allocUnsafe(head.length + size + 2);
        chunk.write(head, 0, "latin1");
        chunk.write(text, head.length, "utf8");
        chunk.write("\r\n", head.length + size, "latin1");
      }
      return chunk;
    },
  };
}

/** One write of the messages to a client: straight to its socket when it has one. */
function write(client: Client, bytes: WireBytes): void {
  const { socket, response } = client;
  if (socket === null || !response.chunkedEncoding) response.write(bytes.text);
  else if (!socket.destroyed) socket.write(bytes.chunk());
}

/** What emits `drain` for the client's writes: its socket, or its response. */
function drainSource(client: Client): NodeJS.EventEmitter {
  return client.socket ?? client.response;
}

function needsDrain(client: Client): boolean {
  return client.socket === null
    ? client.response.writableNeedDrain
    : client.socket.writableNeedDrain;
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
