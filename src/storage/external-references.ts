import type { TicketExternalReference } from "../domain/model.js";
import type { Db } from "./database.js";
import { groupByTicket } from "./group-by-ticket.js";
import { IN_IDS } from "./id-lists.js";
import { type IssueLocationRow, issueLocationOf } from "./issue-locations.js";

interface ExternalReferenceRow extends IssueLocationRow {
  id: number;
  ticket_id: number;
  kind: string;
  title: string | null;
  created_at: string;
  updated_at: string;
}

const toReference = (row: ExternalReferenceRow): TicketExternalReference => ({
  id: row.id,
  ticketId: row.ticket_id,
  kind: row.kind,
  ...issueLocationOf(row),
  title: row.title,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The fields a client sets (TicketExternalReferenceSet after normalisation). */
export type ExternalReferenceFields = Omit<
  TicketExternalReference,
  "id" | "ticketId" | "kind" | "createdAt" | "updatedAt"
>;

export interface ExternalReferenceWrite extends Omit<TicketExternalReference, "id"> {
  /** Folded search text (domain/search-text.ts) that the list's `q` matches. */
  searchText: string;
}

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
  const byTickets = db.prepare<[string], ExternalReferenceRow>(
    `SELECT ${COLUMNS} FROM external_references r
     WHERE r.ticket_id ${IN_IDS} ORDER BY r.kind, r.id`,
  );
  const byKind = db.prepare<[number, string], ExternalReferenceRow>(
    `SELECT ${COLUMNS} FROM external_references r WHERE r.ticket_id = ? AND r.kind = ?`,
  );
  const insert = db.prepare<[ExternalReferenceWrite]>(
    `INSERT INTO external_references (ticket_id, kind, provider, instance_url, resource_type,
       project_key, issue_key, display_ref, url, title, search_text, created_at, updated_at)
     VALUES (@ticketId, @kind, @provider, @instanceUrl, @resourceType, @projectKey, @issueKey,
       @displayRef, @url, @title, @searchText, @createdAt, @updatedAt)`,
  );
  const update = db.prepare<
    [ExternalReferenceFields & { id: number; searchText: string; updatedAt: string }]
  >(
    `UPDATE external_references SET provider = @provider, instance_url = @instanceUrl,
       resource_type = @resourceType, project_key = @projectKey, issue_key = @issueKey,
       display_ref = @displayRef, url = @url, title = @title, search_text = @searchText,
       updated_at = @updatedAt
     WHERE id = @id`,
  );
  const remove = db.prepare<[number]>("DELETE FROM external_references WHERE id = ?");

  return {
    /** Ordered by kind, then id. */
    listByTicket: (ticketId: number): TicketExternalReference[] =>
      byTicket.all(ticketId).map(toReference),
    /** Every reference of a board's tickets in one query, grouped by ticket id. */
    groupedByBoard: (boardId: number): Map<number, TicketExternalReference[]> =>
      groupByTicket(byBoard.iterate(boardId), toReference),
    /** The references of the given tickets (one query), grouped by ticket id. */
    groupedByTickets: (ids: readonly number[]): Map<number, TicketExternalReference[]> =>
      groupByTicket(byTickets.iterate(JSON.stringify(ids)), toReference),
    getByKind: (ticketId: number, kind: string): TicketExternalReference | undefined => {
      const row = byKind.get(ticketId, kind);
      return row && toReference(row);
    },
    /** Returns the new id. */
    insert: (reference: ExternalReferenceWrite): number =>
      Number(insert.run(reference).lastInsertRowid),
    update(
      id: number,
      fields: ExternalReferenceFields,
      searchText: string,
      updatedAt: string,
    ): void {
      update.run({ ...fields, id, searchText, updatedAt });
    },
    remove(id: number): void {
      remove.run(id);
    },
  };
}

export type ExternalReferenceStore = ReturnType<typeof externalReferenceStore>;
