import { Type } from "@sinclair/typebox";
import type { ExternalReferenceService } from "../../domain/annotations/external-references.js";
import { answer, errors } from "../schemas/common.js";
import {
  ExternalReferenceParams,
  TicketExternalReferenceSet,
} from "../schemas/external-references.js";
import { TicketRef } from "../schemas/tickets.js";
import type { TackApp } from "../types.js";

export function externalReferenceRoutes(app: TackApp, references: ExternalReferenceService): void {
  app.put(
    "/api/tickets/:ticketId/external-references/:kind",
    {
      schema: {
        operationId: "setExternalReference",
        summary: "Set a ticket's external reference of a kind",
        tags: ["remote"],
        description:
          "Idempotent: the same body again changes nothing (no new activity, no updatedAt bump). " +
          "External references offer no refresh, sync or push.",
        params: ExternalReferenceParams,
        body: Type.Ref(TicketExternalReferenceSet),
        response: { 200: answer(TicketRef, "The ticket with the reference."), ...errors(400, 404) },
      },
    },
    async (request) => references.set(request.params.ticketId, request.params.kind, request.body),
  );

  app.delete(
    "/api/tickets/:ticketId/external-references/:kind",
    {
      schema: {
        operationId: "removeExternalReference",
        summary: "Remove a ticket's external reference of a kind",
        tags: ["remote"],
        description: "404 when the ticket has no reference of that kind.",
        params: ExternalReferenceParams,
        response: {
          200: answer(TicketRef, "The ticket without the reference."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => references.remove(request.params.ticketId, request.params.kind),
  );
}
