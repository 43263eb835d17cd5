import type { Comment, CommentSyncStatus } from "../domain/model.js";
import type { Db } from "./database.js";

/**
 * A comment as every read selects it (`COMMENT_COLUMNS`, comments aliased `c`), as a raw row:
 * an array is built without a property lookup per column (~8 us less for a ticket's comments).
 */
export type CommentRaw = [
  id: number,
  ticketId: number,
  bodyMarkdown: string,
  bodyHtml: string,
  createdAt: string,
  syncStatus: CommentSyncStatus,
  remoteCommentId: string | null,
  pushedAt: string | null,
  lastError: string | null,
  syncCreatedAt: string,
  syncUpdatedAt: string,
];

export const COMMENT_COLUMNS = `c.id, c.ticket_id, c.body_markdown, c.body_html, c.created_at,
  c.sync_status, c.remote_comment_id, c.pushed_at, c.last_error, c.sync_created_at,
  c.sync_updated_at`;

export const toComment = (row: CommentRaw): Comment => ({
  id: row[0],
  ticketId: row[1],
  bodyMarkdown: row[2],
  bodyHtml: row[3],
  createdAt: row[4],
  sync: {
    commentId: row[0],
    status: row[5],
    remoteCommentId: row[6],
    pushedAt: row[7],
    lastError: row[8],
    createdAt: row[9],
    updatedAt: row[10],
  },
});

/** The ticket a raw comment row belongs to (storage/group-by-ticket.ts). */
export const commentTicketId = (row: CommentRaw): number => row[1];

export function commentStore(db: Db) {
  const byTicket = db
    .prepare<[number], CommentRaw>(
      `SELECT ${COMMENT_COLUMNS} FROM comments c WHERE c.ticket_id = ?
       ORDER BY c.created_at DESC, c.id DESC`,
    )
    .raw(true);
  const byId = db
    .prepare<[number], CommentRaw>(`SELECT ${COMMENT_COLUMNS} FROM comments c WHERE c.id = ?`)
    .raw(true);
  // A new comment's sync timestamps equal its own (docs/api.md, "Defaults at creation"). Bound
  // positionally: named parameters are looked up in an object built per call.
  const insert = db.prepare<[number, string, string, string, string, string, string]>(
    `INSERT INTO comments (ticket_id, body_markdown, body_html, created_at, updated_at,
       sync_created_at, sync_updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const updateBody = db.prepare<[string, string, string, number]>(
    "UPDATE comments SET body_markdown = ?, body_html = ?, updated_at = ? WHERE id = ?",
  );
  const remove = db.prepare<[number]>("DELETE FROM comments WHERE id = ?");
  // Claims the comment for one push attempt. A `pushing` row last touched before `staleBefore`
  // belongs to a crashed attempt and may be claimed again (docs/api.md, "Remote tracking").
  const claim = db.prepare<[{ id: number; at: string; staleBefore: string }]>(
    `UPDATE comments SET sync_status = 'pushing', last_error = NULL, sync_updated_at = @at
     WHERE id = @id AND (sync_status IN ('local_only', 'push_failed')
       OR (sync_status = 'pushing' AND sync_updated_at < @staleBefore))`,
  );
  const pushed = db.prepare<[string | null, string, string, number]>(
    `UPDATE comments SET sync_status = 'pushed', remote_comment_id = ?, pushed_at = ?,
       last_error = NULL, sync_updated_at = ? WHERE id = ? AND sync_status = 'pushing'`,
  );
  const failed = db.prepare<[string, string, number]>(
    `UPDATE comments SET sync_status = 'push_failed', last_error = ?, sync_updated_at = ?
     WHERE id = ? AND sync_status = 'pushing'`,
  );

  return {
    /** Newest first (createdAt desc, then id desc). */
    listByTicket: (ticketId: number): Comment[] => byTicket.all(ticketId).map(toComment),
    get: (id: number): Comment | undefined => {
      const row = byId.get(id);
      return row && toComment(row);
    },
    /**
     * A new `local_only` comment, as its row now reads: built from what was written and the
     * table's defaults rather than read back (test/api/comments.test.ts compares it with the
     * comment listed afterwards).
     */
    insert(ticketId: number, bodyMarkdown: string, bodyHtml: string, at: string): Comment {
      const id = Number(
        insert.run(ticketId, bodyMarkdown, bodyHtml, at, at, at, at).lastInsertRowid,
      );
      return toComment([
        id,
        ticketId,
        bodyMarkdown,
        bodyHtml,
        at,
        "local_only",
        null,
        null,
        null,
        at,
        at,
      ]);
    },
    updateBody(id: number, bodyMarkdown: string, bodyHtml: string, at: string): void {
      updateBody.run(bodyMarkdown, bodyHtml, at, id);
    },
    remove(id: number): void {
      remove.run(id);
    },

    /**
     * Sync-state transitions for the remote push (docs/api.md, "Remote tracking"). `beginPush`
     * atomically moves a `local_only`, `push_failed` or stale `pushing` comment to `pushing` and
     * says whether it did; false means another attempt owns it or it is already pushed. Run it in
     * its own transaction and commit before calling the provider, then record the outcome with
     * `markPushed` or `markPushFailed` (both only act on a comment still `pushing`, and say whether
     * they did).
     */
    beginPush: (id: number, staleBefore: string, at: string): boolean =>
      claim.run({ id, at, staleBefore }).changes === 1,
    /** `remoteCommentId` may be null: some providers do not say which comment they created. */
    markPushed: (
      id: number,
      remoteCommentId: string | null,
      pushedAt: string,
      at: string,
    ): boolean => pushed.run(remoteCommentId, pushedAt, at, id).changes === 1,
    markPushFailed: (id: number, lastError: string, at: string): boolean =>
      failed.run(lastError, at, id).changes === 1,
  };
}

export type CommentStore = ReturnType<typeof commentStore>;
