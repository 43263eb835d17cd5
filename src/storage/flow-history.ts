import type { Db } from "./database.js";

// What insights read (CONTRACT.md §14): the flow-relevant part of the activity history of every
// ticket that is or was on a board and still exists, with only the detail fields each action
// needs pulled out by SQLite (no JSON parsed in JavaScript, no comments or tag entries read).

/** The tickets that are on the board now, and those that moved away from it and still exist. */
const SUBJECTS = `
  subjects(id) AS (
    SELECT id FROM tickets WHERE board_id = @board
    UNION
    SELECT a.subject_ticket_id FROM activity a JOIN tickets t ON t.id = a.subject_ticket_id
    WHERE a.action = 'ticket_moved_board' AND json_extract(a.details_json, '$.fromBoardId') = @board
  )`;

/** The actions that change where a ticket is, whether it is resolved or archived, or its claim. */
export const FLOW_ACTIONS = [
  "ticket_created",
  "ticket_updated",
  "ticket_resolved",
  "ticket_reopened",
  "ticket_transitioned",
  "ticket_archived",
  "ticket_restored",
  "ticket_moved_board",
  "ticket_claimed",
  "ticket_released",
] as const;
export type FlowAction = (typeof FLOW_ACTIONS)[number];

/** A ticket as it is now. */
export interface FlowTicket {
  id: number;
  boardId: number;
  laneId: number;
  isResolved: boolean;
  isArchived: boolean;
}

/**
 * One history entry, oldest first per ticket: [ticketId, action, createdAt, laneFrom, laneTo,
 * resolved, archived, boardFrom, boardTo, actor, reason]. `laneFrom`/`laneTo` are the lanes of
 * a transition or move; `resolved`/`archived` the flag after the change (1/0); null where the
 * action does not carry it. A creation carries nothing: the state a ticket started in is found
 * from its current state and its later changes (domain/insights/ticket-replay.ts), the same way
 * for created and imported tickets, so its details (the largest of these) are never parsed.
 */
export type FlowEntry = [
  ticketId: number,
  action: FlowAction,
  createdAt: string,
  laneFrom: number | null,
  laneTo: number | null,
  resolved: number | null,
  archived: number | null,
  boardFrom: number | null,
  boardTo: number | null,
  actor: string | null,
  reason: string | null,
];

export function flowHistoryStore(db: Db) {
  const tickets = db.prepare<[{ board: number }], [number, number, number, number, number]>(
    `WITH ${SUBJECTS}
     SELECT t.id, t.board_id, t.lane_id, t.is_resolved, t.is_archived
     FROM subjects s JOIN tickets t ON t.id = s.id`,
  );
  const actions = FLOW_ACTIONS.map((action) => `'${action}'`).join(", ");
  const history = db.prepare<[{ board: number }], FlowEntry>(
    `WITH ${SUBJECTS}
     SELECT a.subject_ticket_id, a.action, a.created_at,
       CASE WHEN a.action IN ('ticket_transitioned', 'ticket_moved_board')
         THEN json_extract(a.details_json, '$.fromLaneId') END,
       CASE WHEN a.action IN ('ticket_transitioned', 'ticket_moved_board')
         THEN json_extract(a.details_json, '$.toLaneId') END,
       CASE WHEN a.action IN ('ticket_updated', 'ticket_resolved', 'ticket_reopened')
         THEN json_extract(a.details_json, '$.after.isResolved') END,
       CASE WHEN a.action IN ('ticket_archived', 'ticket_restored')
         THEN json_extract(a.details_json, '$.after.isArchived') END,
       CASE WHEN a.action = 'ticket_moved_board'
         THEN json_extract(a.details_json, '$.fromBoardId') END,
       CASE WHEN a.action = 'ticket_moved_board'
         THEN json_extract(a.details_json, '$.toBoardId') END,
       CASE WHEN a.action IN ('ticket_claimed', 'ticket_released')
         THEN json_extract(a.details_json, '$.actor') END,
       CASE WHEN a.action = 'ticket_released'
         THEN json_extract(a.details_json, '$.reason') END
     FROM subjects s JOIN activity a ON a.subject_ticket_id = s.id
     WHERE a.action IN (${actions})
     ORDER BY a.subject_ticket_id, a.created_at, a.id`,
  );
  history.raw(true);
  tickets.raw(true);

  return {
    /** Every ticket that is or was on the board and still exists, as it is now. */
    tickets(boardId: number): FlowTicket[] {
      return tickets.all({ board: boardId }).map(([id, board, lane, resolved, archived]) => ({
        id,
        boardId: board,
        laneId: lane,
        isResolved: resolved === 1,
        isArchived: archived === 1,
      }));
    },
    /** Their flow entries, grouped by ticket (ascending id), oldest first within a ticket. */
    history(boardId: number): FlowEntry[] {
      return history.all({ board: boardId });
    },
  };
}

export type FlowHistoryStore = ReturnType<typeof flowHistoryStore>;
