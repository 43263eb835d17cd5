import type { Db } from "./database.js";

/** A stored claim; it may have expired (`expiresAt` in the past), which reads as no claim. */
export interface ClaimRow {
  ticketId: number;
  /** The board the ticket was on when claimed. */
  boardId: number;
  actor: string;
  claimedAt: string;
  expiresAt: string;
}

type RawClaim = [number, number, string, string, string];

const fromRaw = (row: RawClaim): ClaimRow => ({
  ticketId: row[0],
  boardId: row[1],
  actor: row[2],
  claimedAt: row[3],
  expiresAt: row[4],
});

export function ticketClaimStore(db: Db) {
  const byTicket = db
    .prepare<[number], RawClaim>(
      `SELECT ticket_id, board_id, actor, claimed_at, expires_at FROM ticket_claims
       WHERE ticket_id = ?`,
    )
    .raw(true);
  const ofBoard = db
    .prepare<[number], RawClaim>(
      // CROSS JOIN keeps the claims (a short table) driving: joined from a 10,000-ticket
      // board's side, the planner walked every ticket of the board.
      `SELECT c.ticket_id, c.board_id, c.actor, c.claimed_at, c.expires_at FROM ticket_claims c
       CROSS JOIN tickets t ON t.id = c.ticket_id WHERE t.board_id = ?`,
    )
    .raw(true);
  const upsert = db.prepare<[number, number, string, string, string]>(
    `INSERT INTO ticket_claims (ticket_id, board_id, actor, claimed_at, expires_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (ticket_id) DO UPDATE SET board_id = excluded.board_id, actor = excluded.actor,
       claimed_at = excluded.claimed_at, expires_at = excluded.expires_at`,
  );
  const remove = db.prepare<[number]>("DELETE FROM ticket_claims WHERE ticket_id = ?");
  const stateOf = db
    .prepare<[number], [number, string | null]>(
      `SELECT t.version, c.expires_at FROM tickets t
       LEFT JOIN ticket_claims c ON c.ticket_id = t.id WHERE t.id = ?`,
    )
    .raw(true);
  const expiriesOfBoard = db
    .prepare<[number], [string]>(
      // CROSS JOIN as above: the board's side walked all 10,000 tickets (~1 ms per list read
      // after a write, when the board's tag reads this again).
      `SELECT c.expires_at FROM ticket_claims c CROSS JOIN tickets t ON t.id = c.ticket_id
       WHERE t.board_id = ? ORDER BY c.expires_at`,
    )
    .raw(true);

  // Served by tickets_not_before (migration 017): the board's moments still to come, not its
  // tickets.
  const waitsOfBoard = db
    .prepare<[number, string], [string]>(
      `SELECT not_before FROM tickets INDEXED BY tickets_not_before
       WHERE board_id = ? AND not_before IS NOT NULL AND not_before > ? ORDER BY not_before`,
    )
    .raw(true);

  return {
    get(ticketId: number): ClaimRow | undefined {
      const row = byTicket.get(ticketId);
      return row && fromRaw(row);
    },

    /** Every stored claim of a board's tickets, keyed by ticket (expired ones included). */
    ofBoard(boardId: number): Map<number, ClaimRow> {
      const map = new Map<number, ClaimRow>();
      for (const row of ofBoard.iterate(boardId)) map.set(row[0], fromRaw(row));
      return map;
    },

    /** A ticket's version and its stored claim's end (null when unclaimed); undefined: no ticket. */
    stateOf(ticketId: number): { version: number; claimExpiresAt: string | null } | undefined {
      const row = stateOf.get(ticketId);
      return row && { version: row[0], claimExpiresAt: row[1] };
    },

    /** When each stored claim of a board's tickets ends, earliest first. */
    expiriesOfBoard: (boardId: number): string[] =>
      expiriesOfBoard.all(boardId).map((row) => row[0]),

    /**
     * The `notBefore` moments of a board's tickets after `after`, earliest first (docs/api.md,
     * "Not before": each makes a ticket ready with no write).
     */
    waitsOfBoard: (boardId: number, after: string): string[] =>
      waitsOfBoard.all(boardId, after).map((row) => row[0]),

    set(claim: ClaimRow): void {
      upsert.run(claim.ticketId, claim.boardId, claim.actor, claim.claimedAt, claim.expiresAt);
    },

    remove(ticketId: number): void {
      remove.run(ticketId);
    },
  };
}

export type TicketClaimStore = ReturnType<typeof ticketClaimStore>;
