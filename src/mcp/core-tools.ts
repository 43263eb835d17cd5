import { Type } from "@sinclair/typebox";
import type { LaneT, Ticket, TicketPatchInput, TicketSummary } from "../client/api-types.js";
import { chooseBoard } from "../client/board-choice.js";
import { ApiError } from "../client/errors.js";
import { primeText } from "../client/prime.js";
import type { TackClient } from "../client/tack-client.js";
import {
  findLane,
  findTags,
  finishClaim,
  RELATIONS,
  setRelation,
  updateAtVersion,
} from "../client/ticket-operations.js";
import { laneMap, page, ticketRow } from "../client/ticket-rows.js";
import { waitingLines, waitingTickets } from "../client/waiting.js";
import { atLimitLine, lanesAtLimit } from "../client/wip-limits.js";
import {
  ChangedRowsOutput,
  ClaimNextOutput,
  CommentOutput,
  CreatedOutput,
  EventOutput,
  HistoryOutput,
  ReadyOutput,
  RenewOutput,
  RowsOutput,
  TextOutput,
  TicketOutput,
} from "./output-schemas.js";
import { defineTool, READ, type TackTool, type ToolContext, write } from "./tool-kit.js";

// The core tools, in the order tools/list shows them (stable: clients cache the listing).

const TicketId = Type.Integer({ minimum: 1, description: "Ticket id." });
const BoardId = Type.Optional(
  Type.Integer({ minimum: 1, description: "Board id; optional when there is one board." }),
);
const Limit = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 100, description: "Page size, default 20." }),
);
const Offset = Type.Optional(Type.Integer({ minimum: 0, description: "Rows to skip, default 0." }));
const LeaseSeconds = Type.Optional(
  Type.Integer({
    minimum: 10,
    maximum: 86400,
    description: "Lease length in seconds, default 900.",
  }),
);
const IdempotencyKey = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 190,
    description: "Retry-safe key: a repeat with it writes nothing new.",
  }),
);
const Priority = Type.Integer({
  minimum: 1,
  maximum: 4,
  description: "1 low, 2 medium, 3 high, 4 urgent.",
});
const NotBefore = Type.String({
  description: "RFC 3339 date-time; not ready before it (null clears).",
});
const LaneRef = Type.Union([Type.Integer({ minimum: 1 }), Type.String({ minLength: 1 })], {
  description: "Lane id or exact lane name.",
});

const board = (context: ToolContext, given?: number) =>
  chooseBoard(context.client, given ?? context.boardId);

/** Full ticket for a model: without the rendered HTML, which repeats the Markdown. */
function ticketForModel(ticket: Ticket): Record<string, unknown> {
  const { bodyHtml: _html, comments, remote, ...rest } = ticket;
  return {
    ...rest,
    comments: comments.map(({ bodyHtml: _commentHtml, ...comment }) => comment),
    remote: remote ? { displayRef: remote.displayRef, url: remote.url, state: remote.state } : null,
  };
}

async function rows(
  client: TackClient,
  boardId: number,
  tickets: TicketSummary[],
  limit = 20,
  offset = 0,
  knownLanes?: LaneT[],
) {
  const lanes = laneMap(knownLanes ?? (await client.listLanes(boardId)));
  const { items, ...paging } = page(tickets, offset, limit);
  return { ...paging, tickets: items.map((ticket) => ticketRow(ticket, lanes)) };
}

function pagedSummary(
  what: string,
  result: { total: number; offset: number; hasMore: boolean; tickets: unknown[] },
) {
  const shown = result.tickets.length;
  return `${result.total} ${what}; showing ${shown} from offset ${result.offset}${result.hasMore ? " (more: raise offset)" : ""}`;
}

export const coreTools: TackTool[] = [
  defineTool({
    name: "prime",
    title: "Workflow and live state",
    description:
      "How to work a tack board, plus live state: boards, lanes, tags, your claims, top ready tickets. Call at the start of a session or after losing context. Returns text.",
    input: Type.Object({ boardId: BoardId }),
    output: TextOutput,
    annotations: READ,
    async run(args, context) {
      const text = await primeText(context.client, { boardId: args.boardId ?? context.boardId });
      return { summary: text, data: { text }, summaryOnly: true };
    },
  }),
  defineTool({
    name: "ready",
    title: "Ready tickets",
    description:
      "Tickets you may start now: unresolved, unarchived, no open blockers, no open children, unclaimed; highest priority first. Use to pick work (claim_next takes the first). Returns compact rows with total and hasMore; lanesAtLimit (avoid starting more there); waitingOnAsks, waitingUntil: tickets held by a blocking ask or a future notBefore.",
    input: Type.Object({
      boardId: BoardId,
      laneId: Type.Optional(Type.Integer({ minimum: 1 })),
      tag: Type.Optional(Type.String({ description: "Tag name." })),
      priority: Type.Optional(Priority),
      limit: Limit,
      offset: Offset,
    }),
    output: ReadyOutput,
    annotations: READ,
    async run(args, context) {
      const boardId = await board(context, args.boardId);
      const { client } = context;
      // The whole board too: the load of lanes with a WIP limit, and what open tickets wait for.
      const [ready, lanes, all] = await Promise.all([
        client.listTickets(boardId, { ready: true, lane_id: args.laneId, tag: args.tag }),
        client.listLanes(boardId),
        client.listTickets(boardId),
      ]);
      const waiting = await waitingTickets(client, boardId, all);
      let tickets = ready;
      if (args.priority !== undefined)
        tickets = tickets.filter((ticket) => ticket.priority === args.priority);
      const result = await rows(client, boardId, tickets, args.limit, args.offset, lanes);
      const full = lanesAtLimit(lanes, all);
      const summary = [
        pagedSummary("ready tickets", result),
        atLimitLine(full),
        ...waitingLines(waiting),
      ].filter(Boolean);
      return {
        summary: summary.join("\n"),
        data: {
          ...result,
          lanesAtLimit: full,
          waitingOnAsks: waiting.onAsks,
          waitingUntil: waiting.until,
        },
      };
    },
  }),
  defineTool({
    name: "search_tickets",
    title: "Search tickets",
    description:
      "Find tickets by text (title, body, refs), '#<id>' or '<provider>#<key>', and filters. Archived tickets are hidden unless archived is 'true' or 'all'. Returns compact rows (board order) with total and hasMore; get_ticket gives one in full.",
    input: Type.Object({
      boardId: BoardId,
      query: Type.Optional(Type.String({ description: "Search text; empty for all." })),
      laneId: Type.Optional(Type.Integer({ minimum: 1 })),
      tag: Type.Optional(Type.String({ description: "Tag name." })),
      resolved: Type.Optional(Type.Boolean()),
      archived: Type.Optional(
        Type.Union([Type.Literal("false"), Type.Literal("true"), Type.Literal("all")]),
      ),
      limit: Limit,
      offset: Offset,
    }),
    output: RowsOutput,
    annotations: READ,
    async run(args, context) {
      const boardId = await board(context, args.boardId);
      const tickets = await context.client.listTickets(boardId, {
        q: args.query,
        lane_id: args.laneId,
        tag: args.tag,
        resolved: args.resolved,
        archived: args.archived,
      });
      const result = await rows(context.client, boardId, tickets, args.limit, args.offset);
      return { summary: pagedSummary("matching tickets", result), data: result };
    },
  }),
  defineTool({
    name: "get_ticket",
    title: "Get a ticket",
    description:
      "One ticket in full: Markdown body, lane, priority, tags, relations (parent, children, blockers, blockedBy, related), comments, claim and version (pass it to update_ticket). Returns the ticket.",
    input: Type.Object({ ticketId: TicketId }),
    output: TicketOutput,
    annotations: READ,
    async run(args, context) {
      const ticket = await context.client.getTicket(args.ticketId);
      return {
        summary: `#${ticket.id} ${ticket.title} (version ${ticket.version ?? "?"})`,
        data: ticketForModel(ticket),
      };
    },
  }),
  defineTool({
    name: "ticket_history",
    title: "Ticket history",
    description:
      "What happened to a ticket, newest first: comments, activity (moves, edits, claims) and logged events, merged. Use before resuming someone's work. Returns entries with total and hasMore.",
    input: Type.Object({ ticketId: TicketId, limit: Limit, offset: Offset }),
    output: HistoryOutput,
    annotations: READ,
    async run(args, context) {
      const { client } = context;
      const [comments, activity, events] = await Promise.all([
        client.listComments(args.ticketId),
        client.listActivity(args.ticketId),
        client.listEvents(args.ticketId),
      ]);
      const entries = [
        ...comments.map((one) => ({
          at: one.createdAt,
          type: "comment",
          id: one.id,
          text: one.bodyMarkdown,
        })),
        ...activity.map((one) => ({
          at: one.createdAt,
          type: "activity",
          id: one.id,
          text: `${one.action}: ${one.message}`,
        })),
        ...events.map((one) => ({
          at: one.createdAt,
          type: "event",
          id: one.id,
          text: `${one.source}/${one.kind}: ${one.title}${one.summary ? ` — ${one.summary}` : ""}`,
        })),
      ].sort((a, b) => (a.at === b.at ? b.id - a.id : a.at < b.at ? 1 : -1));
      const { items, ...paging } = page(entries, args.offset ?? 0, args.limit ?? 20);
      return {
        summary: `${paging.total} history entries for #${args.ticketId}${paging.hasMore ? " (more: raise offset)" : ""}`,
        data: { ...paging, entries: items },
      };
    },
  }),
  defineTool({
    name: "claim_next",
    title: "Claim the next ready ticket",
    description:
      "Atomically claims the first ready ticket (optionally of a lane, tag or priority) for you, with a lease. Use to start work; no two agents get the same ticket. Returns the claimed ticket, or ticket null when nothing is ready.",
    input: Type.Object({
      boardId: BoardId,
      laneId: Type.Optional(Type.Integer({ minimum: 1 })),
      tag: Type.Optional(Type.String({ description: "Tag name." })),
      priority: Type.Optional(Priority),
      leaseSeconds: LeaseSeconds,
    }),
    output: ClaimNextOutput,
    annotations: write(false),
    async run(args, context) {
      const boardId = await board(context, args.boardId);
      const ticket = await context.client.claimNext(boardId, {
        laneId: args.laneId,
        tag: args.tag,
        priority: args.priority,
        leaseSeconds: args.leaseSeconds,
      });
      if (!ticket) return { summary: "Nothing is ready.", data: { ticket: null } };
      return {
        summary: `Claimed #${ticket.id} ${ticket.title} until ${ticket.claim?.expiresAt}`,
        data: { ticket: ticketForModel(ticket) },
      };
    },
  }),
  defineTool({
    name: "claim",
    title: "Claim a ticket",
    description:
      "Claims a given ticket for you with a lease; claiming your own claim again renews it. Fails with the holder's name if someone else holds it. Returns the ticket.",
    input: Type.Object({ ticketId: TicketId, leaseSeconds: LeaseSeconds }),
    output: TicketOutput,
    annotations: write(true),
    async run(args, context) {
      const ticket = await context.client.claim(args.ticketId, { leaseSeconds: args.leaseSeconds });
      return {
        summary: `Claimed #${ticket.id} until ${ticket.claim?.expiresAt}`,
        data: ticketForModel(ticket),
      };
    },
  }),
  defineTool({
    name: "renew_claim",
    title: "Renew a claim",
    description:
      "Extends your lease on a ticket (a heartbeat during long work); an optional note is logged as a progress event. Fails if someone else holds it. Returns the claim.",
    input: Type.Object({
      ticketId: TicketId,
      leaseSeconds: LeaseSeconds,
      note: Type.Optional(Type.String({ description: "Progress note." })),
    }),
    output: RenewOutput,
    annotations: write(true),
    async run(args, context) {
      const { client } = context;
      const ticket = await client.claim(args.ticketId, { leaseSeconds: args.leaseSeconds });
      if (args.note?.trim()) {
        await client.logEvent(args.ticketId, {
          source: client.actor,
          kind: "progress",
          title: args.note.trim().slice(0, 500),
        });
      }
      return {
        summary: `#${ticket.id} claimed until ${ticket.claim?.expiresAt}`,
        data: { ticketId: ticket.id, claim: ticket.claim ?? null, version: ticket.version ?? null },
      };
    },
  }),
  defineTool({
    name: "release",
    title: "Release a claim",
    description:
      "Ends your claim. outcome done resolves the ticket; blocked (note = reason) and handoff (note = what is left) leave it open and add the note as a comment. Returns the ticket.",
    input: Type.Object({
      ticketId: TicketId,
      outcome: Type.Optional(
        Type.Union([Type.Literal("done"), Type.Literal("blocked"), Type.Literal("handoff")], {
          description: "Default: plain release.",
        }),
      ),
      note: Type.Optional(Type.String()),
    }),
    output: TicketOutput,
    annotations: write(true),
    async run(args, context) {
      const ticket = args.outcome
        ? await finishClaim(context.client, args.ticketId, args.outcome, args.note)
        : await context.client.release(args.ticketId);
      return {
        summary: `Released #${ticket.id}${ticket.isResolved ? " (resolved)" : ""}`,
        data: ticketForModel(ticket),
      };
    },
  }),
  defineTool({
    name: "create_tickets",
    title: "Create tickets",
    description:
      "Creates 1-50 tickets, each with optional body, lane, priority, tags, parent, blockers (ids of existing tickets) and notBefore. Each item succeeds or fails alone. Returns results [{index, ok, id, error}].",
    input: Type.Object({
      boardId: BoardId,
      tickets: Type.Array(
        Type.Object({
          title: Type.String({ minLength: 1 }),
          body: Type.Optional(Type.String({ description: "Markdown." })),
          lane: Type.Optional(LaneRef),
          priority: Type.Optional(Priority),
          tags: Type.Optional(Type.Array(Type.String(), { description: "Tag names." })),
          parentId: Type.Optional(Type.Integer({ minimum: 1 })),
          blockerIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }))),
          notBefore: Type.Optional(NotBefore),
        }),
        { minItems: 1, maxItems: 50 },
      ),
      idempotencyKey: IdempotencyKey,
    }),
    output: CreatedOutput,
    annotations: write(false),
    async run(args, context) {
      const { client } = context;
      const boardId = await board(context, args.boardId);
      const shell = await client.getBoard(boardId);
      const results = [];
      for (const [index, item] of args.tickets.entries()) {
        try {
          const lane = item.lane === undefined ? shell.lanes[0] : findLane(shell.lanes, item.lane);
          if (!lane)
            throw new ApiError(
              "invalid_request",
              "the board has no lanes",
              "create a lane first",
              false,
              400,
            );
          const created = await client.createTicket(
            boardId,
            {
              laneId: lane.id,
              title: item.title,
              ...(item.body === undefined ? {} : { bodyMarkdown: item.body }),
              ...(item.priority === undefined ? {} : { priority: item.priority }),
              ...(item.tags === undefined ? {} : { tagIds: findTags(shell.tags, item.tags) }),
              ...(item.parentId === undefined ? {} : { parentTicketId: item.parentId }),
              ...(item.blockerIds === undefined ? {} : { blockerIds: item.blockerIds }),
              ...(item.notBefore === undefined ? {} : { notBefore: item.notBefore }),
            },
            args.idempotencyKey === undefined ? undefined : `${args.idempotencyKey}:${index}`,
          );
          results.push({ index, ok: true, id: created.id, error: null });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          results.push({
            index,
            ok: false,
            id: null,
            error: `${error.message}. Fix: ${error.hint}`,
          });
        }
      }
      const failed = results.filter((result) => !result.ok).length;
      if (failed === results.length) {
        throw new ApiError(
          "invalid_request",
          `no ticket was created: ${results.map((result) => `[${result.index}] ${result.error}`).join("; ")}`,
          "fix the items and call again",
          false,
          400,
        );
      }
      return {
        summary: `Created ${results.length - failed} of ${results.length} tickets${failed ? `; ${failed} failed` : ""}`,
        data: { succeeded: results.length - failed, failed, results },
      };
    },
  }),
  defineTool({
    name: "update_ticket",
    title: "Update a ticket",
    description:
      "Changes a ticket's title, body, priority, lane, tags (replaces them), resolved, archived or notBefore. Pass expectedVersion (from get_ticket): if the ticket changed since, nothing is written and you get a version conflict. Returns the ticket.",
    input: Type.Object({
      ticketId: TicketId,
      expectedVersion: Type.Optional(Type.Integer({ minimum: 1 })),
      title: Type.Optional(Type.String({ minLength: 1 })),
      body: Type.Optional(Type.String({ description: "Markdown; replaces the body." })),
      priority: Type.Optional(Priority),
      lane: Type.Optional(LaneRef),
      tags: Type.Optional(
        Type.Array(Type.String(), { description: "Tag names; replaces the tags." }),
      ),
      resolved: Type.Optional(Type.Boolean()),
      archived: Type.Optional(Type.Boolean()),
      notBefore: Type.Optional(Type.Union([NotBefore, Type.Null()])),
    }),
    output: TicketOutput,
    annotations: write(true, true),
    async run(args, context) {
      const { client } = context;
      const patch: TicketPatchInput = {};
      if (args.title !== undefined) patch.title = args.title;
      if (args.body !== undefined) patch.bodyMarkdown = args.body;
      if (args.priority !== undefined) patch.priority = args.priority;
      if (args.resolved !== undefined) patch.isResolved = args.resolved;
      if (args.archived !== undefined) patch.isArchived = args.archived;
      if (args.notBefore !== undefined) patch.notBefore = args.notBefore;
      if (args.lane !== undefined || args.tags !== undefined) {
        const current = await client.getTicket(args.ticketId);
        const shell = await client.getBoard(current.boardId);
        if (args.lane !== undefined) patch.laneId = findLane(shell.lanes, args.lane).id;
        if (args.tags !== undefined) patch.tagIds = findTags(shell.tags, args.tags);
      }
      if (Object.keys(patch).length === 0) {
        throw new ApiError(
          "invalid_request",
          "nothing to change",
          "pass at least one field to set",
          false,
          400,
        );
      }
      const ticket = await updateAtVersion(client, args.ticketId, patch, args.expectedVersion);
      return {
        summary: `Updated #${ticket.id} (now version ${ticket.version ?? "?"})`,
        data: ticketForModel(ticket),
      };
    },
  }),
  defineTool({
    name: "bulk_update",
    title: "Update many tickets",
    description:
      "Resolves, reopens, archives, restores or moves (to laneName) many tickets of one board in one all-or-nothing step. Returns the changed tickets as compact rows.",
    input: Type.Object({
      boardId: BoardId,
      ticketIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 }),
      action: Type.Union([
        Type.Literal("resolve"),
        Type.Literal("reopen"),
        Type.Literal("archive"),
        Type.Literal("restore"),
        Type.Literal("move"),
      ]),
      laneName: Type.Optional(Type.String({ description: "Target lane for move." })),
    }),
    output: ChangedRowsOutput,
    annotations: write(true, true),
    async run(args, context) {
      const boardId = await board(context, args.boardId);
      if (args.action === "move" && !args.laneName) {
        throw new ApiError(
          "invalid_request",
          "laneName is required for move",
          "pass the target lane's name",
          false,
          400,
        );
      }
      const action =
        args.action === "resolve" || args.action === "reopen"
          ? ({ kind: "complete", isResolved: args.action === "resolve" } as const)
          : args.action === "archive" || args.action === "restore"
            ? ({ kind: "archive", isArchived: args.action === "archive" } as const)
            : ({ kind: "transition", laneName: args.laneName as string } as const);
      const tickets = await context.client.bulk(boardId, args.ticketIds, action);
      const result = await rows(context.client, boardId, tickets, 1000, 0);
      return {
        summary: `${args.action}: ${tickets.length} tickets`,
        data: { tickets: result.tickets },
      };
    },
  }),
  defineTool({
    name: "link_tickets",
    title: "Link tickets",
    description:
      "Adds (or with remove, removes) a relation from ticketId to otherId: parent (otherId becomes the parent), blocks (ticketId blocks otherId), blocked_by, related. Cycles and self-links are refused. Returns ticketId's ticket.",
    input: Type.Object({
      ticketId: TicketId,
      relation: Type.Union(RELATIONS.map((name) => Type.Literal(name))),
      otherId: Type.Integer({ minimum: 1 }),
      remove: Type.Optional(Type.Boolean()),
    }),
    output: TicketOutput,
    annotations: write(true, true),
    async run(args, context) {
      const ticket = await setRelation(
        context.client,
        args.ticketId,
        args.relation,
        args.otherId,
        args.remove === true,
      );
      return {
        summary: `#${args.ticketId} ${args.remove ? "unlinked from" : "linked to"} #${args.otherId} (${args.relation})`,
        data: ticketForModel(ticket),
      };
    },
  }),
  defineTool({
    name: "comment",
    title: "Comment on a ticket",
    description:
      "Adds a Markdown comment to a ticket: decisions, findings, notes for the next person. Returns the comment.",
    input: Type.Object({
      ticketId: TicketId,
      body: Type.String({ minLength: 1 }),
      idempotencyKey: IdempotencyKey,
    }),
    output: CommentOutput,
    annotations: write(false),
    async run(args, context) {
      const comment = await context.client.addComment(
        args.ticketId,
        args.body,
        args.idempotencyKey,
      );
      const { bodyHtml: _html, ...rest } = comment;
      return { summary: `Comment ${comment.id} added to #${args.ticketId}`, data: rest };
    },
  }),
  defineTool({
    name: "log_event",
    title: "Log a ticket event",
    description:
      "Appends a structured event to a ticket's trail (kind e.g. progress, decision, test_result, blocked; data any JSON object), so your work is queryable. Returns the event.",
    input: Type.Object({
      ticketId: TicketId,
      kind: Type.String({ minLength: 1, maxLength: 100 }),
      title: Type.String({ minLength: 1, maxLength: 500 }),
      summary: Type.Optional(Type.String()),
      severity: Type.Optional(Type.String({ description: "e.g. info, warning, error." })),
      data: Type.Optional(Type.Object({}, { additionalProperties: true })),
      idempotencyKey: IdempotencyKey,
    }),
    output: EventOutput,
    annotations: write(false),
    async run(args, context) {
      const { client } = context;
      const { ticketId, idempotencyKey, ...event } = args;
      const logged = await client.logEvent(
        ticketId,
        { source: client.actor, ...event },
        idempotencyKey,
      );
      return { summary: `Event ${logged.id} logged on #${ticketId}`, data: logged };
    },
  }),
];
