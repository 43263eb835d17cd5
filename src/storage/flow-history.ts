import type { Db } from "./database.js";
import { FLOW_KINDS } from "./migrations/012-flow-histories.js";

// What insights read (docs/api.md, "Insights"): the flow history of every ticket that is or was on
// a board and still exists, from `flow_histories` (migrations 012 and 013), where triggers on
// `activity` keep each ticket's flow entries already reduced to numbers, with a revision drawn
// anew by every change of the row.
//
// The parsed histories are kept in memory by (ticket, revision): a request reads the board's
// tickets with their revisions (integers only), and reads and parses again only the histories
// whose revision changed since the last request, so insights asked after each change of a busy
// board (as the UI does) parse what changed, not the board. What is kept is what the last request
// for the board listed, so tickets gone from it are dropped with the next request.

/** The tickets on the board now, then those that moved away from it and still exist (found by
 * the move entries' `fromBoardId` index of migration 008). UNION ALL of the two disjoint sets
 * rather than UNION: no temporary index of 20,000 ids to remove duplicates. */
const TICKETS = `
  SELECT t.id, t.board_id, t.lane_id, t.is_resolved, t.is_archived, h.revision
  FROM tickets t LEFT JOIN flow_histories h ON h.ticket_id = t.id
  WHERE t.board_id = @board
  UNION ALL
  SELECT t.id, t.board_id, t.lane_id, t.is_resolved, t.is_archived, h.revision
  FROM tickets t LEFT JOIN flow_histories h ON h.ticket_id = t.id
  WHERE t.board_id <> @board AND t.id IN (
    SELECT a.subject_ticket_id FROM activity a
    WHERE a.action = 'ticket_moved_board'
      AND json_extract(a.details_json, '$.fromBoardId') = @board)`;

/** The histories of the tickets in the JSON array `@ids`, as one JSON array of
 * [ticketId, revision, [entries]]: one JSON.parse for all of them. */
const HISTORIES = `
  SELECT '[' || ifnull(group_concat('[' || h.ticket_id || ',' || h.revision || ',[' || h.entries || ']]', ','), '') || ']'
  FROM flow_histories h WHERE h.ticket_id IN (SELECT value FROM json_each(@ids))`;

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

type ListedTicket = [
  id: number,
  boardId: number,
  laneId: number,
  resolved: number,
  archived: number,
  revision: number | null,
];

interface KeptHistory {
  revision: number;
  entries: FlowEntry[];
}

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
  const listed = db.prepare<[{ board: number }], ListedTicket>(TICKETS).raw(true);
  const histories = db.prepare<[{ ids: string }], string>(HISTORIES).pluck();
  /** Per board, the parsed histories its last request listed, by ticket id. */
  const keptByBoard = new Map<number, Map<number, KeptHistory>>();

  return {
    /** Every ticket that is or was on the board and still exists, as it is now, with its history. */
    tickets(boardId: number): FlowTicket[] {
      const rows = listed.all({ board: boardId });
      const before = keptByBoard.get(boardId);
      const kept = new Map<number, KeptHistory>();
      const stale: number[] = [];
      for (const [id, , , , , revision] of rows) {
        if (revision === null) continue; // no flow entry yet
        const known = before?.get(id);
        if (known?.revision === revision) kept.set(id, known);
        else stale.push(id);
      }
      if (stale.length > 0) {
        const read = JSON.parse(histories.get({ ids: JSON.stringify(stale) }) as string) as Array<
          [number, number, FlowEntry[]]
        >;
        for (const [id, revision, entries] of read) {
          kept.set(id, { revision, entries: inTimeOrder(entries) });
        }
      }
      keptByBoard.set(boardId, kept);
      return rows.map(([id, board, lane, resolved, archived]) => ({
        id,
        boardId: board,
        laneId: lane,
        isResolved: resolved === 1,
        isArchived: archived === 1,
        entries: kept.get(id)?.entries ?? [],
      }));
    },
  };
}

export type FlowHistoryStore = ReturnType<typeof flowHistoryStore>;
