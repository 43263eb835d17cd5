import type { Db } from "./database.js";
import { prepareTextInsert, type TicketWrite } from "./tickets.js";

/** A ticket as a board import writes it: every column given, positions and timestamps kept. */
export interface ImportedTicket extends TicketWrite {
  boardId: number;
  /** Null also when the parent is not inserted yet (link it with `setParent` afterwards). */
  parentTicketId: number | null;
  position: number;
  createdAt: string;
}

/**
 * Writes of a board import that the per-resource stores do not offer, because an import keeps
 * what normal writes compute: positions and timestamps as given, and links between tickets that
 * are all being created in the same transaction. Each statement is prepared once and run in a
 * loop inside the import's single transaction.
 */
export function boardImportStore(db: Db) {
  const insertTicket = db.prepare(
    `INSERT INTO tickets (board_id, lane_id, parent_ticket_id, title, is_resolved, is_archived,
       priority, position, created_at, updated_at)
     VALUES (@boardId, @laneId, @parentTicketId, @title, @isResolved, @isArchived, @priority,
       @position, @createdAt, @updatedAt)`,
  );
  const insertText = prepareTextInsert(db);
  const setParent = db.prepare<[number, number]>(
    "UPDATE tickets SET parent_ticket_id = ? WHERE id = ?",
  );
  const insertBlocker = db.prepare<[number, number]>(
    "INSERT OR IGNORE INTO ticket_blockers (ticket_id, blocker_id) VALUES (?, ?)",
  );
  const insertRelated = db.prepare<[number, number]>(
    "INSERT OR IGNORE INTO ticket_related (low_id, high_id) VALUES (?, ?)",
  );

  return {
    /** Returns the new id. */
    insertTicket(ticket: ImportedTicket): number {
      const id = Number(
        insertTicket.run({
          ...ticket,
          isResolved: ticket.isResolved ? 1 : 0,
          isArchived: ticket.isArchived ? 1 : 0,
        }).lastInsertRowid,
      );
      insertText.run({ ...ticket, id });
      return id;
    },
    setParent(ticketId: number, parentTicketId: number): void {
      setParent.run(parentTicketId, ticketId);
    },
    /** `ticketId` is blocked by `blockerId`. */
    insertBlocker(ticketId: number, blockerId: number): void {
      insertBlocker.run(ticketId, blockerId);
    },
    /** A symmetric link, stored once with the lower id first. */
    insertRelated(a: number, b: number): void {
      insertRelated.run(Math.min(a, b), Math.max(a, b));
    },
  };
}

export type BoardImportStore = ReturnType<typeof boardImportStore>;
