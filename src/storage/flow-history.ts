import type { Db } from "./database.js";
import { FLOW_KINDS } from "./migrations/012-flow-histories.js";

// What insights read (CONTRACT.md §14): the flow history of every ticket that is or was on a
// board and still exists, from `flow_histories` (migration 012), where triggers on `activity`
// keep each ticket's flow entries already reduced to numbers. One statement joins them into a
// single JSON text and one JSON.parse reads it: no detail JSON or date-time text is parsed per
// entry, and no row object is built per entry.

/** A ticket as JSON text: [id, boardId, laneId, isResolved, isArchived, [entries]]. */
const TICKET_JSON = `'[' || t.id || ',' || t.board_id || ',' || t.lane_id || ',' || t.is_resolved
  || ',' || t.is_archived || ',[' || ifnull(h.entries, '') || ']]'`;

/**
 * The tickets on the board now, then those that moved away from it and still exist (found by the
 * move entries' `fromBoardId` index of migration 008), as one JSON array. UNION ALL of the two
 * disjoint sets rather than UNION: no temporary index of 20,000 ids to remove duplicates.
 */
const HISTORIES = `
  SELECT '[' || ifnull(group_concat(ticket, ','), '') || ']' FROM (
    SELECT ${TICKET_JSON} AS ticket
    FROM tickets t LEFT JOIN flow_histories h ON h.ticket_id = t.id
    WHERE t.board_id = @board
    UNION ALL
    SELECT ${TICKET_JSON}
    FROM tickets t LEFT JOIN flow_histories h ON h.ticket_id = t.id
    WHERE t.board_id <> @board AND t.id IN (
      SELECT a.subject_ticket_id FROM activity a
      WHERE a.action = 'ticket_moved_board'
        AND json_extract(a.details_json, '$.fromBoardId') = @board))`;

export { FLOW_KINDS };
export type FlowAction = (typeof FLOW_KINDS)[number];

/** A flow entry's `kind`: its action's index in FLOW_KINDS. */
export const FlowKind = Object.fromEntries(FLOW_KINDS.map((action, code) => [action, code])) as {
  readonly [Action in FlowAction]: number;
};

/**
 * One history entry (migration 012 describes each field): [at (epoch ms), activityId, kind,
 * flag, actor, laneFrom, laneTo, boardFrom, boardTo], the fields its kind does not carry left off
 * the end (undefined when read). A creation carries nothing: the state a
 * ticket started in is found from its current state and its later changes
 * (domain/insights/ticket-replay.ts), the same way for created and imported tickets.
 */
export type FlowEntry = [
  at: number,
  activityId: number,
  kind: number,
  flag?: number | null,
  actor?: string | null,
  laneFrom?: number | null,
  laneTo?: number | null,
  boardFrom?: number | null,
  boardTo?: number | null,
];

/** A ticket as it is now, with its flow entries oldest first (created_at, then id). */
export interface FlowTicket {
  id: number;
  boardId: number;
  laneId: number;
  isResolved: boolean;
  isArchived: boolean;
  entries: FlowEntry[];
}

type StoredTicket = [
  id: number,
  boardId: number,
  laneId: number,
  resolved: number,
  archived: number,
  entries: FlowEntry[],
];

/** Entries come in the order they were written; a restored board may have written them out of time order. */
function inTimeOrder(entries: FlowEntry[]): FlowEntry[] {
  for (let i = 1; i < entries.length; i++) {
    const [at, id] = entries[i] as FlowEntry;
    const [previousAt, previousId] = entries[i - 1] as FlowEntry;
    if (at < previousAt || (at === previousAt && id < previousId)) {
      return entries.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    }
  }
  return entries;
}

export function flowHistoryStore(db: Db) {
  const histories = db.prepare<[{ board: number }], string>(HISTORIES).pluck();

  return {
    /** Every ticket that is or was on the board and still exists, as it is now, with its history. */
    tickets(boardId: number): FlowTicket[] {
      const stored = JSON.parse(histories.get({ board: boardId }) as string) as StoredTicket[];
      return stored.map(([id, board, lane, resolved, archived, entries]) => ({
        id,
        boardId: board,
        laneId: lane,
        isResolved: resolved === 1,
        isArchived: archived === 1,
        entries: inTimeOrder(entries),
      }));
    },
  };
}

export type FlowHistoryStore = ReturnType<typeof flowHistoryStore>;
