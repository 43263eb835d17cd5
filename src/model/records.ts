import { type Static, Type } from "@sinclair/typebox";
import { FreeObject, Id, Nullable, Timestamp } from "./common.js";

// Records kept beside a ticket: the activity history (docs/activity.md) and ticket events
// (docs/api.md, "Ticket events").

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
export type ActivityLog = Static<typeof ActivityLog>;

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
export type TicketEvent = Static<typeof TicketEvent>;
export const TicketEventRef = Type.Ref(TicketEvent);
