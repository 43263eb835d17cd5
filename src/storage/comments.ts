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

  return {
    /** Newest first (createdAt desc, then id desc). */
    listByTicket: (ticketId: number): Comment[] => byTicket.all(ticketId).map(toComment),
    get: (id: number): Comment | undefined => {
      const row = byId.get(id);
      return row && toComment(row);
    },
  };
}

export type CommentStore = ReturnType<typeof commentStore>;
