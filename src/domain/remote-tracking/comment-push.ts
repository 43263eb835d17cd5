// POST /api/comments/{commentId}/push-remote: the sync state machine of docs/api.md, "Remote
// tracking".
//
//   local_only | push_failed | pushing older than 15 min  --claim (committed)-->  pushing
//   pushing  --provider accepted-->  pushed (remoteCommentId, pushedAt)
//   pushing  --provider refused-->   push_failed (lastError), answered as 400 {error: lastError}
//
// The claim is one compare-and-set UPDATE committed before the provider is called, so two
// concurrent pushes of one comment post it once: the second finds it `pushing` and gets 409.

import { RemoteError } from "../../providers/types.js";
import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import { now } from "../clock.js";
import { Conflict, found, InvalidInput } from "../errors.js";
import type { Comment } from "../model.js";
import type { TicketService } from "../tickets/tickets.js";
import type { Transact } from "../transaction.js";
import { operationCall, type RemoteAccess, targetOfLink } from "./remote-tracking.js";

/** A `pushing` comment older than this belongs to a crashed attempt and may be pushed again. */
export const STALE_PUSH_MS = 15 * 60 * 1000;

export function commentPushService(
  stores: Pick<Stores, "comments" | "remoteLinks">,
  deps: {
    tickets: Pick<TicketService, "require">;
    activity: ActivityRecorder;
    remote: RemoteAccess;
  },
  transact: Transact,
) {
  const { comments, remoteLinks } = stores;
  const { tickets, activity, remote } = deps;

  function requireComment(commentId: number): Comment {
    return found(comments.get(commentId), "comment");
  }

  /** Checks, then commits `pushing`; returns what the remote call needs. */
  function claim(commentId: number) {
    return transact(() => {
      const comment = requireComment(commentId);
      const at = now();
      const staleBefore = new Date(Date.parse(at) - STALE_PUSH_MS).toISOString();
      const { status, updatedAt } = comment.sync;
      if (status === "pushed") throw new Conflict("comment is already pushed");
      if (status === "pushing" && updatedAt >= staleBefore) {
        throw new Conflict("comment is already being pushed");
      }
      const ticket = tickets.require(comment.ticketId);
      const link = remoteLinks.get(ticket.id);
      if (link === null) throw new InvalidInput("ticket is not tracked by a remote issue");
      const target = targetOfLink(link);
      const call = operationCall(remote, target);
      // The compare-and-set itself: false when another request claimed it since the read above.
      if (!comments.beginPush(commentId, staleBefore, at)) {
        throw new Conflict("comment is already being pushed");
      }
      // Not announced: the board stream sends one message per request (docs/api.md, "The board
      // change stream"), after the outcome below commits.
      return { comment, target, call, displayRef: link.displayRef };
    });
  }

  /** Records the outcome of a claimed push, if the comment and its ticket still exist. */
  function settle(
    comment: Comment,
    displayRef: string,
    outcome: { remoteCommentId: string | null; pushedAt: string } | { error: string },
  ): void {
    transact((changes) => {
      if (!comments.get(comment.id)) return; // deleted with its ticket meanwhile
      const ticket = tickets.require(comment.ticketId);
      const at = now();
      if ("error" in outcome) {
        comments.markPushFailed(comment.id, outcome.error, at);
        activity.record({
          boardId: ticket.boardId,
          ticketId: ticket.id,
          action: "remote_comment_push_failed",
          message: `Comment push to ${displayRef} failed: ${outcome.error}`,
          details: { commentId: comment.id, displayRef, error: outcome.error },
        });
      } else {
        stores.comments.markPushed(comment.id, outcome.remoteCommentId, outcome.pushedAt, at);
        activity.record({
          boardId: ticket.boardId,
          ticketId: ticket.id,
          action: "remote_comment_pushed",
          message: `Comment pushed to ${displayRef}`,
          details: { commentId: comment.id, displayRef, remoteCommentId: outcome.remoteCommentId },
        });
      }
      changes.touched(ticket.boardId);
    });
  }

  return {
    async push(commentId: number): Promise<Comment> {
      const { comment, target, call, displayRef } = claim(commentId);
      let posted: { remoteCommentId: string | null; postedAt: string };
      try {
        posted = await call.provider.postComment(target, call.token, comment.bodyMarkdown);
      } catch (error) {
        // Anything but a classified provider failure is a bug: still leave the comment
        // retryable (push_failed) rather than stuck in `pushing` for 15 minutes.
        const message =
          error instanceof RemoteError ? error.message : "the comment could not be pushed";
        settle(comment, displayRef, { error: message });
        if (error instanceof RemoteError) throw new InvalidInput(message);
        throw error;
      }
      settle(comment, displayRef, {
        remoteCommentId: posted.remoteCommentId,
        pushedAt: posted.postedAt,
      });
      return requireComment(commentId);
    },
  };
}

export type CommentPushService = ReturnType<typeof commentPushService>;
