import type { ActivityLog } from "../domain/model.js";
import { prepareBulkInsert, prepareNextId } from "./bulk-insert.js";
import type { Db } from "./database.js";

interface ActivityRow {
  id: number;
  board_id: number;
  ticket_id: number | null;
  subject_ticket_id: number;
  action: string;
  message: string;
  details_json: string;
  created_at: string;
}

const toActivity = (row: ActivityRow): ActivityLog => ({
  id: row.id,
  boardId: row.board_id,
  ticketId: row.ticket_id,
  subjectTicketId: row.subject_ticket_id,
  action: row.action,
  message: row.message,
  details: JSON.parse(row.details_json) as Record<string, unknown>,
  createdAt: row.created_at,
});

/** An entry to write; `ticketId` is null for an entry written as its ticket is deleted. */
export type NewActivity = Omit<ActivityLog, "id">;

/** An entry's values in the column order of both inserts below (after `id`). */
const columnValues = (entry: NewActivity) =>
  [
    entry.boardId,
    entry.ticketId,
    entry.subjectTicketId,
    entry.action,
    entry.message,
    JSON.stringify(entry.details),
    entry.createdAt,
  ] as const;

export function activityStore(db: Db) {
  const insert = db.prepare<[number, number | null, number, string, string, string, string]>(
    `INSERT INTO activity (board_id, ticket_id, subject_ticket_id, action, message, details_json, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const nextId = prepareNextId(db, "activity");
  const insertMany = prepareBulkInsert(
    db,
    `INSERT INTO activity (id, board_id, ticket_id, subject_ticket_id, action, message,
       details_json, created_at)`,
    "(?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const bySubject = db.prepare<[number], ActivityRow>(
    `SELECT * FROM activity WHERE subject_ticket_id = ? ORDER BY created_at DESC, id DESC`,
  );
  const rehome = db.prepare<[number, number]>(
    "UPDATE activity SET board_id = ? WHERE subject_ticket_id = ?",
  );

  return {
    insert(entry: NewActivity): void {
      insert.run(...columnValues(entry));
    },
    /**
     * The rows `insert` writes for each entry, in a few statements; the ids are those one-row
     * inserts in the same order would get (storage/bulk-insert.ts).
     */
    insertMany(entries: readonly NewActivity[]): void {
      const first = nextId();
      const values: unknown[] = [];
      entries.forEach((entry, index) => {
        values.push(first + index, ...columnValues(entry));
      });
      insertMany(values);
    },
    /** Newest first (createdAt desc, then id desc). */
    listBySubject: (ticketId: number): ActivityLog[] => bySubject.all(ticketId).map(toActivity),
    /** Files a ticket's whole history under another board (it moved there). */
    rehome(ticketId: number, boardId: number): void {
      rehome.run(boardId, ticketId);
    },
  };
}

export type ActivityStore = ReturnType<typeof activityStore>;
