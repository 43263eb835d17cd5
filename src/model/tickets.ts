import { type Static, Type } from "@sinclair/typebox";
import { BoardRef, LaneRef, TagRef } from "./boards.js";
import { TicketClaim } from "./claims.js";
import { CommentRef } from "./comments.js";
import { Id, Nullable, Timestamp } from "./common.js";
import { PRIORITY_MAX, PRIORITY_MIN } from "./limits.js";
import { TicketExternalReferenceRef, TicketRemote, TicketRemoteSummary } from "./references.js";

// Tickets (docs/api.md, "Tickets"): the full Ticket, the TicketSummary of lists, and a board
// with its tickets. The route serializers write properties in the order declared here, and
// kept-answers/ticket-json.ts writes a Ticket by hand in the same order.

/**
 * An integer enum, so clients generated from the OpenAPI document type it `1 | 2 | 3 | 4`; a 5 is
 * refused as `priority must be one of 1, 2, 3, 4`. (tack's own code keeps `number`: the domain
 * computes and stores priorities as numbers.)
 */
export const Priority = Type.Unsafe<number>({
  type: "integer",
  enum: Array.from({ length: PRIORITY_MAX - PRIORITY_MIN + 1 }, (_, i) => PRIORITY_MIN + i),
  description: "1 = low, 2 = medium, 3 = high, 4 = urgent",
});

export const TicketRelation = Type.Object(
  {
    id: Id,
    title: Type.String(),
    laneId: Id,
    isResolved: Type.Boolean(),
    isCompleted: Type.Boolean({ description: "Deprecated alias of isResolved." }),
    priority: Priority,
    ref: Type.String(),
    shortRef: Type.String(),
  },
  { $id: "TicketRelation" },
);
export type TicketRelation = Static<typeof TicketRelation>;
const RelationRef = Type.Ref(TicketRelation);

export const TicketRelations = Type.Object(
  {
    parent: Type.Union([RelationRef, Type.Null()]),
    children: Type.Array(RelationRef),
    blockers: Type.Array(RelationRef),
    blockedBy: Type.Array(RelationRef),
    related: Type.Array(RelationRef),
  },
  { $id: "TicketRelations" },
);

/** Fields shared by Ticket and TicketSummary (a board export keeps some of them). */
export const ticketCoreFields = {
  id: Id,
  boardId: Id,
  laneId: Id,
  parentTicketId: Nullable(Id),
  hasChildren: Type.Boolean(),
  title: Type.String(),
  isResolved: Type.Boolean(),
  isCompleted: Type.Boolean({ description: "Deprecated alias of isResolved." }),
  isArchived: Type.Boolean(),
  priority: Priority,
  position: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  tags: Type.Array(TagRef),
  blockerIds: Type.Array(Id),
  relatedIds: Type.Array(Id),
  ref: Type.String(),
  shortRef: Type.String(),
  externalReferences: Type.Array(TicketExternalReferenceRef),
  version: Type.Integer({
    minimum: 1,
    description:
      "1 at creation; +1 per transaction that changes anything in the full Ticket (also " +
      "renumbering, relations seen from the other side, comments, references, claims).",
  }),
  claim: Type.Union([Type.Ref(TicketClaim), Type.Null()], {
    description: "The live claim; null when none or once its lease has expired.",
  }),
  notBefore: Nullable(
    Type.String({
      format: "date-time",
      description:
        "Not ready (nor picked by claim-next) before this moment; UTC with milliseconds, " +
        "null: none.",
    }),
  ),
  openAsks: Type.Integer({
    minimum: 0,
    description:
      "Its open asks of any kind; an open blocking ask keeps the ticket out of the ready queue.",
  }),
  checklist: Type.Object(
    { done: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 0 }) },
    { description: "The GFM task list items of its body: how many are checked, how many in all." },
  ),
};
const TicketCore = Type.Object(ticketCoreFields);
export type TicketCore = Static<typeof TicketCore>;

export const Ticket = Type.Object(
  {
    ...ticketCoreFields,
    bodyMarkdown: Type.String(),
    bodyHtml: Type.String(),
    comments: Type.Array(CommentRef),
    blockers: Type.Array(RelationRef),
    blockedBy: Type.Array(RelationRef),
    related: Type.Array(RelationRef),
    parent: Type.Union([RelationRef, Type.Null()]),
    children: Type.Array(RelationRef),
    remote: Type.Union([Type.Ref(TicketRemote), Type.Null()]),
  },
  { $id: "Ticket" },
);
export type Ticket = Static<typeof Ticket>;
export const TicketRef = Type.Ref(Ticket);

export const TicketSummary = Type.Object(
  { ...ticketCoreFields, remote: Type.Union([Type.Ref(TicketRemoteSummary), Type.Null()]) },
  { $id: "TicketSummary" },
);
export type TicketSummary = Static<typeof TicketSummary>;
export const TicketSummaryRef = Type.Ref(TicketSummary);

export const BoardDetail = Type.Object(
  {
    board: BoardRef,
    lanes: Type.Array(LaneRef),
    tags: Type.Array(TagRef),
    tickets: Type.Array(TicketRef),
  },
  { $id: "BoardDetail" },
);
export type BoardDetail = Static<typeof BoardDetail>;
export const BoardDetailRef = Type.Ref(BoardDetail);
