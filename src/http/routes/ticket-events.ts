import { Type } from "@sinclair/typebox";
import type { TicketEventService } from "../../domain/annotations/ticket-events.js";
import { createRoute, listRoute } from "../route-shapes.js";
import { TicketIdParams } from "../schemas/common.js";
import { TicketEventCreateBody, TicketEventRef } from "../schemas/ticket-records.js";
import type { TackApp } from "../types.js";

export function ticketEventRoutes(app: TackApp, events: TicketEventService): void {
  listRoute(
    app,
    "/api/tickets/:ticketId/events",
    {
      operationId: "listTicketEvents",
      summary: "List a ticket's events",
      tags: ["events"],
      description: "Newest first.",
      params: TicketIdParams,
      key: "events",
      item: TicketEventRef,
      listed: "The ticket's events.",
    },
    ({ ticketId }) => events.list(ticketId),
  );

  createRoute(
    app,
    "/api/tickets/:ticketId/events",
    {
      operationId: "createTicketEvent",
      summary: "Record an event on a ticket",
      tags: ["events"],
      description: "Stores a source-specific event. Ticket events are data, not activity.",
      params: TicketIdParams,
      body: Type.Ref(TicketEventCreateBody),
      item: TicketEventRef,
      created: "The new event.",
      idempotent: true,
    },
    ({ ticketId }, body) => events.create(ticketId, body),
  );
}
