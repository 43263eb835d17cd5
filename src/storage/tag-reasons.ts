import type { TagReasonFields, TicketTagReason } from "../model/tag-reasons.js";
import type { Db } from "./database.js";
import { groupByTicket } from "./group-by-ticket.js";
import { IN_IDS } from "./id-lists.js";

/** One attached tag of a ticket with its reason metadata (the `ticket_tags` reason columns). */
export interface TagReasonRecord extends TicketTagReason {
  ticketId: number;
}

/**
 * What a set writes: every reason column, as the domain resolved it. `attachedAt` is used only
 * when the link is new; an existing link keeps its own.
 */
export interface TagReasonWrite extends TagReasonFields {
  ticketId: number;
  tagId: number;
}

interface SqlRow {
  ticket_id: number;
  tag_id: number;
  board_id: number;
  name: string;
  color: string;
  reason: string | null;
  details_json: string | null;
  reason_comment_id: number | null;
  attached_at: string | null;
  updated_at: string | null;
}

const toRecord = (row: SqlRow): TagReasonRecord => ({
  ticketId: row.ticket_id,
  tag: { id: row.tag_id, boardId: row.board_id, name: row.name, color: row.color },
  reason: row.reason,
  details: row.details_json === null ? null : (JSON.parse(row.details_json) as never),
  reasonCommentId: row.reason_comment_id,
  attachedAt: row.attached_at,
  updatedAt: row.updated_at,
});

const SELECT = `SELECT tt.ticket_id, tt.tag_id, g.board_id, g.name, g.color, tt.reason,
  tt.details_json, tt.reason_comment_id, tt.attached_at, tt.updated_at
  FROM ticket_tags tt JOIN tags g ON g.id = tt.tag_id`;

/**
 * Reason metadata of tag links (TicketTagReason, docs/api.md). The links themselves are shared with
 * the ticket's `tagIds` (storage/ticket-tags.ts); these functions read and write the reason columns
 * and attach or detach single tags.
 */
export function tagReasonStore(db: Db) {
  const ofTicket = db.prepare<[number], SqlRow>(
    `${SELECT} WHERE tt.ticket_id = ? ORDER BY g.name_key, g.id`,
  );
  const one = db.prepare<[number, number], SqlRow>(
    `${SELECT} WHERE tt.ticket_id = ? AND tt.tag_id = ?`,
  );
  const ofTickets = db.prepare<[string], SqlRow>(
    `${SELECT} WHERE tt.ticket_id ${IN_IDS} ORDER BY g.name_key, g.id`,
  );
  const upsert = db.prepare<[Omit<TagReasonWrite, "details"> & { detailsJson: string | null }]>(
    `INSERT INTO ticket_tags (ticket_id, tag_id, reason, details_json, reason_comment_id,
       attached_at, updated_at)
     VALUES (@ticketId, @tagId, @reason, @detailsJson, @reasonCommentId, @attachedAt, @updatedAt)
     ON CONFLICT (ticket_id, tag_id) DO UPDATE SET reason = excluded.reason,
       details_json = excluded.details_json, reason_comment_id = excluded.reason_comment_id,
       updated_at = excluded.updated_at`,
  );
  const remove = db.prepare<[number, number]>(
    "DELETE FROM ticket_tags WHERE ticket_id = ? AND tag_id = ?",
  );

  return {
    /** The ticket's attached tags, by tag name (case-insensitive), then id. */
    listByTicket: (ticketId: number): TagReasonRecord[] => ofTicket.all(ticketId).map(toRecord),

    get(ticketId: number, tagId: number): TagReasonRecord | undefined {
      const row = one.get(ticketId, tagId);
      return row && toRecord(row);
    },

    /** The tag links of the given tickets in one query, grouped by ticket id, in tag order. */
    groupedByTickets: (ids: readonly number[]): Map<number, TagReasonRecord[]> =>
      groupByTicket(ofTickets.iterate(JSON.stringify(ids)), toRecord),

    /** Attaches the tag if needed and writes its reason columns. */
    set(write: TagReasonWrite): void {
      const { details, ...columns } = write;
      upsert.run({ ...columns, detailsJson: details === null ? null : JSON.stringify(details) });
    },

    /** Detaches the tag; false when it was not attached. */
    remove: (ticketId: number, tagId: number): boolean => remove.run(ticketId, tagId).changes > 0,
  };
}

export type TagReasonStore = ReturnType<typeof tagReasonStore>;
