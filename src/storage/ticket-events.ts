import type { TicketEvent } from "../domain/model.js";
import type { Db } from "./database.js";
import { groupByTicket } from "./group-by-ticket.js";
import { IN_IDS } from "./id-lists.js";

/** The columns named like the model's fields have their types; the others are renamed. */
interface TicketEventRow extends Omit<TicketEvent, "ticketId" | "data" | "createdAt"> {
  ticket_id: number;
  data_json: string;
  created_at: string;
}

const toEvent = (row: TicketEventRow): TicketEvent => ({
  id: row.id,
  ticketId: row.ticket_id,
  source: row.source,
  kind: row.kind,
  title: row.title,
  summary: row.summary,
  severity: row.severity,
  icon: row.icon,
  data: JSON.parse(row.data_json) as Record<string, unknown>,
  createdAt: row.created_at,
});

export type NewTicketEvent = Omit<TicketEvent, "id">;

const COLUMNS = `e.id, e.ticket_id, e.source, e.kind, e.title, e.summary, e.severity, e.icon,
  e.data_json, e.created_at`;

export function ticketEventStore(db: Db) {
  const byTicket = db.prepare<[number], TicketEventRow>(
    `SELECT ${COLUMNS} FROM ticket_events e WHERE e.ticket_id = ?
     ORDER BY e.created_at DESC, e.id DESC`,
  );
  const byId = db.prepare<[number], TicketEventRow>(
    `SELECT ${COLUMNS} FROM ticket_events e WHERE e.id = ?`,
  );
  const byTickets = db.prepare<[string], TicketEventRow>(
    `SELECT ${COLUMNS} FROM ticket_events e WHERE e.ticket_id ${IN_IDS}
     ORDER BY e.created_at DESC, e.id DESC`,
  );
  const insert = db.prepare(
    `INSERT INTO ticket_events (ticket_id, source, kind, title, summary, severity, icon, data_json,
       created_at)
     VALUES (@ticketId, @source, @kind, @title, @summary, @severity, @icon, @dataJson, @createdAt)`,
  );

  return {
    /** Newest first (createdAt desc, then id desc). */
    listByTicket: (ticketId: number): TicketEvent[] => byTicket.all(ticketId).map(toEvent),
    get: (id: number): TicketEvent | undefined => {
      const row = byId.get(id);
      return row && toEvent(row);
    },
    /** The events of the given tickets in one query, newest first, grouped by ticket id. */
    groupedByTickets: (ids: readonly number[]): Map<number, TicketEvent[]> =>
      groupByTicket(byTickets.iterate(JSON.stringify(ids)), toEvent),
    /** Returns the new id. */
    insert(event: NewTicketEvent): number {
      const { data, ...columns } = event;
      return Number(insert.run({ ...columns, dataJson: JSON.stringify(data) }).lastInsertRowid);
    },
  };
}

export type TicketEventStore = ReturnType<typeof ticketEventStore>;
