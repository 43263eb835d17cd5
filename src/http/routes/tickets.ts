import { Type } from "@sinclair/typebox";
import type { TicketMoveService } from "../../domain/tickets/ticket-moves.js";
import type { TicketPositionService } from "../../domain/tickets/ticket-positions.js";
import type { TicketService } from "../../domain/tickets/tickets.js";
import { BoardIdParams, errors, TicketIdParams } from "../schemas/common.js";
import {
  MoveBody,
  PositionBody,
  TicketCreateBody,
  TicketListQuery,
  TicketPatchBody,
  TransitionBody,
} from "../schemas/ticket-requests.js";
import { TicketRef, TicketRelations, TicketSummaryRef } from "../schemas/tickets.js";
import type { TackApp } from "../types.js";

export function ticketRoutes(
  app: TackApp,
  services: {
    tickets: TicketService;
    ticketPositions: TicketPositionService;
    ticketMoves: TicketMoveService;
  },
): void {
  const { tickets, ticketPositions, ticketMoves } = services;

  app.get(
    "/api/boards/:boardId/tickets",
    {
      schema: {
        operationId: "listTickets",
        tags: ["tickets"],
        description:
          "Ticket summaries in board order (lane, active before archived, position, id). " +
          "Filters combine by AND; archived tickets are hidden unless archived=true|all.",
        params: BoardIdParams,
        querystring: TicketListQuery,
        response: {
          200: Type.Object({ tickets: Type.Array(TicketSummaryRef) }),
          ...errors(400, 404),
        },
      },
    },
    async (request) => ({ tickets: tickets.list(request.params.boardId, request.query) }),
  );

  app.post(
    "/api/boards/:boardId/tickets",
    {
      schema: {
        operationId: "createTicket",
        tags: ["tickets"],
        description:
          "Defaults: empty body, priority 2, not resolved, not archived; appended to its lane.",
        params: BoardIdParams,
        body: TicketCreateBody,
        response: { 201: TicketRef, ...errors(400, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(tickets.create(request.params.boardId, request.body)),
  );

  app.get(
    "/api/tickets/:ticketId",
    {
      schema: {
        operationId: "getTicket",
        tags: ["tickets"],
        params: TicketIdParams,
        response: { 200: TicketRef, ...errors(400, 404) },
      },
    },
    async (request) => tickets.get(request.params.ticketId),
  );

  app.patch(
    "/api/tickets/:ticketId",
    {
      schema: {
        operationId: "updateTicket",
        tags: ["tickets"],
        description: "Send only changes; each field is independent. null or [] clears a relation.",
        params: TicketIdParams,
        body: TicketPatchBody,
        response: { 200: TicketRef, ...errors(400, 404) },
      },
    },
    async (request) => tickets.update(request.params.ticketId, request.body),
  );

  app.delete(
    "/api/tickets/:ticketId",
    {
      schema: {
        operationId: "deleteTicket",
        tags: ["tickets"],
        params: TicketIdParams,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (request, reply) => {
      tickets.remove(request.params.ticketId);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    "/api/tickets/:ticketId/transition",
    {
      schema: {
        operationId: "transitionTicket",
        tags: ["tickets"],
        description: "laneName is trimmed and matched exactly; isResolved changes only when sent.",
        params: TicketIdParams,
        body: TransitionBody,
        response: { 200: TicketRef, ...errors(400, 404) },
      },
    },
    async (request) => tickets.transition(request.params.ticketId, request.body),
  );

  app.patch(
    "/api/tickets/:ticketId/position",
    {
      schema: {
        operationId: "positionTicket",
        tags: ["tickets"],
        description:
          "beforeTicketId wins, then afterTicketId, then position (clamped), else the lane's end.",
        params: TicketIdParams,
        body: PositionBody,
        response: { 200: TicketRef, ...errors(400, 404) },
      },
    },
    async (request) => ticketPositions.reposition(request.params.ticketId, request.body),
  );

  app.post(
    "/api/tickets/:ticketId/move",
    {
      schema: {
        operationId: "moveTicket",
        tags: ["tickets"],
        description: "Moves to a lane of another board: links are removed, tags remapped by name.",
        params: TicketIdParams,
        body: MoveBody,
        response: { 200: TicketRef, ...errors(400, 404) },
      },
    },
    async (request) => ticketMoves.move(request.params.ticketId, request.body),
  );

  app.get(
    "/api/tickets/:ticketId/relations",
    {
      schema: {
        operationId: "getTicketRelations",
        tags: ["tickets"],
        params: TicketIdParams,
        response: { 200: Type.Ref(TicketRelations), ...errors(400, 404) },
      },
    },
    async (request) => tickets.relations(request.params.ticketId),
  );
}
