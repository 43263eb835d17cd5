import { type Static, Type } from "@sinclair/typebox";
import { TagRef } from "./boards.js";
import { FreeObject, Id, Nullable, Timestamp } from "./common.js";

// Why a tag is attached to a ticket (docs/api.md, "Tag reasons").

/** A link's reason metadata; a board export keeps these beside the tag's id. */
export const tagReasonFields = {
  reason: Nullable(Type.String()),
  details: Nullable(FreeObject),
  reasonCommentId: Nullable(Id),
  attachedAt: Nullable(Timestamp),
  updatedAt: Nullable(Timestamp),
};
const TagReasonFields = Type.Object(tagReasonFields);
export type TagReasonFields = Static<typeof TagReasonFields>;

export const TicketTagReason = Type.Object(
  { tag: TagRef, ...tagReasonFields },
  { $id: "TicketTagReason" },
);
export type TicketTagReason = Static<typeof TicketTagReason>;
