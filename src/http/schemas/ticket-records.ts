import { Type } from "@sinclair/typebox";
import { BODY_MAX, EVENT_SOURCE_MAX, grouped, TITLE_MAX } from "../../model/limits.js";
import { FreeObjectInput, Nullable } from "./common.js";

export { ActivityLog, TicketEvent, TicketEventRef } from "../../model/records.js";

// Requests about the records kept beside a ticket (comments, ticket events); the records
// themselves are the model's (src/model/records.ts).
// Naming strings are plain strings here; trimming and length limits live in the domain
// (domain/names.ts, domain/tickets/ticket-events.ts), one rule and one message each.

/** `POST /api/tickets/{id}/comments` and `PATCH /api/comments/{id}`. */
export const CommentBody = Type.Object({
  bodyMarkdown: Type.String({
    description: `Trimmed; must not be blank; at most ${grouped(BODY_MAX)} characters. Stored trimmed.`,
  }),
});

export const TicketEventCreateBody = Type.Object(
  {
    source: Type.String({ description: `1-${EVENT_SOURCE_MAX} characters after trimming.` }),
    kind: Type.String({ description: `1-${EVENT_SOURCE_MAX} characters after trimming.` }),
    title: Type.String({ description: `1-${TITLE_MAX} characters after trimming.` }),
    summary: Type.Optional(Nullable(Type.String({ description: "Blank means null." }))),
    severity: Type.Optional(Nullable(Type.String({ description: "Blank means null." }))),
    icon: Type.Optional(Nullable(Type.String({ description: "Blank means null." }))),
    data: Type.Optional(FreeObjectInput),
  },
  { $id: "TicketEventCreateBody" },
);
