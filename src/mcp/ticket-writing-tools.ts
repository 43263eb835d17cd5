import { Type } from "@sinclair/typebox";
import type { TicketPatchInput } from "../client/api-types.js";
import { ApiError } from "../client/errors.js";
import {
  findLane,
  findTags,
  RELATIONS,
  setRelation,
  updateAtVersion,
} from "../client/ticket-operations.js";
import { EVENT_SOURCE_MAX, TITLE_MAX } from "../model/limits.js";
import {
  ChangedRowsOutput,
  CommentOutput,
  CreatedOutput,
  EventOutput,
  TicketOutput,
} from "./output-schemas.js";
import { rows, ticketForModel } from "./ticket-answers.js";
import {
  BoardId,
  boardOf,
  IdempotencyKey,
  LaneRef,
  NotBefore,
  Priority,
  TicketId,
} from "./tool-inputs.js";
import { defineTool, type TackTool, write } from "./tool-kit.js";

// The tools that write tickets: create, update at a version, change many at once, link, comment
// and log events.

export const ticketWritingTools: TackTool[] = [
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
      const boardId = await boardOf(context, args.boardId);
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
      const boardId = await boardOf(context, args.boardId);
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
      kind: Type.String({ minLength: 1, maxLength: EVENT_SOURCE_MAX }),
      title: Type.String({ minLength: 1, maxLength: TITLE_MAX }),
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
