import type { BoardEventBus, BoardEventName } from "../events/board-events.js";
import type { Db } from "../storage/database.js";

/**
 * The boards a unit of work changed. Domain code records every board it alters; the
 * notifications go out once, after commit, so a rolled-back change is never announced and a bulk
 * operation touching many tickets yields one message per board.
 */
export class BoardChanges {
  private readonly boards = new Map<number, BoardEventName>();
  /** Per board, the tickets the unit of work changed there (filled before commit). */
  private readonly tickets = new Map<number, Set<number>>();
  /** Per board, tickets the message names although their representation did not change. */
  private readonly mentioned = new Map<number, Set<number>>();
  /** Boards deleted (kept apart: asked after every commit, and nearly always empty). */
  private readonly deletions: number[] = [];

  touched(boardId: number): void {
    if (!this.boards.has(boardId)) this.boards.set(boardId, "board_updated");
  }

  deleted(boardId: number): void {
    if (this.boards.get(boardId) !== "board_deleted") this.deletions.push(boardId);
    this.boards.set(boardId, "board_deleted");
  }

  /**
   * Records a changed ticket on a board it is or was on (docs/api.md, "Coordination for agents").
   * It names the ticket in that board's message, if the board has one; it sends none by itself: a
   * request that commits twice (comment push) still sends one message, after its last commit.
   */
  ticketChanged(boardId: number, ticketId: number): void {
    addToBoard(this.tickets, boardId, ticketId);
  }

  /**
   * Names a ticket in the board's message without counting it as changed (its version, ETag
   * and list entry stay): an event recorded on it, which a follower showing that ticket's
   * timeline wants to hear of, and nobody else needs to refetch more than that ticket for.
   */
  ticketMentioned(boardId: number, ticketId: number): void {
    addToBoard(this.mentioned, boardId, ticketId);
  }

  /** The tickets changed per board (a moved or deleted ticket also under the board it left). */
  get changedTickets(): ReadonlyMap<number, ReadonlySet<number>> {
    return this.tickets;
  }

  /** Boards this unit of work deleted. */
  get deletedBoards(): readonly number[] {
    return this.deletions;
  }

  /** Every board whose data changed: touched, deleted, or with a changed ticket. */
  get changedBoards(): Set<number> {
    const boards = new Set(this.boards.keys());
    for (const boardId of this.tickets.keys()) boards.add(boardId);
    return boards;
  }

  publishTo(bus: BoardEventBus): void {
    for (const [boardId, event] of this.boards) {
      const changed = this.tickets.get(boardId);
      const mentioned = this.mentioned.get(boardId);
      let ids: number[];
      if (!mentioned) ids = changed ? [...changed] : [];
      else ids = [...new Set([...(changed ?? []), ...mentioned])];
      bus.publish(
        boardId,
        event,
        ids.sort((a, b) => a - b),
      );
    }
  }
}

/** Adds `ticketId` to `boardId`'s set in `byBoard`, the set made on the board's first ticket. */
function addToBoard(byBoard: Map<number, Set<number>>, boardId: number, ticketId: number): void {
  let set = byBoard.get(boardId);
  if (!set) {
    set = new Set();
    byBoard.set(boardId, set);
  }
  set.add(ticketId);
}

export type Transact = <T>(work: (changes: BoardChanges) => T) => T;

/**
 * Work run around every unit of work: `beforeCommit` inside the transaction after the work
 * (coordination: claims that end, ticket versions), `afterCommit` right after the commit and
 * before any notification (board revisions, so a read that follows sees the new state).
 */
export interface TransactionHooks {
  beforeCommit?(changes: BoardChanges): void;
  afterCommit?(changes: BoardChanges): void;
}

/**
 * Runs work in one SQLite transaction (BEGIN IMMEDIATE, so concurrent writers queue instead of
 * failing mid-way). A nested call joins the outer unit of work: one commit, one set of
 * notifications.
 */
export function createTransact(db: Db, bus: BoardEventBus, hooks: TransactionHooks = {}): Transact {
  let active: BoardChanges | null = null;
  // Made once: better-sqlite3 builds a wrapper and its variants on every db.transaction() call.
  const runImmediate = db.transaction(
    (work: (changes: BoardChanges) => unknown, changes: BoardChanges) => {
      const value = work(changes);
      hooks.beforeCommit?.(changes);
      return value;
    },
  ).immediate;
  return <T>(work: (changes: BoardChanges) => T): T => {
    if (active) return work(active);
    const changes = new BoardChanges();
    active = changes;
    let result: T;
    try {
      result = runImmediate(work, changes) as T;
    } finally {
      active = null;
    }
    hooks.afterCommit?.(changes);
    changes.publishTo(bus);
    return result;
  };
}

/**
 * Runs reads in one snapshot: a deferred transaction, or the transaction already open. Besides
 * giving all the statements one state of the database, it takes the log's read lock once: in
 * WAL mode each statement run outside a transaction takes and releases it on its own, which
 * doubled the cost of a ticket detail's ten small statements (docs/performance.md, "The answer
 * cache and conditional GETs"). For synchronous work only, like `Transact`: the connection is
 * shared.
 */
export type Read = <T>(work: () => T) => T;

export function createRead(db: Db): Read {
  const inSnapshot = db.transaction((work: () => unknown) => work());
  return <T>(work: () => T): T => (db.inTransaction ? work() : (inSnapshot(work) as T));
}
