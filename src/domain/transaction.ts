import type { BoardEventBus, BoardEventName } from "../events/board-events.js";
import type { Db } from "../storage/database.js";

/**
 * The boards a unit of work changed. Domain code records every board it alters; the
 * notifications go out once, after commit, so a rolled-back change is never announced and a bulk
 * operation touching many tickets yields one message per board.
 */
export class BoardChanges {
  private readonly boards = new Map<number, BoardEventName>();

  touched(boardId: number): void {
    if (!this.boards.has(boardId)) this.boards.set(boardId, "board_updated");
  }

  deleted(boardId: number): void {
    this.boards.set(boardId, "board_deleted");
  }

  publishTo(bus: BoardEventBus): void {
    for (const [boardId, event] of this.boards) bus.publish(boardId, event);
  }
}

export type Transact = <T>(work: (changes: BoardChanges) => T) => T;

/**
 * Runs work in one SQLite transaction (BEGIN IMMEDIATE, so concurrent writers queue instead of
 * failing mid-way). A nested call joins the outer unit of work: one commit, one set of
 * notifications.
 */
export function createTransact(db: Db, bus: BoardEventBus): Transact {
  let active: BoardChanges | null = null;
  return <T>(work: (changes: BoardChanges) => T): T => {
    if (active) return work(active);
    const changes = new BoardChanges();
    active = changes;
    let result: T;
    try {
      result = db.transaction(() => work(changes)).immediate();
    } finally {
      active = null;
    }
    changes.publishTo(bus);
    return result;
  };
}
