import { prepareBulkInsert, prepareNextId } from "./bulk-insert.js";
import type { Db } from "./database.js";
import type { ExternalReferenceFields } from "./external-references.js";
import type { TagReasonWrite } from "./tag-reasons.js";
import type { NewTicketEvent } from "./ticket-events.js";
import type { TicketWrite } from "./tickets.js";

/** A ticket's own columns as a board import writes them: positions and timestamps kept. */
export interface ImportedTicketRow extends Omit<TicketWrite, "laneId" | "parentTicketId"> {
  position: number;
  createdAt: string;
}

/** One ticket of an import batch; its parent, if any, is another ticket of the same import. */
export interface ImportedTicket {
  row: ImportedTicketRow;
  laneId: number;
  /** The parent's id, or null; a parent with a higher id is linked by `setParents` later. */
  parentId: number | null;
}

/** A comment as an import writes it: its own timestamps, sync state fresh. */
export interface ImportedComment {
  ticketId: number;
  bodyMarkdown: string;
  bodyHtml: string;
  createdAt: string;
}

/** An external reference of an imported ticket, its fields as the domain cleaned them. */
export interface ImportedReference {
  ticketId: number;
  kind: string;
  fields: ExternalReferenceFields;
  searchText: string;
  createdAt: string;
  updatedAt: string;
}

/** An event of an imported ticket. */
export interface ImportedEvent {
  ticketId: number;
  event: Omit<NewTicketEvent, "ticketId">;
}

/**
 * Writes of a board import, which the per-resource stores do not offer: an import keeps what
 * normal writes compute (positions and timestamps as given), links tickets that are all created
 * in the same transaction, and writes thousands of rows, so each table gets a few multi-row
 * statements instead of one statement per row (storage/bulk-insert.ts). Every method takes its
 * rows in insertion order; new ids ascend in that order and are exactly the ids one-row inserts
 * in the same order would have got. Call them inside the import's single transaction.
 */
export function boardImportStore(db: Db) {
  const nextTicketId = prepareNextId(db, "tickets");
  const nextCommentId = prepareNextId(db, "comments");
  const nextReferenceId = prepareNextId(db, "external_references");
  const nextEventId = prepareNextId(db, "ticket_events");
  const insertTickets = prepareBulkInsert(
    db,
    `INSERT INTO tickets (id, board_id, lane_id, parent_ticket_id, title, title_search,
       is_resolved, is_archived, priority, position, created_at, updated_at, not_before,
       checklist_done, checklist_total)`,
    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertTexts = prepareBulkInsert(
    db,
    "INSERT INTO ticket_texts (ticket_id, search_text, body_markdown, body_html)",
    "(?, ?, ?, ?)",
  );
  // Before the text rows: the search index triggers skip pending tickets (search-index.ts).
  const deferSearchIndex = db.prepare<[number, number]>(
    "INSERT OR IGNORE INTO ticket_search_pending (ticket_id, parts) SELECT id, 7 FROM tickets WHERE board_id = ? AND id >= ?",
  );
  const setParent = db.prepare<[number, number]>(
    "UPDATE tickets SET parent_ticket_id = ? WHERE id = ?",
  );
  // A new comment's sync timestamps equal its own (docs/api.md, "Defaults at creation"), as in
  // storage/comments.ts.
  const insertComments = prepareBulkInsert(
    db,
    `INSERT INTO comments (id, ticket_id, body_markdown, body_html, created_at, updated_at,
       sync_created_at, sync_updated_at)`,
    "(?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertTagLinks = prepareBulkInsert(
    db,
    `INSERT INTO ticket_tags (ticket_id, tag_id, reason, details_json, reason_comment_id,
       attached_at, updated_at)`,
    "(?, ?, ?, ?, ?, ?, ?)",
  );
  const insertBlockers = prepareBulkInsert(
    db,
    "INSERT OR IGNORE INTO ticket_blockers (ticket_id, blocker_id)",
    "(?, ?)",
  );
  const insertRelated = prepareBulkInsert(
    db,
    "INSERT OR IGNORE INTO ticket_related (low_id, high_id)",
    "(?, ?)",
  );
  const insertReferences = prepareBulkInsert(
    db,
    `INSERT INTO external_references (id, ticket_id, kind, provider, instance_url, resource_type,
       project_key, issue_key, display_ref, url, title, search_text, created_at, updated_at)`,
    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertEvents = prepareBulkInsert(
    db,
    `INSERT INTO ticket_events (id, ticket_id, source, kind, title, summary, severity, icon,
       data_json, created_at)`,
    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );

  return {
    /** The id the next ticket inserted will get (ids ascend in insertion order). */
    nextTicketId,

    /**
     * Returns the new ids, in batch order, and the [child, parent] links left for `setParents`:
     * a parent that is not written yet (a higher id) cannot be referenced.
     */
    insertTickets(
      boardId: number,
      tickets: readonly ImportedTicket[],
    ): { ids: number[]; unlinked: Array<[id: number, parentId: number]> } {
      const first = nextTicketId();
      const ids: number[] = new Array(tickets.length);
      const values: unknown[] = [];
      const texts: unknown[] = [];
      const unlinked: Array<[id: number, parentId: number]> = [];
      tickets.forEach(({ row, laneId, parentId }, index) => {
        const id = first + index;
        ids[index] = id;
        const linked = parentId !== null && parentId < id;
        if (parentId !== null && !linked) unlinked.push([id, parentId]);
        values.push(
          id,
          boardId,
          laneId,
          linked ? parentId : null,
          row.title,
          row.searchText.title,
          row.isResolved ? 1 : 0,
          row.isArchived ? 1 : 0,
          row.priority,
          row.position,
          row.createdAt,
          row.updatedAt,
          row.notBefore,
          row.checklist.done,
          row.checklist.total,
        );
        texts.push(id, row.searchText.body, row.bodyMarkdown, row.bodyHtml);
      });
      insertTickets(values);
      deferSearchIndex.run(boardId, first);
      insertTexts(texts);
      return { ids, unlinked };
    },

    /** Links children to parents written after them ([child, parent] pairs). */
    setParents(links: ReadonlyArray<readonly [number, number]>): void {
      for (const [id, parentId] of links) setParent.run(parentId, id);
    },

    /** `local_only` comments keeping their creation time; returns the new ids, in order. */
    insertComments(comments: readonly ImportedComment[]): number[] {
      const first = nextCommentId();
      const values: unknown[] = [];
      const ids = comments.map((comment, index) => {
        const at = comment.createdAt;
        values.push(first + index, comment.ticketId, comment.bodyMarkdown, comment.bodyHtml);
        values.push(at, at, at, at);
        return first + index;
      });
      insertComments(values);
      return ids;
    },

    /** Tag links with their reason columns; each (ticket, tag) pair at most once. */
    insertTagLinks(links: readonly TagReasonWrite[]): void {
      const values: unknown[] = [];
      for (const link of links) {
        values.push(
          link.ticketId,
          link.tagId,
          link.reason,
          link.details === null ? null : JSON.stringify(link.details),
          link.reasonCommentId,
          link.attachedAt,
          link.updatedAt,
        );
      }
      insertTagLinks(values);
    },

    /** Each pair: the ticket, then the ticket blocking it. Repeated pairs are stored once. */
    insertBlockers(links: ReadonlyArray<readonly [number, number]>): void {
      insertBlockers(links.flat());
    },

    /** Symmetric links, each stored once with the lower id first. */
    insertRelated(links: ReadonlyArray<readonly [number, number]>): void {
      const values: number[] = [];
      for (const [a, b] of links) values.push(Math.min(a, b), Math.max(a, b));
      insertRelated(values);
    },

    /** Returns the new ids, in order. */
    insertReferences(references: readonly ImportedReference[]): number[] {
      const first = nextReferenceId();
      const values: unknown[] = [];
      const ids = references.map((reference, index) => {
        const { fields } = reference;
        values.push(
          first + index,
          reference.ticketId,
          reference.kind,
          fields.provider,
          fields.instanceUrl,
          fields.resourceType,
          fields.projectKey,
          fields.issueKey,
          fields.displayRef,
          fields.url,
          fields.title,
          reference.searchText,
          reference.createdAt,
          reference.updatedAt,
        );
        return first + index;
      });
      insertReferences(values);
      return ids;
    },

    insertEvents(events: readonly ImportedEvent[]): void {
      const first = nextEventId();
      const values: unknown[] = [];
      events.forEach(({ ticketId, event }, index) => {
        values.push(
          first + index,
          ticketId,
          event.source,
          event.kind,
          event.title,
          event.summary,
          event.severity,
          event.icon,
          JSON.stringify(event.data),
          event.createdAt,
        );
      });
      insertEvents(values);
    },
  };
}

export type BoardImportStore = ReturnType<typeof boardImportStore>;
