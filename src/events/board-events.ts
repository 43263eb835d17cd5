import { deliverAfterAnswer } from "./held-deliveries.js";

/**
 * In-process publish/subscribe of board change notifications, feeding the per-board SSE stream.
 * Publishing happens only after a transaction commits (see domain/transaction.ts); delivery to
 * listeners waits until the request that made the change has been answered (held-deliveries.ts).
 */
export type BoardEventName = "board_updated" | "board_deleted";

export interface BoardEvent {
  /** Monotonic per process; used as the SSE `id:` so reconnecting clients can tell what they missed. */
  id: number;
  boardId: number;
  event: BoardEventName;
  sentAt: string;
  /**
   * The tickets the change touched (created, changed, deleted, moved in or out, or showing a
   * changed neighbour); absent on a catch-up message, which means "refetch everything".
   */
  ticketIds?: number[];
}

export type BoardListener = (event: BoardEvent) => void;

export class BoardEventBus {
  private readonly listeners = new Map<number, Set<BoardListener>>();
  private lastId = 0;
  private readonly lastIdByBoard = new Map<number, number>();

  /** The id of the newest event published so far, for any board (0 when none). */
  get latestId(): number {
    return this.lastId;
  }

  /** The id of the newest event published for this board (0 when none since start). */
  latestIdFor(boardId: number): number {
    return this.lastIdByBoard.get(boardId) ?? 0;
  }

  subscribe(boardId: number, listener: BoardListener): () => void {
    let set = this.listeners.get(boardId);
    if (!set) {
      set = new Set();
      this.listeners.set(boardId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(boardId);
    };
  }

  publish(boardId: number, event: BoardEventName, ticketIds: number[] = []): void {
    const message: BoardEvent = {
      id: ++this.lastId,
      boardId,
      event,
      sentAt: new Date().toISOString(),
      ticketIds,
    };
    if (event === "board_deleted") this.lastIdByBoard.delete(boardId);
    else this.lastIdByBoard.set(boardId, message.id);
    deliverAfterAnswer(() => {
      const set = this.listeners.get(boardId);
      if (!set) return;
      for (const listener of [...set]) listener(message);
    });
  }
}
