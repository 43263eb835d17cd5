import type { TicketExternalReference } from "../domain/model.js";
import type { Db } from "./database.js";

interface ExternalReferenceRow {
  id: number;
  ticket_id: number;
  kind: string;
  provider: string;
  instance_url: string;
  resource_type: string;
  project_key: string;
  issue_key: string;
  display_ref: string;
  url: string;
  title: string | null;
  created_at: string;
  updated_at: string;
}

const toReference = (row: ExternalReferenceRow): TicketExternalReference => ({
  id: row.id,
  ticketId: row.ticket_id,
  kind: row.kind,
  provider: row.provider,
  instanceUrl: row.instance_url,
  resourceType: row.resource_type,
  projectKey: row.project_key,
  issueKey: row.issue_key,
  displayRef: row.display_ref,
  url: row.url,
  title: row.title,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const COLUMNS = `r.id, r.ticket_id, r.kind, r.provider, r.instance_url, r.resource_type, r.project_key,
  r.issue_key, r.display_ref, r.url, r.title, r.created_at, r.updated_at`;

export function externalReferenceStore(db: Db) {
  const byTicket = db.prepare<[number], ExternalReferenceRow>(
    `SELECT ${COLUMNS} FROM external_references r WHERE r.ticket_id = ? ORDER BY r.kind, r.id`,
  );
  const byBoard = db.prepare<[number], ExternalReferenceRow>(
    `SELECT ${COLUMNS} FROM external_references r JOIN tickets t ON t.id = r.ticket_id
     WHERE t.board_id = ? ORDER BY r.kind, r.id`,
  );

  return {
    /** Ordered by kind, then id. */
    listByTicket: (ticketId: number): TicketExternalReference[] =>
      byTicket.all(ticketId).map(toReference),
    /** Every reference of a board's tickets in one query, grouped by ticket id. */
    groupedByBoard(boardId: number): Map<number, TicketExternalReference[]> {
      const groups = new Map<number, TicketExternalReference[]>();
      for (const row of byBoard.iterate(boardId)) {
        const list = groups.get(row.ticket_id);
        if (list) list.push(toReference(row));
        else groups.set(row.ticket_id, [toReference(row)]);
      }
      return groups;
    },
  };
}

export type ExternalReferenceStore = ReturnType<typeof externalReferenceStore>;
