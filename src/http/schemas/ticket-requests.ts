import { Type } from "@sinclair/typebox";
import { BODY_MAX, TITLE_MAX } from "../../model/limits.js";
import { Priority } from "../../model/tickets.js";
import { Id, IdList, Nullable } from "./common.js";

// Request bodies and the list query of the ticket endpoints. Names are plain strings here:
// trimming and length limits of titles live in domain/names.ts (one rule, one message).

const deprecatedCompleted = Type.Boolean({
  description: "Deprecated alias of isResolved; isResolved wins when both are sent.",
  deprecated: true,
});

/** Ids inside arrays are positive integers; duplicates are collapsed. */
const TicketIds = Type.Array(Id, { minItems: 1, maxItems: 100_000 });

const upsertFields = {
  laneId: Type.Optional(Id),
  parentTicketId: Type.Optional(Nullable(Id)),
  title: Type.Optional(Type.String({ description: `1-${TITLE_MAX} characters after trimming.` })),
  bodyMarkdown: Type.Optional(Type.String({ maxLength: BODY_MAX })),
  isResolved: Type.Optional(Type.Boolean()),
  isCompleted: Type.Optional(deprecatedCompleted),
  isArchived: Type.Optional(Type.Boolean()),
  priority: Type.Optional(Priority),
  tagIds: Type.Optional(IdList),
  blockerIds: Type.Optional(Nullable(IdList)),
  relatedIds: Type.Optional(Nullable(IdList)),
  notBefore: Type.Optional(
    Nullable(
      Type.String({
        description:
          "RFC 3339 date-time with an offset: not ready before it (shown in UTC with " +
          "milliseconds); null clears it.",
      }),
    ),
  ),
};

export const TicketCreateBody = Type.Object(
  { ...upsertFields, laneId: Id, title: Type.String() },
  { description: "TicketUpsert with laneId and title required." },
);

export const TicketPatchBody = Type.Object(upsertFields, {
  description: "TicketUpsert: send only changes; at least one field.",
});

export const TicketListQuery = Type.Object({
  lane_id: Type.Optional(Id),
  tag: Type.Optional(Type.String({ description: "Tag name, case-insensitive." })),
  resolved: Type.Optional(Type.Boolean()),
  completed: Type.Optional(
    Type.Boolean({ description: "Deprecated alias of resolved.", deprecated: true }),
  ),
  archived: Type.Optional(
    Type.Unsafe<"true" | "false" | "all">({
      type: "string",
      enum: ["true", "false", "all"],
      description: "Default false (hide archived); true = only archived; all = both.",
    }),
  ),
  q: Type.Optional(Type.String({ description: "Search (#<n>, <prefix>#<key> or text)." })),
  ready: Type.Optional(
    Type.Boolean({
      description:
        "true: only tickets an agent may start now (not resolved or archived, no unresolved " +
        "blocker, no parent with one, no unresolved child, no open blocking ask, no live " +
        "claim, no notBefore to come), priority desc then " +
        "board order.",
    }),
  ),
});

export const ChecklistItemBody = Type.Object({
  index: Type.Integer({ minimum: 0, description: "The item, 0-based, in document order." }),
  checked: Type.Boolean({ description: "The box's new state." }),
});

export const TransitionBody = Type.Object({
  laneName: Type.String(),
  isResolved: Type.Optional(Type.Boolean()),
  isCompleted: Type.Optional(deprecatedCompleted),
});

export const PositionBody = Type.Object({
  laneId: Id,
  position: Type.Optional(Type.Integer({ minimum: 0 })),
  beforeTicketId: Type.Optional(Nullable(Id)),
  afterTicketId: Type.Optional(Nullable(Id)),
});

export const MoveBody = Type.Object({ boardId: Id, laneId: Id });

export const BulkCompleteBody = Type.Object({
  ticketIds: TicketIds,
  isResolved: Type.Optional(Type.Boolean({ description: "Default true." })),
  isCompleted: Type.Optional(deprecatedCompleted),
});

export const BulkArchiveBody = Type.Object({
  ticketIds: TicketIds,
  isArchived: Type.Optional(Type.Boolean({ description: "Default true." })),
});

export const BulkTransitionBody = Type.Object({
  ticketIds: TicketIds,
  laneName: Type.String(),
  isResolved: Type.Optional(Type.Boolean()),
  isCompleted: Type.Optional(deprecatedCompleted),
});

export const BulkMoveBody = Type.Object({ ticketIds: TicketIds, boardId: Id, laneId: Id });

export const ReorderBody = Type.Object({
  items: Type.Array(
    Type.Object({ ticketId: Id, laneId: Id, position: Type.Integer({ minimum: 0 }) }),
    { maxItems: 100_000 },
  ),
});
