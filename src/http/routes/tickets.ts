import { Type } from "@sinclair/typebox";
import type { TicketMoveService } from "../../domain/tickets/ticket-moves.js";
import type { TicketPositionService } from "../../domain/tickets/ticket-positions.js";
import type { TicketService } from "../../domain/tickets/tickets.js";
import { IfMatchHeaders, IfNoneMatchHeaders, NOT_MODIFIED } from "../conditional-requests.js";
import { IdempotencyKeyHeaders } from "../idempotency-keys.js";
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

  app.post(
    "/api/boards/:boardId/tickets",
    {
      schema: {
        operationId: "createTicket",
        summary: "Create a ticket",
        tags: ["tickets"],
        description:
          "Defaults: empty body, priority 2, not resolved, not archived; appended to its lane.",
        params: BoardIdParams,
        body: TicketCreateBody,
        headers: IdempotencyKeyHeaders,
        response: { 201: answer(TicketRef, "The new ticket."), ...errors(400, 404, 422) },
      },
      config: { idempotent: true },
    },
    async (request, reply) =>
      reply.code(201).send(tickets.create(request.params.boardId, request.body)),
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

  app.patch(
    "/api/tickets/:ticketId",
    {
      schema: {
        operationId: "updateTicket",
        summary: "Change a ticket",
        tags: ["tickets"],
        description: "Send only changes; each field is independent. null or [] clears a relation.",
        params: TicketIdParams,
        body: TicketPatchBody,
        headers: IfMatchHeaders,
        response: { 200: answer(TicketRef, "The ticket as changed."), ...errors(400, 404, 412) },
      },
    },
    (request, reply) => {
      const { ticketId } = request.params;
      answers.write(request, reply, ticketId, () => tickets.update(ticketId, request.body));
    },
  );

  app.patch(
    "/api/tickets/:ticketId/checklist",
    {
      schema: {
        operationId: "checkChecklistItem",
        summary: "Set a checklist item's box",
        tags: ["tickets"],
        description:
          "Checks or unchecks task list item `index` (0-based, document order) of the body, " +
          "changing no other character; a body edit. Setting a box to the state it has writes " +
          "nothing. An index outside the checklist → 400.",
        params: TicketIdParams,
        body: ChecklistItemBody,
        headers: IfMatchHeaders,
        response: {
          200: answer(TicketRef, "The ticket with the item's box set."),
          ...errors(400, 404, 412),
        },
      },
    },
    (request, reply) => {
      const { ticketId } = request.params;
      answers.write(request, reply, ticketId, () => tickets.checkItem(ticketId, request.body));
    },
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

  app.patch(
    "/api/tickets/:ticketId/transition",
    {
      schema: {
        operationId: "transitionTicket",
        summary: "Move a ticket to a lane by name",
        tags: ["tickets"],
        description: "laneName is trimmed and matched exactly; isResolved changes only when sent.",
        params: TicketIdParams,
        body: TransitionBody,
        headers: IfMatchHeaders,
        response: { 200: answer(TicketRef, "The ticket as moved."), ...errors(400, 404, 412) },
      },
    },
    (request, reply) => {
      const { ticketId } = request.params;
      answers.write(request, reply, ticketId, () => tickets.transition(ticketId, request.body));
    },
  );

  app.patch(
    "/api/tickets/:ticketId/position",
    {
      schema: {
        operationId: "positionTicket",
        summary: "Place a ticket within its lane or another",
        tags: ["tickets"],
        description:
          "beforeTicketId wins, then afterTicketId, then position (clamped), else the lane's end.",
        params: TicketIdParams,
        body: PositionBody,
        headers: IfMatchHeaders,
        response: {
          200: answer(TicketRef, "The ticket at its new place."),
          ...errors(400, 404, 412),
        },
      },
    },
    (request, reply) => {
      const { ticketId } = request.params;
      answers.write(request, reply, ticketId, () =>
        ticketPositions.reposition(ticketId, request.body),
      );
    },
  );

  app.post(
    "/api/tickets/:ticketId/move",
    {
      schema: {
        operationId: "moveTicket",
        summary: "Move a ticket to another board",
        tags: ["tickets"],
        description: "Moves to a lane of another board: links are removed, tags remapped by name.",
        params: TicketIdParams,
        body: MoveBody,
        headers: IfMatchHeaders,
        response: {
          200: answer(TicketRef, "The ticket on its new board."),
          ...errors(400, 404, 412),
        },
      },
    },
    (request, reply) => {
      const { ticketId } = request.params;
      answers.write(request, reply, ticketId, () => ticketMoves.move(ticketId, request.body));
    },
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
