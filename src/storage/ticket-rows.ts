// A ticket's row as the store reads it: the columns selected, and the mappers from SQL rows (as
// objects or as raw arrays) to the shapes the domain gets.

/**
 * A ticket's own columns without its (possibly large) bodies: enough for lists and relations.
 * The bodies and their search text live in `ticket_texts` (one row per ticket), so reading or
 * rewriting these columns never touches kilobytes of Markdown; the title's search text is on
 * the ticket row (`title_search`, migrations/014-title-search.ts), so a title edit does not
 * rewrite the bodies either.
 */
export interface TicketRow {
  id: number;
  boardId: number;
  laneId: number;
  parentTicketId: number | null;
  title: string;
  isResolved: boolean;
  isArchived: boolean;
  priority: number;
  position: number;
  createdAt: string;
  updatedAt: string;
  /** docs/api.md, "Coordination for agents"; raised by storage/ticket-changes.ts. */
  version: number;
  /** The moment before which it is not ready (docs/api.md, "Not before"), ISO UTC, or null. */
  notBefore: string | null;
  /** Its open asks of any kind (docs/api.md, "Asks"), counted with the row. */
  openAsks: number;
  /** Its body's task list items, checked and in all (docs/api.md, "Checklists"). */
  checklistDone: number;
  checklistTotal: number;
}

/** A ticket's own columns including its bodies. */
export interface TicketRecord extends TicketRow {
  bodyMarkdown: string;
  bodyHtml: string;
}

/** A ticket's bodies, as its text row holds them. */
export interface TicketText {
  bodyMarkdown: string;
  bodyHtml: string;
}

export interface SqlRow {
  id: number;
  board_id: number;
  lane_id: number;
  parent_ticket_id: number | null;
  title: string;
  is_resolved: number;
  is_archived: number;
  priority: number;
  position: number;
  created_at: string;
  updated_at: string;
  version: number;
  not_before: string | null;
  open_asks: number;
  checklist_done: number;
  checklist_total: number;
}

export interface SqlRecord extends SqlRow {
  body_markdown: string;
  body_html: string;
}

export const toRow = (row: SqlRow): TicketRow => ({
  id: row.id,
  boardId: row.board_id,
  laneId: row.lane_id,
  parentTicketId: row.parent_ticket_id,
  title: row.title,
  isResolved: row.is_resolved === 1,
  isArchived: row.is_archived === 1,
  priority: row.priority,
  position: row.position,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
  notBefore: row.not_before,
  openAsks: row.open_asks,
  checklistDone: row.checklist_done,
  checklistTotal: row.checklist_total,
});

export type RawRow = [
  number,
  number,
  number,
  number | null,
  string,
  number,
  number,
  number,
  number,
  string,
  string,
  number,
  string | null,
  number,
  number,
  number,
];

/** A raw row of ROW_COLUMNS (arrays allocate less than objects in lists of thousands). */
export const fromRaw = (row: RawRow): TicketRow => ({
  id: row[0],
  boardId: row[1],
  laneId: row[2],
  parentTicketId: row[3],
  title: row[4],
  isResolved: row[5] === 1,
  isArchived: row[6] === 1,
  priority: row[7],
  position: row[8],
  createdAt: row[9],
  updatedAt: row[10],
  version: row[11],
  notBefore: row[12],
  openAsks: row[13],
  checklistDone: row[14],
  checklistTotal: row[15],
});

// The row's object gets the two bodies added, rather than being spread into a second object
// (5,000 of them per export).
export const toRecord = (row: SqlRecord): TicketRecord => {
  const record = toRow(row) as TicketRecord;
  record.bodyMarkdown = row.body_markdown;
  record.bodyHtml = row.body_html;
  return record;
};

/**
 * A ticket's open asks are counted with its row (one probe of asks_by_ticket, which finds none
 * for most tickets): an ask's change notes its ticket (ticket-changes.ts), so every kept answer
 * that shows the count is dropped with it.
 */
const OPEN_ASKS = `(SELECT count(*) FROM asks a WHERE a.ticket_id = t.id AND a.status = 'open')`;
export const ROW_COLUMNS = `t.id, t.board_id, t.lane_id, t.parent_ticket_id, t.title, t.is_resolved,
  t.is_archived, t.priority, t.position, t.created_at, t.updated_at, t.version, t.not_before,
  ${OPEN_ASKS} AS open_asks, t.checklist_done, t.checklist_total`;
export const RECORD_COLUMNS = `${ROW_COLUMNS}, x.body_markdown, x.body_html`;
export const WITH_TEXT = "JOIN ticket_texts x ON x.ticket_id = t.id";
