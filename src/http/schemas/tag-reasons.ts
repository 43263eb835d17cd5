import { Type } from "@sinclair/typebox";
import { FreeObject, FreeObjectInput, Id, Nullable, Timestamp } from "./common.js";

const TagByName = Type.Unsafe<{ id: number; boardId: number; name: string; color: string }>(
  Type.Ref("Tag"),
);

export const TicketTagReason = Type.Object(
  {
    tag: TagByName,
    reason: Nullable(Type.String()),
    details: Nullable(FreeObject),
    reasonCommentId: Nullable(Id),
    attachedAt: Nullable(Timestamp),
    updatedAt: Nullable(Timestamp),
  },
  { $id: "TicketTagReason" },
);

export const TicketTagReasonSetBody = Type.Object(
  {
    reason: Type.Optional(Nullable(Type.String({ description: "Trimmed; blank means null." }))),
    details: Type.Optional(Nullable(FreeObjectInput)),
    reasonCommentId: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, description: "A comment of the same ticket." })),
    ),
  },
  {
    $id: "TicketTagReasonSetBody",
    description: "Omitted fields keep their current value; null clears one.",
  },
);

export const TicketTagParams = Type.Object({ ticketId: Id, tagId: Id });
