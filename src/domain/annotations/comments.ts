import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import { now } from "../clock.js";
import { found, InvalidInput } from "../errors.js";
import { renderMarkdown } from "../markdown.js";
import type { Comment } from "../model.js";
import { BODY_MAX, cleanName } from "../names.js";
import type { TicketService } from "../tickets/tickets.js";
import type { Transact } from "../transaction.js";
import { NO_TRASH, type TrashKeeper } from "../trash/trash-keeper.js";

/**
 * A comment body is a naming string in the terms of docs/api.md, "Errors": trimmed, non-empty after
 * trimming, and stored trimmed (at most 200,000 characters after trimming).
 */
export function cleanCommentMarkdown(value: string, field = "bodyMarkdown"): string {
  return cleanName(value, field, BODY_MAX);
}

/** The stored body and its HTML, rendered once, here. */
function commentText(value: string) {
  const bodyMarkdown = cleanCommentMarkdown(value);
  return { bodyMarkdown, bodyHtml: renderMarkdown(bodyMarkdown) };
}

/**
 * Local comments of a ticket. A comment that is `pushed` or being pushed (`pushing`) mirrors a
 * remote comment and is read-only (docs/api.md, "Remote tracking"). Comment changes do not alter
 * the ticket's own `updatedAt`; they are announced on the board stream and recorded as activity.
 */
export function commentService(
  stores: Pick<Stores, "comments">,
  deps: { tickets: Pick<TicketService, "requireRow">; activity: ActivityRecorder },
  transact: Transact,
  trash: TrashKeeper = NO_TRASH,
) {
  const { comments } = stores;
  const { tickets, activity } = deps;

  function require(commentId: number): Comment {
    return found(comments.get(commentId), "comment");
  }

  function assertEditable(comment: Comment): void {
    if (comment.sync.status === "pushed") {
      throw new InvalidInput("comment was pushed to the remote issue and is read-only");
    }
    if (comment.sync.status === "pushing") {
      throw new InvalidInput("comment is being pushed to the remote issue and is read-only");
    }
  }

  /**
   * `texts` are the before/after values (docs/api.md, "Activity") the timeline shows beside the
   * entry.
   */
  function record(
    boardId: number,
    comment: Comment,
    action: string,
    message: string,
    texts: Record<string, string> = {},
  ): void {
    activity.record({
      boardId,
      ticketId: comment.ticketId,
      action,
      message,
      details: { commentId: comment.id, ...texts },
    });
  }

  return {
    /** Throws NotFound unless the comment exists; returns it. */
    require,

    /** Newest first. */
    list(ticketId: number): Comment[] {
      tickets.requireRow(ticketId);
      return comments.listByTicket(ticketId);
    },

    create(ticketId: number, body: string): Comment {
      const text = commentText(body);
      return transact((changes) => {
        const ticket = tickets.requireRow(ticketId);
        const comment = comments.insert(ticketId, text.bodyMarkdown, text.bodyHtml, now());
        record(ticket.boardId, comment, "comment_added", "Comment added");
        changes.touched(ticket.boardId);
        return comment;
      });
    },

    update(commentId: number, body: string): Comment {
      const text = commentText(body);
      return transact((changes) => {
        const before = require(commentId);
        assertEditable(before);
        if (before.bodyMarkdown === text.bodyMarkdown) return before;
        const ticket = tickets.requireRow(before.ticketId);
        comments.updateBody(commentId, text.bodyMarkdown, text.bodyHtml, now());
        const comment = require(commentId);
        record(ticket.boardId, comment, "comment_updated", "Comment updated", {
          oldBodyMarkdown: before.bodyMarkdown,
          newBodyMarkdown: comment.bodyMarkdown,
        });
        changes.touched(ticket.boardId);
        return comment;
      });
    },

    remove(commentId: number): void {
      transact((changes) => {
        const comment = require(commentId);
        assertEditable(comment);
        const ticket = tickets.requireRow(comment.ticketId);
        trash.keep({
          kind: "comment",
          objectId: commentId,
          boardId: ticket.boardId,
          text: comment.bodyMarkdown,
        });
        comments.remove(commentId);
        record(ticket.boardId, comment, "comment_deleted", "Comment deleted", {
          deletedBodyMarkdown: comment.bodyMarkdown,
        });
        changes.touched(ticket.boardId);
      });
    },
  };
}

export type CommentService = ReturnType<typeof commentService>;
