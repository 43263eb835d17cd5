import { Type } from "@sinclair/typebox";
import type { TicketMoveService } from "../../domain/tickets/ticket-moves.js";
import type { TicketPositionService } from "../../domain/tickets/ticket-positions.js";
import type { TicketService } from "../../domain/tickets/tickets.js";
import { IfMatchHeaders, IfNoneMatchHeaders, NOT_MODIFIED } from "../conditional-requests.js";
import { createRoute, ticketChangeRoute } from "../route-shapes.js";
import { answer, BoardIdParams, errors, TicketIdParams } from "../schemas/common.js";
import {
  ChecklistItemBody,
  MoveBody,
  PositionBody,
  TicketCreateBody,
  TicketListQuery,
  TicketPatchBody,
  TransitionBody,
} from "../schemas/ticket-requests.js";
import { TicketRef, TicketRelations, TicketSummaryRef } from "../schemas/tickets.js";
import type { TicketAnswers } from "../ticket-answers.js";
import type { TackApp } from "../types.js";

export function ticketRoutes(
  app: TackApp,
  services: {
    tickets: TicketService;
    ticketPositions: TicketPositionService;
    ticketMoves: TicketMoveService;
  },
  answers: TicketAnswers,
): void {
  const { tickets, ticketPositions, ticketMoves } = services;
  // The single-ticket handlers are synchronous: `answers` sends (see sendJson in
  // http/answer-bytes.ts).

  app.get(
    "/api/boards/:boardId/tickets",
    {
      schema: {
        operationId: "listTickets",
        summary: "List a board's tickets",
        tags: ["tickets"],
        description:
          "Ticket summaries in board order (lane, active before archived, position, id). " +
          "Filters combine by AND; archived tickets are hidden unless archived=true|all.",
        params: BoardIdParams,
        querystring: TicketListQuery,
        headers: IfNoneMatchHeaders,
        response: {
          200: answer(
            Type.Object({ tickets: Type.Array(TicketSummaryRef) }),
            "The matching ticket summaries, in board order.",
          ),
          ...NOT_MODIFIED,
          ...errors(400, 404),
        },
      },
    },
    async (request, reply) => answers.list(request, reply, request.params.boardId, request.query),
  );

  createRoute(
    app,
    "/api/boards/:boardId/tickets",
    {
      operationId: "createTicket",
      summary: "Create a ticket",
      tags: ["tickets"],
      description:
        "Defaults: empty body, priority 2, not resolved, not archived; appended to its lane.",
      params: BoardIdParams,
      body: TicketCreateBody,
      item: TicketRef,
      created: "The new ticket.",
      idempotent: true,
    },
    ({ boardId }, body) => tickets.create(boardId, body),
  );

  app.get(
    "/api/tickets/:ticketId",
    {
      schema: {
        operationId: "getTicket",
        summary: "Get a ticket",
        tags: ["tickets"],
        description: "Answers a strong ETag: the ticket's version (and whether its claim expired).",
        params: TicketIdParams,
        headers: IfNoneMatchHeaders,
        response: {
          200: answer(
            TicketRef,
            "The ticket in full: body, relations, comments, claim and version.",
          ),
          ...NOT_MODIFIED,
          ...errors(400, 404),
        },
      },
    },
    (request, reply) => answers.ticket(request, reply, request.params.ticketId),
  );

  ticketChangeRoute(
    app,
    answers,
    "PATCH",
    "/api/tickets/:ticketId",
    {
      operationId: "updateTicket",
      summary: "Change a ticket",
      tags: ["tickets"],
      description: "Send only changes; each field is independent. null or [] clears a relation.",
      body: TicketPatchBody,
      changed: "The ticket as changed.",
    },
    (ticketId, body) => tickets.update(ticketId, body),
  );

  ticketChangeRoute(
    app,
    answers,
    "PATCH",
    "/api/tickets/:ticketId/checklist",
    {
      operationId: "checkChecklistItem",
      summary: "Set a checklist item's box",
      tags: ["tickets"],
      description:
        "Checks or unchecks task list item `index` (0-based, document order) of the body, " +
        "changing no other character; a body edit. Setting a box to the state it has writes " +
        "nothing. An index outside the checklist → 400.",
      body: ChecklistItemBody,
      changed: "The ticket with the item's box set.",
    },
    (ticketId, body) => tickets.checkItem(ticketId, body),
  );

  app.delete(
    "/api/tickets/:ticketId",
    {
      schema: {
        operationId: "deleteTicket",
        summary: "Delete a ticket",
        description: "Its comments, events and links go with it; its children lose their parent.",
        tags: ["tickets"],
        params: TicketIdParams,
        headers: IfMatchHeaders,
        response: { 204: answer(Type.Null(), "The ticket is deleted."), ...errors(400, 404, 412) },
      },
    },
    (request, reply) => {
      const { ticketId } = request.params;
      answers.ifMatching(request, ticketId, () => tickets.remove(ticketId));
      reply.code(204).send(null);
    },
  );

  ticketChangeRoute(
    app,
    answers,
    "PATCH",
    "/api/tickets/:ticketId/transition",
    {
      operationId: "transitionTicket",
      summary: "Move a ticket to a lane by name",
      tags: ["tickets"],
      description: "laneName is trimmed and matched exactly; isResolved changes only when sent.",
      body: TransitionBody,
      changed: "The ticket as moved.",
    },
    (ticketId, body) => tickets.transition(ticketId, body),
  );

  ticketChangeRoute(
    app,
    answers,
    "PATCH",
    "/api/tickets/:ticketId/position",
    {
      operationId: "positionTicket",
      summary: "Place a ticket within its lane or another",
      tags: ["tickets"],
      description:
        "beforeTicketId wins, then afterTicketId, then position (clamped), else the lane's end.",
      body: PositionBody,
      changed: "The ticket at its new place.",
    },
    (ticketId, body) => ticketPositions.reposition(ticketId, body),
  );

  ticketChangeRoute(
    app,
    answers,
    "POST",
    "/api/tickets/:ticketId/move",
    {
      operationId: "moveTicket",
      summary: "Move a ticket to another board",
      tags: ["tickets"],
      description: "Moves to a lane of another board: links are removed, tags remapped by name.",
      body: MoveBody,
      changed: "The ticket on its new board.",
    },
    (ticketId, body) => ticketMoves.move(ticketId, body),
  );

  app.get(
    "/api/tickets/:ticketId/relations",
    {
      schema: {
        operationId: "getTicketRelations",
        summary: "Get a ticket's relations",
        description: "Each relation names the other ticket by id, ref and title.",
        tags: ["tickets"],
        params: TicketIdParams,
        response: {
          200: answer(
            Type.Ref(TicketRelations),
            "The ticket's parent, children, blockers, blocked tickets and related tickets.",
          ),
          ...errors(400, 404),
        },
      },
    },
    async (request) => tickets.relations(request.params.ticketId),
  );
}
