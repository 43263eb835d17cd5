import { type TObject, type TSchema, Type } from "@sinclair/typebox";
import { PRIORITY_MAX, PRIORITY_MIN } from "../model/limits.js";

// The `outputSchema` of each tool: what its structuredContent holds, so a client can validate
// it. The fields a model acts on are declared and required; bigger records (a full ticket, a
// comment, an event) also allow the API's other fields, so an additive API change never makes a
// result invalid. test/mcp/mcp-output-schemas.test.ts checks every tool's results against these.

const Id = Type.Integer({ minimum: 1 });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Open = { additionalProperties: true };

const Claim = Type.Object(
  { actor: Type.String(), claimedAt: Type.String(), expiresAt: Type.String() },
  Open,
);

const Row = Type.Object({
  id: Id,
  title: Type.String(),
  lane: Type.String(),
  priority: Type.Integer({ minimum: PRIORITY_MIN, maximum: PRIORITY_MAX }),
  tags: Type.Array(Type.String()),
  resolved: Type.Boolean(),
  archived: Type.Boolean(),
  blockerIds: Type.Array(Id),
  parentId: Nullable(Id),
  claimedBy: Nullable(Type.String()),
  version: Nullable(Type.Integer()),
});

const Paging = {
  total: Type.Integer({ minimum: 0 }),
  offset: Type.Integer({ minimum: 0 }),
  hasMore: Type.Boolean(),
};

/** A full ticket as get_ticket shows it (no rendered HTML; remote reduced to its reference). */
export const TicketOutput = Type.Object(
  {
    id: Id,
    boardId: Id,
    laneId: Id,
    title: Type.String(),
    bodyMarkdown: Type.String(),
    priority: Type.Integer({ minimum: PRIORITY_MIN, maximum: PRIORITY_MAX }),
    isResolved: Type.Boolean(),
    isArchived: Type.Boolean(),
    claim: Type.Optional(Nullable(Claim)),
    version: Type.Optional(Type.Integer()),
    comments: Type.Array(
      Type.Object({ id: Id, bodyMarkdown: Type.String(), createdAt: Type.String() }, Open),
    ),
    remote: Nullable(
      Type.Object({
        displayRef: Type.String(),
        url: Type.String(),
        state: Nullable(Type.String({ description: "The provider's state, e.g. open or closed." })),
      }),
    ),
  },
  Open,
);

export const TextOutput = Type.Object({ text: Type.String() });

export const RowsOutput = Type.Object({ ...Paging, tickets: Type.Array(Row) });

export const ReadyOutput = Type.Object({
  ...Paging,
  tickets: Type.Array(Row),
  lanesAtLimit: Type.Array(
    Type.Object({
      laneId: Id,
      name: Type.String(),
      load: Type.Integer({ minimum: 0 }),
      wipLimit: Type.Integer({ minimum: 0 }),
    }),
    { description: "Lanes whose open tickets reached their WIP limit." },
  ),
  waitingOnAsks: Type.Array(
    Type.Object({ ticketId: Id, title: Type.String(), askIds: Type.Array(Id) }),
    { description: "Open tickets an open blocking ask keeps out of the queue." },
  ),
  waitingUntil: Type.Array(
    Type.Object({ ticketId: Id, title: Type.String(), notBefore: Type.String() }),
    { description: "Open tickets whose notBefore moment is still to come, soonest first." },
  ),
});

const Seconds = Nullable(Type.Integer({ minimum: 0 }));
const Percentiles = Type.Object({
  count: Type.Integer(),
  p50: Seconds,
  p85: Seconds,
  p95: Seconds,
});

/** board_insights: the API's answer (docs/insights.md). */
export const InsightsOutput = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    bucket: Type.String(),
    flow: Type.Array(
      Type.Object({
        at: Type.String(),
        lanes: Type.Array(Type.Object({ laneId: Id, count: Type.Integer({ minimum: 0 }) })),
      }),
    ),
    throughput: Type.Array(Type.Object({ at: Type.String(), resolved: Type.Integer() })),
    leadTime: Percentiles,
    cycleTime: Percentiles,
    completions: Type.Array(
      Type.Object({
        ticketId: Id,
        resolvedAt: Type.String(),
        leadSeconds: Type.Integer(),
        cycleSeconds: Nullable(Type.Integer()),
      }),
    ),
    aging: Type.Array(
      Type.Object({ ticketId: Id, laneId: Id, since: Type.String(), ageSeconds: Type.Integer() }),
    ),
    actors: Type.Array(
      Type.Object({ actor: Type.String(), claimed: Type.Integer(), resolved: Type.Integer() }),
    ),
  },
  Open,
);

export const ChangedRowsOutput = Type.Object({ tickets: Type.Array(Row) });

export const HistoryOutput = Type.Object({
  ...Paging,
  entries: Type.Array(
    Type.Object({
      at: Type.String(),
      type: Type.Union([Type.Literal("comment"), Type.Literal("activity"), Type.Literal("event")]),
      id: Id,
      text: Type.String(),
    }),
  ),
});

export const ClaimNextOutput = Type.Object({ ticket: Nullable(TicketOutput) });

export const RenewOutput = Type.Object({
  ticketId: Id,
  claim: Nullable(Claim),
  version: Nullable(Type.Integer()),
});

export const CreatedOutput = Type.Object({
  succeeded: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
  results: Type.Array(
    Type.Object({
      index: Type.Integer({ minimum: 0 }),
      ok: Type.Boolean(),
      id: Nullable(Id),
      error: Nullable(Type.String()),
    }),
  ),
});

export const CommentOutput = Type.Object(
  { id: Id, ticketId: Id, bodyMarkdown: Type.String(), createdAt: Type.String() },
  Open,
);

export const EventOutput = Type.Object(
  { id: Id, ticketId: Id, source: Type.String(), kind: Type.String(), title: Type.String() },
  Open,
);

/** An ask as ask_human and get_ask show it (no rendered HTML). */
export const AskOutput = Type.Object(
  {
    id: Id,
    ticketId: Id,
    boardId: Id,
    actor: Type.String(),
    question: Type.String(),
    options: Type.Array(Type.String()),
    blocking: Type.Boolean(),
    status: Type.Union([Type.Literal("open"), Type.Literal("answered"), Type.Literal("withdrawn")]),
    answer: Nullable(
      Type.Object(
        { text: Nullable(Type.String()), option: Nullable(Type.String()), by: Type.String() },
        Open,
      ),
    ),
    createdAt: Type.String(),
    answeredAt: Nullable(Type.String()),
  },
  Open,
);

export const CheckedOutput = Type.Object({
  ticketId: Id,
  index: Type.Integer({ minimum: 0 }),
  checked: Type.Boolean(),
  checklist: Type.Object({
    done: Type.Integer({ minimum: 0 }),
    total: Type.Integer({ minimum: 0 }),
  }),
  version: Nullable(Type.Integer()),
});

/** instantiate_template: the tickets made, or (called without a template) the board's templates. */
export const TemplateOutput = Type.Object({
  templateId: Type.Optional(Id),
  tickets: Type.Optional(
    Type.Array(Type.Object({ key: Type.String(), id: Id, title: Type.String() })),
  ),
  templates: Type.Optional(
    Type.Array(
      Type.Object({
        id: Id,
        name: Type.String(),
        description: Type.String(),
        variables: Type.Array(Type.String()),
        tickets: Type.Integer({ minimum: 0 }),
      }),
    ),
  ),
});

/**
 * The action tools (remote, board_admin) answer with the API's record for the action taken,
 * whose shape depends on the action: an object, described in the tool's description.
 */
export const ActionOutput = (description: string): TObject =>
  Type.Object({}, { ...Open, description });

/** A failed call's structuredContent: the error every tack tool answers with (tool-kit.ts). */
export const ErrorOutput = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    hint: Type.String(),
    retryable: Type.Boolean(),
  }),
});

/**
 * The listed outputSchema: the tool's result or its error. Clients on the v1 SDK check even an
 * error's structuredContent against the schema, so the error shape must be part of it.
 */
export function listedOutput(output: TObject): Record<string, unknown> {
  return JSON.parse(JSON.stringify({ type: "object", anyOf: [output, ErrorOutput] }));
}
