import type { Comment } from "../domain/model.js";
import type { TicketSearchText } from "../domain/search-text.js";
import { COMMENT_COLUMNS, type CommentRaw, commentTicketId, toComment } from "./comments.js";
import type { Db } from "./database.js";
import { groupByTicket } from "./group-by-ticket.js";
import { IN_IDS } from "./id-lists.js";
import {
  fromRaw,
  type RawRow,
  RECORD_COLUMNS,
  ROW_COLUMNS,
  type SqlRecord,
  type SqlRow,
  type TicketRecord,
  type TicketRow,
  type TicketText,
  toRecord,
  toRow,
  WITH_TEXT,
} from "./ticket-rows.js";
import {
  listConditions,
  listParameters,
  listShape,
  matchConditions,
  matchParameters,
  matchShape,
  type TicketListFilter,
  type TicketMatchFilter,
} from "./ticket-search-query.js";

// The ticket store: a ticket's row and text row, read and written through prepared statements.
// Its row shapes and mappers are in ticket-rows.ts, the SQL of list filters and search in
// ticket-search-query.ts.

export type { TicketRecord, TicketRow, TicketText } from "./ticket-rows.js";
export type { TicketListFilter, TicketMatchFilter } from "./ticket-search-query.js";

/**
 * The writable columns; `searchText` is the folded title and body (domain/search-text.ts). The
 * text row is rewritten only when one of its values differs from the stored one: a title edit
 * writes the ticket row alone.
 */
export interface TicketWrite {
  laneId: number;
  parentTicketId: number | null;
  title: string;
  bodyMarkdown: string;
  bodyHtml: string;
  searchText: TicketSearchText;
  isResolved: boolean;
  isArchived: boolean;
  priority: number;
  updatedAt: string;
  /** ISO UTC with milliseconds (normalised by the domain), or null. */
  notBefore: string | null;
  /** The counts of the body's task list items (domain/tickets/checklists.ts). */
  checklist: { done: number; total: number };
}

/** The ticket row's writable columns (`updateRow`): `titleSearch` is the folded title. */
export interface TicketRowWrite
  extends Omit<TicketWrite, "bodyMarkdown" | "bodyHtml" | "searchText" | "checklist"> {
  titleSearch: string;
}

/** Board order (docs/api.md, "Ordering"): lane position, active before archived, position, id. */
const BOARD_ORDER = "ORDER BY l.position, l.id, t.is_archived, t.position, t.id";

/** Ids given to a query as one JSON array parameter (never one parameter per id). */

export function ticketStore(db: Db) {
  const byId = db.prepare<[number], SqlRecord>(
    `SELECT ${RECORD_COLUMNS} FROM tickets t ${WITH_TEXT} WHERE t.id = ?`,
  );
  // Raw rows (arrays): a row as an object costs ~3 us more to build, its keys looked up anew.
  const rowById = db
    .prepare<[number], RawRow>(`SELECT ${ROW_COLUMNS} FROM tickets t WHERE t.id = ?`)
    .raw(true);
  const versionById = db
    .prepare<[number], number>("SELECT version FROM tickets WHERE id = ?")
    .pluck(true);
  const textById = db
    .prepare<[number], [string, string]>(
      "SELECT body_markdown, body_html FROM ticket_texts WHERE ticket_id = ?",
    )
    .raw(true);
  const rowsByIds = db
    .prepare<[string], RawRow>(`SELECT ${ROW_COLUMNS} FROM tickets t WHERE t.id ${IN_IDS}`)
    .raw(true);
  const recordsOfBoard = db.prepare<[number, number], SqlRecord>(
    `SELECT ${RECORD_COLUMNS} FROM tickets t JOIN lanes l ON l.id = t.lane_id ${WITH_TEXT}
     WHERE t.board_id = ? AND (? = 1 OR t.is_archived = 0) ${BOARD_ORDER}`,
  );
  // A lane's tickets in board order after the given one, one page at a time: a seek down
  // tickets_by_lane (lane, archived, position, id) per page, however deep into the lane.
  const recordsOfLaneAfter = db.prepare<[number, number, number, number, number], SqlRecord>(
    `SELECT ${RECORD_COLUMNS} FROM tickets t ${WITH_TEXT}
     WHERE t.lane_id = ? AND (t.is_archived, t.position, t.id) > (?, ?, ?)
     ORDER BY t.is_archived, t.position, t.id LIMIT ?`,
  );
  // `+board_id`: a test, not an index. Offered tickets_by_board, the planner read the whole
  // board for each page of an export (~20 ms a page at 20,000 tickets, so the export's CPU grew
  // with the square of the board); tickets_by_parent reads the page's children only.
  const parentsAmong = db
    .prepare<[string, number], number>(
      `SELECT DISTINCT parent_ticket_id FROM tickets
       WHERE parent_ticket_id ${IN_IDS} AND +board_id = ?`,
    )
    .pluck(true);
  const countOfBoard = db
    .prepare<[number], number>("SELECT count(*) FROM tickets WHERE board_id = ?")
    .pluck(true);
  const rowsOfBoard = db.prepare<[number], SqlRow>(
    `SELECT ${ROW_COLUMNS} FROM tickets t WHERE t.board_id = ?`,
  );
  // The end of the ticket's part of its lane: after the lane's active tickets for an active one
  // (the archived ones move up by one to make room), after every ticket for an archived one.
  // Each part's last position is one seek down tickets_by_lane (lane, archived, position), so a
  // create costs the same in a lane of 10 or 10,000 tickets. Written as ORDER BY ... LIMIT 1 per
  // part: one MAX() over `is_archived = 0 OR @isArchived = 1` walked the whole lane (~60 us for
  // 600 tickets, twice per create).
  const lastOf = (archived: 0 | 1) =>
    `COALESCE((SELECT position FROM tickets WHERE lane_id = @laneId AND is_archived = ${archived}
       ORDER BY position DESC LIMIT 1), -1)`;
  const END_OF_ACTIVE = `${lastOf(0)} + 1`;
  const END_OF_LANE = `MAX(${lastOf(0)}, ${lastOf(1)}) + 1`;
  const makeRoom = db.prepare<[{ laneId: number }]>(
    `UPDATE tickets SET position = position + 1
     WHERE lane_id = @laneId AND is_archived = 1 AND position >= ${END_OF_ACTIVE}`,
  );
  const insertAt = (end: string) =>
    db.prepare(
      `INSERT INTO tickets (board_id, lane_id, parent_ticket_id, title, title_search, is_resolved,
         is_archived, priority, position, created_at, updated_at, not_before, checklist_done,
         checklist_total)
       VALUES (@boardId, @laneId, @parentTicketId, @title, @titleSearch, @isResolved, @isArchived,
         @priority, ${end}, @updatedAt, @updatedAt, @notBefore, @checklistDone, @checklistTotal)`,
    );
  const insertActive = insertAt(END_OF_ACTIVE);
  const insertArchived = insertAt(END_OF_LANE);
  const insertText = prepareTextInsert(db);
  // Positional: binding named parameters looks each one up in an object built for the call.
  const updateFields = db.prepare<[string, string, number, number, string, string | null, number]>(
    `UPDATE tickets SET title = ?, title_search = ?, is_resolved = ?, priority = ?, updated_at = ?,
       not_before = ?
     WHERE id = ?`,
  );
  const writeFields = (id: number, row: ReturnType<typeof rowValues>) =>
    updateFields.run(
      row.title,
      row.titleSearch,
      row.isResolved,
      row.priority,
      row.updatedAt,
      row.notBefore,
      id,
    );
  // The indexed columns (tickets_by_lane, tickets_by_parent), written only when one of them
  // changes: an UPDATE that names an indexed column rewrites its index entries even when the
  // value stays, which made a title edit write three more pages of the log.
  const updatePlacement = db.prepare(
    `UPDATE tickets SET lane_id = @laneId, parent_ticket_id = @parentTicketId,
       is_archived = @isArchived
     WHERE id = @id AND (lane_id IS NOT @laneId OR parent_ticket_id IS NOT @parentTicketId
       OR is_archived IS NOT @isArchived)`,
  );
  // A title, flag or lane change passes the stored texts back unchanged: nothing is written then.
  const updateText = db.prepare(
    `UPDATE ticket_texts SET search_text = @bodySearch, body_markdown = @bodyMarkdown,
       body_html = @bodyHtml
     WHERE ticket_id = @id AND (body_markdown <> @bodyMarkdown OR body_html <> @bodyHtml
       OR search_text <> @bodySearch)`,
  );
  // Written with the bodies: the counts follow the body alone.
  const setChecklist = db.prepare<[number, number, number]>(
    "UPDATE tickets SET checklist_done = ?, checklist_total = ? WHERE id = ?",
  );
  const moveToBoard = db.prepare<[number, number, string, number]>(
    `UPDATE tickets SET board_id = ?, lane_id = ?, parent_ticket_id = NULL, updated_at = ?
     WHERE id = ?`,
  );
  const toLaneEnd = db.prepare<[number, number, number]>(
    `UPDATE tickets SET lane_id = ?,
       position = (SELECT COALESCE(MAX(position), -1) + 1 FROM tickets WHERE lane_id = ?)
     WHERE id = ?`,
  );
  const touch = db.prepare<[string, number]>("UPDATE tickets SET updated_at = ? WHERE id = ?");
  const remove = db.prepare<[number]>("DELETE FROM tickets WHERE id = ?");
  const laneOrder = db.prepare<[number], { id: number; is_archived: number }>(
    "SELECT id, is_archived FROM tickets WHERE lane_id = ? ORDER BY is_archived, position, id",
  );
  // Writes only the rows whose position actually changes.
  const setPositions = db.prepare<[string]>(
    `UPDATE tickets SET position = j.key FROM json_each(?) AS j
     WHERE tickets.id = j.value AND tickets.position <> j.key`,
  );
  // Renumbering reads the lane through its covering index and writes the rows whose position
  // changes, one by one: ~3x cheaper than one UPDATE over a ROW_NUMBER() window, which
  // materialized the whole lane first (docs/performance.md).
  const lanePositions = db
    .prepare<[number], [number, number]>(
      "SELECT id, position FROM tickets WHERE lane_id = ? ORDER BY is_archived, position, id",
    )
    .raw(true);
  const setPosition = db.prepare<[number, number]>("UPDATE tickets SET position = ? WHERE id = ?");
  const childCounts = db
    .prepare<[string], [number, number]>(
      `SELECT parent_ticket_id, COUNT(*) FROM tickets
       WHERE parent_ticket_id ${IN_IDS} GROUP BY parent_ticket_id`,
    )
    .raw(true);
  const children = db.prepare<[number], { id: number }>(
    "SELECT id FROM tickets WHERE parent_ticket_id = ?",
  );
  const clearChildren = db.prepare<[number]>(
    "UPDATE tickets SET parent_ticket_id = NULL WHERE parent_ticket_id = ?",
  );
  // Comments of a whole board at once (full Ticket views, the export). Joined from the board's
  // tickets, so each ticket's comments come from comments_by_ticket in one range; the former
  // `ticket_id IN (json_each)` form sorted every comment of the board by date, bodies included,
  // and cost ~5x as much on 12,000 comments.
  const commentsOfBoard = db
    .prepare<[number], CommentRaw>(
      `SELECT ${COMMENT_COLUMNS} FROM tickets t JOIN comments c ON c.ticket_id = t.id
       WHERE t.board_id = ? ORDER BY c.ticket_id, c.created_at DESC, c.id DESC`,
    )
    .raw(true);
  const commentsOfTickets = db
    .prepare<[string], CommentRaw>(
      `SELECT ${COMMENT_COLUMNS} FROM comments c WHERE c.ticket_id ${IN_IDS}
       ORDER BY c.ticket_id, c.created_at DESC, c.id DESC`,
    )
    .raw(true);

  const listStatements = new Map<string, ReturnType<typeof prepareList>>();
  function prepareList(filter: TicketListFilter) {
    const { where, readsText } = listConditions(filter);
    return db
      .prepare<[Record<string, unknown>], RawRow>(
        `SELECT ${ROW_COLUMNS} FROM tickets t JOIN lanes l ON l.id = t.lane_id
         ${readsText ? WITH_TEXT : ""} WHERE ${where.join(" AND ")} ${BOARD_ORDER}`,
      )
      .raw(true);
  }

  // Ids of a board's tickets with a tag and/or matching a search, unordered.
  const matchStatements = new Map<string, ReturnType<typeof prepareMatch>>();
  function prepareMatch(filter: TicketMatchFilter, among: boolean) {
    const { where, readsText } = matchConditions(filter, among);
    return db
      .prepare<[Record<string, unknown>], number>(
        `SELECT t.id FROM tickets t ${readsText ? WITH_TEXT : ""} WHERE ${where.join(" AND ")}`,
      )
      .pluck(true);
  }

  return {
    get(id: number): TicketRecord | undefined {
      const row = byId.get(id);
      return row && toRecord(row);
    },

    /** A ticket's row without its bodies (one page read, none of `ticket_texts`). */
    row(id: number): TicketRow | undefined {
      const row = rowById.get(id);
      return row && fromRaw(row);
    },

    /**
     * A ticket's version (docs/api.md, "Coordination for agents"), without reading the rest of its
     * row.
     */
    version: (id: number): number | undefined => versionById.get(id),

    /** A ticket's bodies (its text row). */
    text(id: number): TicketText | undefined {
      const row = textById.get(id);
      return row && { bodyMarkdown: row[0], bodyHtml: row[1] };
    },

    /** The rows of the given ids that exist, keyed by id (one query whatever the count). */
    rowsByIds(ids: readonly number[]): Map<number, TicketRow> {
      const map = new Map<number, TicketRow>();
      // One ticket (a list after a write re-serializes one) skips json_each.
      const rows =
        ids.length === 1 ? [rowById.get(ids[0] as number)] : rowsByIds.iterate(JSON.stringify(ids));
      for (const row of rows) if (row) map.set(row[0], fromRaw(row));
      return map;
    },

    /** How many tickets a board has (archived ones too). */
    countOfBoard: (boardId: number): number => countOfBoard.get(boardId) ?? 0,

    /** Every ticket row of a board, unordered (lookups for relations). */
    rowsOfBoard: (boardId: number): TicketRow[] => rowsOfBoard.all(boardId).map(toRow),

    /** A board's tickets with bodies, in board order. */
    recordsOfBoard: (boardId: number, includeArchived: boolean): TicketRecord[] =>
      recordsOfBoard.all(boardId, includeArchived ? 1 : 0).map(toRecord),

    /**
     * Up to `limit` tickets of a lane, archived ones included, in board order after `after` (the
     * last ticket of the page before; null: from the lane's start).
     */
    recordsOfLaneAfter(laneId: number, after: TicketRecord | null, limit: number): TicketRecord[] {
      const [archived, position, id] = after
        ? [after.isArchived ? 1 : 0, after.position, after.id]
        : [-1, 0, 0];
      return recordsOfLaneAfter.all(laneId, archived, position, id, limit).map(toRecord);
    },

    /** Which of the given tickets of a board have children there. */
    parentsAmong: (boardId: number, ids: readonly number[]): Set<number> =>
      new Set(parentsAmong.all(JSON.stringify(ids), boardId)),

    /** The board list: one query for any combination of filters, in board order. */
    list(boardId: number, filter: TicketListFilter): TicketRow[] {
      const key = listShape(filter);
      let statement = listStatements.get(key);
      if (!statement) {
        statement = prepareList(filter);
        listStatements.set(key, statement);
      }
      return statement.all({ boardId, ...listParameters(filter) }).map(fromRaw);
    },

    /**
     * Ids of the board's tickets that have the filter's tag and match its search (what the
     * board lists keep per search, kept-answers/board-lists.ts), or of those among `ids` only.
     * The same conditions as `list`, so the same tickets.
     */
    matchingIds(boardId: number, filter: TicketMatchFilter, ids?: Iterable<number>): number[] {
      const among = ids !== undefined;
      const key = matchShape(filter, among);
      let statement = matchStatements.get(key);
      if (!statement) {
        statement = prepareMatch(filter, among);
        matchStatements.set(key, statement);
      }
      return statement.all(matchParameters(boardId, filter, ids));
    },

    /**
     * Inserts at the end of its part of the lane (active tickets before archived ones, numbered
     * 0..n-1); returns the id. A lane numbered with gaps (a board import keeps the positions of
     * its document) keeps them: the new ticket still comes last among its part.
     */
    insert(boardId: number, ticket: TicketWrite): number {
      const values = sqlValues(ticket);
      if (!ticket.isArchived) makeRoom.run({ laneId: values.laneId });
      const insert = ticket.isArchived ? insertArchived : insertActive;
      const id = Number(insert.run({ boardId, ...values }).lastInsertRowid);
      insertText.run({ id, ...values });
      return id;
    },

    /**
     * Writes the ticket's columns. `stored`, the ticket's record as read in this transaction,
     * lets the statements whose columns would not change be skipped: each costs ~10 us even when
     * its WHERE finds nothing to write, and a title edit changes neither the placement nor the
     * bodies (docs/performance.md, "Storage layout").
     */
    update(id: number, ticket: TicketWrite & { stored?: TicketRecord }): void {
      const { stored } = ticket;
      const values = { id, ...sqlValues(ticket) };
      if (placementChanges(stored, ticket)) updatePlacement.run(values);
      writeFields(id, values);
      // The body's search text is folded from the Markdown, so it changes only with it.
      if (
        !stored ||
        stored.bodyMarkdown !== ticket.bodyMarkdown ||
        stored.bodyHtml !== ticket.bodyHtml
      ) {
        updateText.run(values);
        setChecklist.run(ticket.checklist.done, ticket.checklist.total, id);
      }
    },

    /**
     * `update` of the ticket row alone: its text row (bodies, their search text) stays. `stored`
     * as for `update`.
     */
    updateRow(id: number, ticket: TicketRowWrite & { stored?: TicketRow }): void {
      const values = rowValues(ticket);
      if (placementChanges(ticket.stored, ticket)) updatePlacement.run({ id, ...values });
      writeFields(id, values);
    },

    /** Puts a ticket after every other of the lane (call `renumberLane` afterwards). */
    appendToLane(id: number, laneId: number): void {
      toLaneEnd.run(laneId, laneId, id);
    },

    /** Moves a ticket to another board's lane, without its parent (call `appendToLane` next). */
    setBoard(id: number, boardId: number, laneId: number, at: string): void {
      moveToBoard.run(boardId, laneId, at, id);
    },

    touch(id: number, at: string): void {
      touch.run(at, id);
    },

    remove(id: number): void {
      remove.run(id);
    },

    /** A lane's tickets in order: active first, then archived. */
    laneOrder: (laneId: number): Array<{ id: number; isArchived: boolean }> =>
      laneOrder.all(laneId).map((row) => ({ id: row.id, isArchived: row.is_archived === 1 })),

    /** Gives each ticket its index in `ids` as position. */
    setPositions(ids: readonly number[]): void {
      setPositions.run(JSON.stringify(ids));
    },

    /** Numbers a lane 0..n-1, archived after active, keeping the relative order otherwise. */
    renumberLane(laneId: number): void {
      let position = 0;
      for (const [id, current] of lanePositions.all(laneId)) {
        if (current !== position) setPosition.run(position, id);
        position++;
      }
    },

    /** Number of children of each given ticket that has any. */
    childCounts(ids: readonly number[]): Map<number, number> {
      const map = new Map<number, number>();
      for (const [id, count] of childCounts.iterate(JSON.stringify(ids))) map.set(id, count);
      return map;
    },

    childIds: (id: number): number[] => children.all(id).map((row) => row.id),

    /** Detaches every child of a ticket. */
    clearChildren(id: number): void {
      clearChildren.run(id);
    },

    /** Comments of each ticket of a board that has any, newest first (one query). */
    commentsOfBoard: (boardId: number): Map<number, Comment[]> =>
      groupByTicket(commentsOfBoard.iterate(boardId), toComment, commentTicketId),
    /** The comments of the given tickets in one query, newest first, grouped by ticket id. */
    commentsOfTickets: (ids: readonly number[]): Map<number, Comment[]> =>
      groupByTicket(commentsOfTickets.iterate(JSON.stringify(ids)), toComment, commentTicketId),
  };
}

export type TicketStore = ReturnType<typeof ticketStore>;

type Placement = Pick<TicketRow, "laneId" | "parentTicketId" | "isArchived">;

/** Whether a write moves the ticket's indexed columns (always, when nothing was read before). */
function placementChanges(stored: Placement | undefined, next: Placement): boolean {
  return (
    !stored ||
    stored.laneId !== next.laneId ||
    stored.parentTicketId !== next.parentTicketId ||
    stored.isArchived !== next.isArchived
  );
}

function rowValues(ticket: TicketRowWrite) {
  return {
    laneId: ticket.laneId,
    parentTicketId: ticket.parentTicketId,
    title: ticket.title,
    titleSearch: ticket.titleSearch,
    isResolved: ticket.isResolved ? 1 : 0,
    isArchived: ticket.isArchived ? 1 : 0,
    priority: ticket.priority,
    updatedAt: ticket.updatedAt,
    notBefore: ticket.notBefore,
  };
}

/** `rowValues` and the text row's: the bodies and their folded text. */
function sqlValues(ticket: TicketWrite) {
  return {
    ...rowValues({ ...ticket, titleSearch: ticket.searchText.title }),
    bodyMarkdown: ticket.bodyMarkdown,
    bodyHtml: ticket.bodyHtml,
    bodySearch: ticket.searchText.body,
    checklistDone: ticket.checklist.done,
    checklistTotal: ticket.checklist.total,
  };
}

/** The text row of a new ticket (named parameters id, bodySearch, bodyMarkdown, bodyHtml). */
function prepareTextInsert(db: Db) {
  return db.prepare(
    `INSERT INTO ticket_texts (ticket_id, search_text, body_markdown, body_html)
     VALUES (@id, @bodySearch, @bodyMarkdown, @bodyHtml)`,
  );
}
