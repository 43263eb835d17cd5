import { Type } from "@sinclair/typebox";
import { FreeObject, FreeObjectInput, Id, Nullable, Timestamp } from "./common.js";

// Records kept beside a ticket: comment bodies, the activity history and ticket events.
// Naming strings are plain strings here; trimming and length limits live in the domain
// (domain/names.ts, domain/tickets/ticket-events.ts), one rule and one message each.

/** `POST /api/tickets/{id}/comments` and `PATCH /api/comments/{id}`. */
export const CommentBody = Type.Object({
  bodyMarkdown: Type.String({
    description: "Trimmed; must not be blank; at most 200,000 characters. Stored trimmed.",
  }),
});

export const ActivityLog = Type.Object(
  {
    id: Id,
    boardId: Id,
    ticketId: Nullable(Id),
    subjectTicketId: Id,
    action: Type.String({ description: "Stable action name (docs/activity.md)." }),
    message: Type.String(),
    details: FreeObject,
    createdAt: Timestamp,
  },
  { $id: "ActivityLog" },
);

export const TicketEvent = Type.Object(
  {
    id: Id,
    ticketId: Id,
    source: Type.String({ description: "Producer: provider, agent or integration." }),
    kind: Type.String({ description: "Source-defined event type." }),
    title: Type.String(),
    summary: Nullable(Type.String()),
    severity: Nullable(Type.String()),
    icon: Nullable(Type.String()),
    data: FreeObject,
    createdAt: Timestamp,
  },
  { $id: "TicketEvent" },
);
export const TicketEventRef = Type.Ref(TicketEvent);

export const TicketEventCreateBody = Type.Object(
  {
    source: Type.String({ description: "1-100 characters after trimming." }),
    kind: Type.String({ description: "1-100 characters after trimming." }),
    title: Type.String({ description: "1-500 characters after trimming." }),
    summary: Type.Optional(Nullable(Type.String({ description: "Blank means null." }))),
    severity: Type.Optional(Nullable(Type.String({ description: "Blank means null." }))),
    icon: Type.Optional(Nullable(Type.String({ description: "Blank means null." }))),
    data: Type.Optional(FreeObjectInput),
  },
  { $id: "TicketEventCreateBody" },
);
