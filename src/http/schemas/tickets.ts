import { Type } from "@sinclair/typebox";
import { Id, Nullable, Timestamp } from "./common.js";

// Resource shapes of docs/api.md's ticket family. Tag is repeated by reference name to avoid an
// import cycle with boards.ts.
const TagByName = Type.Unsafe<{ id: number; boardId: number; name: string; color: string }>(
  Type.Ref("Tag"),
);

// TicketClaim is named by reference (it lives in coordination.ts, which imports Priority here).
const ClaimByName = Type.Unsafe<{ actor: string; claimedAt: string; expiresAt: string }>(
  Type.Ref("TicketClaim"),
);

/**
 * An integer enum, so clients generated from the OpenAPI document type it `1 | 2 | 3 | 4`; a 5 is
 * refused as `priority must be one of 1, 2, 3, 4`. (tack's own code keeps `number`: the domain
 * computes and stores priorities as numbers.)
 */
export const Priority = Type.Unsafe<number>({
  type: "integer",
  enum: [1, 2, 3, 4],
  description: "1 = low, 2 = medium, 3 = high, 4 = urgent",
});

export const CommentSyncStatus = Type.Union(
  [
    Type.Literal("local_only"),
    Type.Literal("pushing"),
    Type.Literal("pushed"),
    Type.Literal("push_failed"),
  ],
  { $id: "CommentSyncStatus" },
);

export const CommentSync = Type.Object(
  {
    commentId: Id,
    status: Type.Ref(CommentSyncStatus),
    remoteCommentId: Nullable(Type.String()),
    pushedAt: Nullable(Timestamp),
    lastError: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: "CommentSync" },
);

export const Comment = Type.Object(
  {
    id: Id,
    ticketId: Id,
    bodyMarkdown: Type.String(),
    bodyHtml: Type.String(),
    createdAt: Timestamp,
    sync: Type.Ref(CommentSync),
  },
  { $id: "Comment" },
);
export const CommentRef = Type.Ref(Comment);

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

export const TicketRemote = Type.Object(
  {
    ticketId: Id,
    provider: Type.String(),
    instanceUrl: Type.String(),
    resourceType: Type.String(),
    projectKey: Type.String(),
    issueKey: Type.String(),
    displayRef: Type.String(),
    url: Type.String(),
    title: Type.String(),
    bodyMarkdown: Type.String(),
    bodyHtml: Type.String(),
    state: Nullable(Type.String()),
    remoteUpdatedAt: Nullable(Timestamp),
    lastSyncedAt: Timestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: "TicketRemote" },
);

export const TicketRemoteSummary = Type.Object(
  { provider: Type.String(), displayRef: Type.String(), url: Type.String() },
  { $id: "TicketRemoteSummary" },
);

export const TicketExternalReference = Type.Object(
  {
    id: Id,
    ticketId: Id,
    kind: Type.String(),
    provider: Type.String(),
    instanceUrl: Type.String(),
    resourceType: Type.String(),
    projectKey: Type.String(),
    issueKey: Type.String(),
    displayRef: Type.String(),
    url: Type.String(),
    title: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: "TicketExternalReference" },
);

/** Fields shared by Ticket and TicketSummary. */
const ticketCore = {
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
  tags: Type.Array(TagByName),
  blockerIds: Type.Array(Id),
  relatedIds: Type.Array(Id),
  ref: Type.String(),
  shortRef: Type.String(),
  externalReferences: Type.Array(Type.Ref(TicketExternalReference)),
  version: Type.Integer({
    minimum: 1,
    description:
      "1 at creation; +1 per transaction that changes anything in the full Ticket (also " +
      "renumbering, relations seen from the other side, comments, references, claims).",
  }),
  claim: Type.Union([ClaimByName, Type.Null()], {
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

export const Ticket = Type.Object(
  {
    ...ticketCore,
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
export const TicketRef = Type.Ref(Ticket);

export const TicketSummary = Type.Object(
  { ...ticketCore, remote: Type.Union([Type.Ref(TicketRemoteSummary), Type.Null()]) },
  { $id: "TicketSummary" },
);
export const TicketSummaryRef = Type.Ref(TicketSummary);
