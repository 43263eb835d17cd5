import { Type } from "@sinclair/typebox";
import type { TicketEventService } from "../../domain/annotations/ticket-events.js";
import { IdempotencyKeyHeaders } from "../idempotency-keys.js";
import { listOf } from "../route-shapes.js";
import { answer, errors, TicketIdParams } from "../schemas/common.js";
import { TicketEventCreateBody, TicketEventRef } from "../schemas/ticket-records.js";
import type { TackApp } from "../types.js";

export function ticketEventRoutes(app: TackApp, events: TicketEventService): void {
  app.get(
    "/api/tickets/:ticketId/events",
    {
      schema: {
        operationId: "listTicketEvents",
        summary: "List a ticket's events",
        tags: ["events"],
        description: "Newest first.",
        params: TicketIdParams,
        response: {
          200: answer(listOf("events", TicketEventRef), "The ticket's events."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => ({ events: events.list(request.params.ticketId) }),
  );

  app.post(
    "/api/tickets/:ticketId/events",
    {
      schema: {
        operationId: "createTicketEvent",
        summary: "Record an event on a ticket",
        tags: ["events"],
        description: "Stores a source-specific event. Ticket events are data, not activity.",
        params: TicketIdParams,
        body: Type.Ref(TicketEventCreateBody),
        headers: IdempotencyKeyHeaders,
        response: { 201: answer(TicketEventRef, "The new event."), ...errors(400, 404, 422) },
      },
      config: { idempotent: true },
    },
    async (request, reply) =>
      reply.code(201).send(events.create(request.params.ticketId, request.body)),
  );
}
