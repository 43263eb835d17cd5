import type { Db } from "./database.js";

/**
 * The one sync transition the comment store does not offer in the form the push needs:
 * `pushed` without a remote comment id. Redmine accepts a note without saying which journal it
 * created (see src/remote/redmine.ts); the comment is then pushed (a retry would post it twice)
 * with `remoteCommentId` null, which CommentSync allows. If `commentStore.markPushed` accepts
 * `string | null` one day, this module can go.
 */
export function commentSyncStore(db: Db) {
  const pushed = db.prepare<[string | null, string, string, number]>(
    `UPDATE comments SET sync_status = 'pushed', remote_comment_id = ?, pushed_at = ?,
       last_error = NULL, sync_updated_at = ? WHERE id = ? AND sync_status = 'pushing'`,
  );
  return {
    /** `pushing` → `pushed`; false when the comment is no longer `pushing`. */
    markPushed: (id: number, remoteCommentId: string | null, pushedAt: string, at: string) =>
      pushed.run(remoteCommentId, pushedAt, at, id).changes === 1,
  };
}

export type CommentSyncStore = ReturnType<typeof commentSyncStore>;
