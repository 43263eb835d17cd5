import type { Stores } from "../../storage/index.js";
import type { TagReasonRecord } from "../../storage/tag-reasons.js";
import type { ActivityRecorder } from "../activity.js";
import { now } from "../clock.js";
import { found, InvalidInput, NotFound } from "../errors.js";
import type { Tag } from "../model.js";
import { BODY_MAX, optionalText } from "../names.js";
import type { TicketService } from "../tickets/tickets.js";
import type { Transact } from "../transaction.js";

/** TicketTagReason of docs/api.md: an attached tag with its optional reason metadata. */
export interface TicketTagReason {
  tag: Tag;
  reason: string | null;
  details: Record<string, unknown> | null;
  reasonCommentId: number | null;
  attachedAt: string | null;
  updatedAt: string | null;
}

/** TicketTagReasonSetBody: every field optional; an omitted field keeps its current value. */
export interface TagReasonInput {
  reason?: string | null;
  details?: Record<string, unknown> | null;
  reasonCommentId?: number | null;
}

const toReason = (record: TagReasonRecord): TicketTagReason => ({
  tag: record.tag,
  reason: record.reason,
  details: record.details,
  reasonCommentId: record.reasonCommentId,
  attachedAt: record.attachedAt,
  updatedAt: record.updatedAt,
});

/** Trimmed reason text; blank means none (null). */
export const cleanReason = (value: string | null | undefined, field = "reason") =>
  optionalText(value, field, BODY_MAX);

/**
 * Why a tag is on a ticket. Setting a reason attaches the board's tag if needed (`attachedAt`
 * is set then and kept afterwards; `updatedAt` changes on every set). Attaching or detaching
 * a tag changes the ticket's tags, so it bumps the ticket's `updatedAt`; a reason-only change
 * does not. Both are activity (`ticket_tag_reason_set`, `ticket_tag_removed`).
 */
export function tagReasonService(
  stores: Pick<Stores, "tagReasons" | "tags" | "comments" | "tickets">,
  deps: { tickets: Pick<TicketService, "requireRow">; activity: ActivityRecorder },
  transact: Transact,
) {
  const { tagReasons, tags, comments } = stores;
  const { tickets, activity } = deps;

  const snapshot = (record: TagReasonRecord | undefined) =>
    record
      ? {
          reason: record.reason,
          details: record.details,
          reasonCommentId: record.reasonCommentId,
        }
      : null;

  return {
    /** The ticket's attached tags in tag order (name case-insensitive, then id). */
    list(ticketId: number): TicketTagReason[] {
      tickets.requireRow(ticketId);
      return tagReasons.listByTicket(ticketId).map(toReason);
    },

    set(ticketId: number, tagId: number, input: TagReasonInput): TicketTagReason {
      const reason = input.reason === undefined ? undefined : cleanReason(input.reason);
      return transact((changes) => {
        const ticket = tickets.requireRow(ticketId);
        const tag = found(tags.get(tagId), "tag");
        if (tag.boardId !== ticket.boardId) {
          throw new InvalidInput("tag is not a tag of this ticket's board");
        }
        const commentId = input.reasonCommentId;
        if (commentId != null && comments.get(commentId)?.ticketId !== ticketId) {
          throw new InvalidInput("reasonCommentId is not a comment of this ticket");
        }
        const before = tagReasons.get(ticketId, tagId);
        const at = now();
        tagReasons.set({
          ticketId,
          tagId,
          reason: reason === undefined ? (before?.reason ?? null) : reason,
          details: input.details === undefined ? (before?.details ?? null) : input.details,
          reasonCommentId: commentId === undefined ? (before?.reasonCommentId ?? null) : commentId,
          attachedAt: at,
          updatedAt: at,
        });
        const after = tagReasons.get(ticketId, tagId) as TagReasonRecord;
        if (!before) stores.tickets.touch(ticketId, at);
        activity.record({
          boardId: ticket.boardId,
          ticketId,
          action: "ticket_tag_reason_set",
          message: before ? `Tag ${tag.name} reason updated` : `Tag ${tag.name} added`,
          details: {
            tagId,
            tagName: tag.name,
            attached: !before,
            before: snapshot(before),
            after: snapshot(after),
          },
        });
        changes.touched(ticket.boardId);
        // A reason updated on an attached tag changes no ticket: the message still names it.
        changes.ticketMentioned(ticket.boardId, ticketId);
        return toReason(after);
      });
    },

    /** Detaches the tag (404 when it is not attached), dropping its reason. */
    remove(ticketId: number, tagId: number): void {
      transact((changes) => {
        const ticket = tickets.requireRow(ticketId);
        const tag = found(tags.get(tagId), "tag");
        const before = tagReasons.get(ticketId, tagId);
        if (!before) throw new NotFound("tag is not attached to this ticket");
        tagReasons.remove(ticketId, tagId);
        stores.tickets.touch(ticketId, now());
        activity.record({
          boardId: ticket.boardId,
          ticketId,
          action: "ticket_tag_removed",
          message: `Tag ${tag.name} removed`,
          details: { tagId, tagName: tag.name, before: snapshot(before) },
        });
        changes.touched(ticket.boardId);
      });
    },
  };
}

export type TagReasonService = ReturnType<typeof tagReasonService>;
