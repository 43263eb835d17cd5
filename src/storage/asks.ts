import type { Statement } from "better-sqlite3";
import type { Ask, AskAnswer, AskStatus } from "../domain/model.js";
import type { Db } from "./database.js";
import { IN_IDS } from "./id-lists.js";

/**
 * Asks (migration 016; docs/api.md, "Asks"). An ask has no board column: its board is its
 * ticket's, read through the join, so a ticket moved to another board takes its asks along and a
 * deleted ticket's asks leave every list with it (ON DELETE CASCADE; the trash keeps the rows).
 */
interface AskRow {
  id: number;
  ticket_id: number;
  board_id: number;
  actor: string;
  question: string;
  question_html: string;
  options_json: string;
  blocking: number;
  status: AskStatus;
  answer_text: string | null;
  answer_html: string | null;
  answer_option: string | null;
  answered_by: string | null;
  created_at: string;
  answered_at: string | null;
}

const toAsk = (row: AskRow): Ask => ({
  id: row.id,
  ticketId: row.ticket_id,
  boardId: row.board_id,
  actor: row.actor,
  question: row.question,
  questionHtml: row.question_html,
  options: JSON.parse(row.options_json) as string[],
  blocking: row.blocking === 1,
  status: row.status,
  answer:
    row.answered_by === null
      ? null
      : {
          text: row.answer_text,
          textHtml: row.answer_html,
          option: row.answer_option,
          by: row.answered_by,
        },
  createdAt: row.created_at,
  answeredAt: row.answered_at,
});

/** An ask as it is written: everything but its id and board. */
export interface NewAsk extends Omit<Ask, "id" | "boardId" | "options"> {
  options: readonly string[];
}

/** An answer as it is written, with the moment the ask left `open`. */
export interface AskAnswerWrite extends AskAnswer {
  at: string;
}

/** Which asks the inbox lists. */
export interface AskFilter {
  status: AskStatus | "all";
  boardId?: number;
}

const SELECT = `SELECT a.id, a.ticket_id, t.board_id, a.actor, a.question, a.question_html,
  a.options_json, a.blocking, a.status, a.answer_text, a.answer_html, a.answer_option,
  a.answered_by, a.created_at, a.answered_at
  FROM asks a JOIN tickets t ON t.id = a.ticket_id`;
/** Oldest first; asks imported with their times keep their order. */
const ORDER = "ORDER BY a.created_at, a.id";

export function askStore(db: Db) {
  const byId = db.prepare<[number], AskRow>(`${SELECT} WHERE a.id = ?`);
  const byTicket = db.prepare<[number], AskRow>(`${SELECT} WHERE a.ticket_id = ? ${ORDER}`);
  const byTickets = db.prepare<[string], AskRow>(`${SELECT} WHERE a.ticket_id ${IN_IDS} ${ORDER}`);
  const insert = db.prepare<
    [
      number,
      string,
      string,
      string,
      string,
      number,
      AskStatus,
      string | null,
      string | null,
      string | null,
      string | null,
      string,
      string | null,
    ]
  >(
    `INSERT INTO asks (ticket_id, actor, question, question_html, options_json, blocking, status,
       answer_text, answer_html, answer_option, answered_by, created_at, answered_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Both leave `open` only from `open`: the status check and the write are one statement.
  const answerOpen = db.prepare<
    [string | null, string | null, string | null, string, string, number]
  >(
    `UPDATE asks SET status = 'answered', answer_text = ?, answer_html = ?, answer_option = ?,
       answered_by = ?, answered_at = ? WHERE id = ? AND status = 'open'`,
  );
  const withdrawOpen = db.prepare<[string, number]>(
    "UPDATE asks SET status = 'withdrawn', answered_at = ? WHERE id = ? AND status = 'open'",
  );

  /**
   * The inbox's statements, one per filter shape, made on first use. `status = 'open'` is
   * written as a literal so the partial index of open asks serves the default inbox.
   */
  const inbox = new Map<string, Statement<unknown[], AskRow>>();
  function inboxStatement(filter: AskFilter) {
    const key = `${filter.status}:${filter.boardId === undefined ? "all" : "board"}`;
    let statement = inbox.get(key);
    if (!statement) {
      const where: string[] = [];
      if (filter.status !== "all") where.push(`a.status = '${filter.status}'`);
      if (filter.boardId !== undefined) where.push("t.board_id = ?");
      statement = db.prepare<unknown[], AskRow>(
        `${SELECT} ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ${ORDER}`,
      );
      inbox.set(key, statement);
    }
    return statement;
  }

  function write(ask: NewAsk): number {
    return Number(
      insert.run(
        ask.ticketId,
        ask.actor,
        ask.question,
        ask.questionHtml,
        JSON.stringify(ask.options),
        ask.blocking ? 1 : 0,
        ask.status,
        ask.answer?.text ?? null,
        ask.answer?.textHtml ?? null,
        ask.answer?.option ?? null,
        ask.answer?.by ?? null,
        ask.createdAt,
        ask.answeredAt,
      ).lastInsertRowid,
    );
  }

  return {
    get: (id: number): Ask | undefined => {
      const row = byId.get(id);
      return row && toAsk(row);
    },
    /** A ticket's asks of every status, oldest first. */
    listByTicket: (ticketId: number): Ask[] => byTicket.all(ticketId).map(toAsk),
    /** The inbox: asks of one status (or all), of one board or every board, oldest first. */
    list(filter: AskFilter): Ask[] {
      const statement = inboxStatement(filter);
      const rows = filter.boardId === undefined ? statement.all() : statement.all(filter.boardId);
      return rows.map(toAsk);
    },
    /** The asks of the given tickets in one query, oldest first, grouped by ticket id. */
    byTicketOfTickets(ids: readonly number[]): Map<number, Ask[]> {
      const grouped = new Map<number, Ask[]>();
      for (const row of byTickets.iterate(JSON.stringify(ids))) {
        const ask = toAsk(row);
        const list = grouped.get(ask.ticketId);
        if (list) list.push(ask);
        else grouped.set(ask.ticketId, [ask]);
      }
      return grouped;
    },
    /** Writes an ask; returns its id. */
    insert: write,
    /** Writes many asks (a board import), in order. */
    insertMany(asks: readonly NewAsk[]): void {
      for (const ask of asks) write(ask);
    },
    /** Records the answer of an open ask; false when the ask is not open (nothing written). */
    answer: (id: number, answer: AskAnswerWrite): boolean =>
      answerOpen.run(answer.text, answer.textHtml, answer.option, answer.by, answer.at, id)
        .changes === 1,
    /** Withdraws an open ask; false when it is not open (nothing written). */
    withdraw: (id: number, at: string): boolean => withdrawOpen.run(at, id).changes === 1,
  };
}

export type AskStore = ReturnType<typeof askStore>;
