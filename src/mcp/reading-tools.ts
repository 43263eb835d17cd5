import { Type } from "@sinclair/typebox";
import { primeText } from "../client/prime.js";
import { page } from "../client/ticket-rows.js";
import { waitingLines, waitingTickets } from "../client/waiting.js";
import { atLimitLine, lanesAtLimit } from "../client/wip-limits.js";
import {
  HistoryOutput,
  ReadyOutput,
  RowsOutput,
  TextOutput,
  TicketOutput,
} from "./output-schemas.js";
import { pagedSummary, rows, ticketForModel } from "./ticket-answers.js";
import {
  BoardId,
  boardOf,
  LaneId,
  Limit,
  Offset,
  ReadyFilters,
  TagName,
  TicketId,
} from "./tool-inputs.js";
import { defineTool, READ, type TackTool } from "./tool-kit.js";

// The tools that only read: the workflow and live state, the ready queue, search, one ticket
// and its history.

export const readingTools: TackTool[] = [
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
      ...ReadyFilters,
      limit: Limit,
      offset: Offset,
    }),
    output: ReadyOutput,
    annotations: READ,
    async run(args, context) {
      const boardId = await boardOf(context, args.boardId);
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
      laneId: LaneId,
      tag: TagName,
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
      const boardId = await boardOf(context, args.boardId);
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
];
