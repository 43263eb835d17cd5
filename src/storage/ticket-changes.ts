import type { Db } from "./database.js";
import { TICKET_CHANGE_SCHEMA } from "./ticket-change-triggers.js";

/**
 * Which tickets a transaction changed, gathered by SQLite itself. TEMP triggers on every table
 * that feeds a ticket's full representation (docs/api.md, "Coordination for agents") note the
 * ticket in a per-connection table and raise its version by exactly one (the first time it is
 * noted in the transaction); at the end of the unit of work `flush` reports the noted tickets
 * with their boards. Doing this in triggers means no write path (a lane renumbering, a cascade,
 * a relation seen from the other side, a tag rename) can forget it. The tables and triggers, as
 * the SQL that runs: storage/ticket-change-triggers.ts.
 *
 * An ask (docs/api.md, "Asks") shows in its ticket as `openAsks` and holds a ticket out of the
 * ready queue while it is open and blocking: opening, answering, withdrawing or deleting one
 * notes its ticket (the count is read with the ticket's row, so its parts stay).
 *
 * Besides, the tickets whose full Ticket changed in more than its own row, its claim or its
 * remote link have their parts noted (`partsChanged`, `onPartsChanged`):
 * src/kept-answers (ticket-parts.ts) keeps those parts per ticket and drops the noted ones, so a
 * change of a ticket's own columns (a title PATCH) keeps them.
 */
/** A ticket a transaction changed, on a board it is or was on. */
export interface ChangedTicket {
  ticketId: number;
  boardId: number;
}

/** A claim of a ticket changed in this transaction; `moved` when it left the claim's board. */
export interface ChangedClaim {
  ticketId: number;
  actor: string;
  expiresAt: string;
  boardId: number;
  isResolved: boolean;
  isArchived: boolean;
  moved: boolean;
}

export function ticketChangeStore(db: Db) {
  db.exec(TICKET_CHANGE_SCHEMA);
  const count = db
    .prepare<[], number>("SELECT count(*) FROM temp.changed_tickets WHERE board_id = 0")
    .pluck();
  // Each changed ticket with the board it is on now (its board-0 note, if it still exists) and
  // any board it left; a pair may repeat (a ticket moved away and back). One pass over the
  // notes: the UNION that removed repeats cost a temporary index per commit.
  const changed = db
    .prepare<[], [number, number]>(
      `SELECT c.ticket_id, iif(c.board_id = 0, t.board_id, c.board_id)
       FROM temp.changed_tickets c
         LEFT JOIN main.tickets t ON c.board_id = 0 AND t.id = c.ticket_id
       WHERE c.board_id <> 0 OR t.id IS NOT NULL`,
    )
    .raw(true);
  const changedIds = db
    .prepare<[], [number]>("SELECT DISTINCT ticket_id FROM temp.changed_tickets")
    .raw(true);
  const clear = db.prepare("DELETE FROM temp.changed_tickets");
  const partsChanged = db
    .prepare<[number], number>(
      "SELECT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = ?)",
    )
    .pluck(true);
  const changedParts = db
    .prepare<[], number>("SELECT ticket_id FROM temp.changed_parts")
    .pluck(true);
  const clearParts = db.prepare("DELETE FROM temp.changed_parts");
  const partsListeners: Array<(ticketIds: number[]) => void> = [];
  // Stored claims of changed tickets that still exist. The changed tickets drive (each has its
  // board-0 row): a transaction changes a few tickets, while claims pile up on a busy board
  // (expired ones stay until their ticket is claimed again), and a walk of every claim made
  // this query most of a claim-next's cost with a thousand claims (docs/performance.md).
  const claimsOfChanged = db.prepare<
    [],
    {
      ticket_id: number;
      actor: string;
      expires_at: string;
      board_id: number;
      is_resolved: number;
      is_archived: number;
      moved: number;
    }
  >(
    `SELECT c.ticket_id, c.actor, c.expires_at, t.board_id, t.is_resolved, t.is_archived,
       c.board_id <> t.board_id AS moved
     FROM temp.changed_tickets ch
       CROSS JOIN main.ticket_claims c ON c.ticket_id = ch.ticket_id
       JOIN main.tickets t ON t.id = c.ticket_id
     WHERE ch.board_id = 0`,
  );

  return {
    /** How many tickets this transaction has changed so far. */
    count: (): number => count.get() as number,

    /** Ids of the tickets changed so far in this transaction (for rules applied before commit). */
    changedIds: (): number[] => changedIds.all().map((row) => row[0]),

    /** Claims (live or expired) of the tickets changed so far, with those tickets' state. */
    claimsOfChanged(): ChangedClaim[] {
      return claimsOfChanged.all().map((row) => ({
        ticketId: row.ticket_id,
        actor: row.actor,
        expiresAt: row.expires_at,
        boardId: row.board_id,
        isResolved: row.is_resolved === 1,
        isArchived: row.is_archived === 1,
        moved: row.moved === 1,
      }));
    },

    /** Whether this transaction changed the ticket's parts so far. */
    partsChanged: (ticketId: number): boolean => partsChanged.get(ticketId) === 1,

    /**
     * Calls `listener` at each flush with the tickets whose parts the transaction changed,
     * before its commit (a rollback after that only means some parts are read again).
     */
    onPartsChanged(listener: (ticketIds: number[]) => void): void {
      partsListeners.push(listener);
    },

    /**
     * The changed tickets with their boards (a pair may repeat); the notes are cleared (end of a
     * transaction).
     */
    flush(): ChangedTicket[] {
      const rows = changed.all();
      // Every parts note comes with a ticket note: none cleared, nothing else to clear.
      if (clear.run().changes === 0) return [];
      const result = rows.map(([ticketId, boardId]) => ({ ticketId, boardId }));
      const parts = changedParts.all();
      if (parts.length > 0) {
        clearParts.run();
        for (const listener of partsListeners) listener(parts);
      }
      return result;
    },

    /** Forgets the notes of a transaction that rolled back. */
    discard(): void {
      clear.run();
      clearParts.run();
    },
  };
}

export type TicketChangeStore = ReturnType<typeof ticketChangeStore>;
