import type { Comment, CommentSyncStatus } from "../domain/model.js";
import type { Db } from "./database.js";

export interface CommentRow {
  id: number;
  ticket_id: number;
  body_markdown: string;
  body_html: string;
  created_at: string;
  updated_at: string;
  sync_status: CommentSyncStatus;
  remote_comment_id: string | null;
  pushed_at: string | null;
  last_error: string | null;
  sync_created_at: string;
  sync_updated_at: string;
}

export const toComment = (row: CommentRow): Comment => ({
  id: row.id,
  ticketId: row.ticket_id,
  bodyMarkdown: row.body_markdown,
  bodyHtml: row.body_html,
  createdAt: row.created_at,
  sync: {
    commentId: row.id,
    status: row.sync_status,
    remoteCommentId: row.remote_comment_id,
    pushedAt: row.pushed_at,
    lastError: row.last_error,
    createdAt: row.sync_created_at,
    updatedAt: row.sync_updated_at,
  },
});

export function commentStore(db: Db) {
  const byTicket = db.prepare<[number], CommentRow>(
    "SELECT * FROM comments WHERE ticket_id = ? ORDER BY created_at DESC, id DESC",
  );
  const byId = db.prepare<[number], CommentRow>("SELECT * FROM comments WHERE id = ?");
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
      return toComment({
        id,
        ticket_id: ticketId,
        body_markdown: bodyMarkdown,
        body_html: bodyHtml,
        created_at: at,
        updated_at: at,
        sync_status: "local_only",
        remote_comment_id: null,
        pushed_at: null,
        last_error: null,
        sync_created_at: at,
        sync_updated_at: at,
      });
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
