import type { Db } from "./database.js";
import { IN_IDS } from "./id-lists.js";

/**
 * Where a ticket sits in its board's lists and what the list filters look at: the few columns
 * the in-memory board lists (src/kept-answers/board-lists.ts) keep per ticket, and the end of its
 * stored claim (the ready rule's claim test, read with the ticket: a claim row's change notes
 * its ticket as changed). Read for a lane or a whole board once, then only for the tickets each
 * commit changed.
 */
export interface TicketPlacement {
  id: number;
  boardId: number;
  laneId: number;
  isArchived: boolean;
  isResolved: boolean;
  position: number;
  priority: number;
  /** When its stored claim ends (live while after now), or null when it has none. */
  claimExpiresAt: string | null;
  /** Its `notBefore` (not ready while after now; docs/api.md, "Not before"), or null. */
  notBefore: string | null;
}

type RawPlacement = [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  string | null,
  string | null,
];

const COLUMNS = `t.id, t.board_id, t.lane_id, t.is_archived, t.is_resolved, t.position, t.priority,
  (SELECT c.expires_at FROM ticket_claims c WHERE c.ticket_id = t.id), t.not_before`;

const fromRaw = (row: RawPlacement): TicketPlacement => ({
  id: row[0],
  boardId: row[1],
  laneId: row[2],
  isArchived: row[3] === 1,
  isResolved: row[4] === 1,
  position: row[5],
  priority: row[6],
  claimExpiresAt: row[7],
  notBefore: row[8],
});

export function ticketPlacementStore(db: Db) {
  const ofBoard = db
    .prepare<[number], RawPlacement>(`SELECT ${COLUMNS} FROM tickets t WHERE t.board_id = ?`)
    .raw(true);
  const ofLane = db
    .prepare<[number, number], RawPlacement>(
      `SELECT ${COLUMNS} FROM tickets t WHERE t.lane_id = ? AND t.board_id = ?
       ORDER BY t.is_archived, t.position, t.id`,
    )
    .raw(true);
  const byId = db
    .prepare<[number], RawPlacement>(`SELECT ${COLUMNS} FROM tickets t WHERE t.id = ?`)
    .raw(true);
  const byIds = db
    .prepare<[string], RawPlacement>(`SELECT ${COLUMNS} FROM tickets t WHERE t.id ${IN_IDS}`)
    .raw(true);

  return {
    /** Every ticket of a board, unordered. */
    ofBoard: (boardId: number): TicketPlacement[] => ofBoard.all(boardId).map(fromRaw),

    /**
     * The tickets of one lane of a board, in board order (one walk of tickets_by_lane); none
     * for a lane of another board.
     */
    ofLane: (laneId: number, boardId: number): TicketPlacement[] =>
      ofLane.all(laneId, boardId).map(fromRaw),

    /** The tickets of `ids` that exist (anywhere), keyed by id. */
    byIds(ids: Iterable<number>): Map<number, TicketPlacement> {
      const map = new Map<number, TicketPlacement>();
      const list = [...ids];
      // One ticket (a claim, a title) is the common case: a plain lookup skips json_each.
      const rows =
        list.length === 1 ? [byId.get(list[0] as number)] : byIds.iterate(JSON.stringify(list));
      for (const row of rows) if (row) map.set(row[0], fromRaw(row));
      return map;
    },
  };
}

export type TicketPlacementStore = ReturnType<typeof ticketPlacementStore>;
