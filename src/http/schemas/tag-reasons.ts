import { Type } from "@sinclair/typebox";
import { FreeObjectInput, Id, Nullable } from "./common.js";

export { TicketTagReason } from "../../model/tag-reasons.js";

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
