import { Type } from "@sinclair/typebox";
import type { FastifyReply } from "fastify";
import type { EntityTags } from "../../domain/entity-tags.js";
import type { TicketClaimService } from "../../domain/tickets/ticket-claims.js";
import { IfMatchHeaders, ifMatchOf } from "../conditional-requests.js";
import { answer, BoardIdParams, errors, TicketIdParams } from "../schemas/common.js";
import { ClaimBody, ClaimNextBody, ReleaseBody } from "../schemas/coordination.js";
import { TicketRef } from "../schemas/tickets.js";
import type { TackApp } from "../types.js";
import { sendJson, ticketSerializer } from "./tickets.js";

/**
 * Claims with leases (docs/api.md, "Coordination for agents"): claim, release, and claim the next
 * ready ticket. Each answers the Ticket's JSON as the route's serializer writes it, joined by the
 * domain from the JSON kept with the ticket's parts when it has some
 * (domain/tickets/ticket-json.ts).
 */
export function ticketClaimRoutes(
  app: TackApp,
  services: { ticketClaims: TicketClaimService; entityTags: EntityTags },
): void {
  const { ticketClaims, entityTags } = services;
  // Each route's serializer of a full Ticket, taken from its first answer.
  const serializerForClaim = ticketSerializer();
  const serializerForRelease = ticketSerializer();
  const serializerForClaimNext = ticketSerializer();

  app.post(
    "/api/tickets/:ticketId/claim",
    {
      schema: {
        operationId: "claimTicket",
        summary: "Claim a ticket",
        tags: ["claims"],
        description:
          "Claims the ticket for `actor` until now + leaseSeconds. The same actor again renews " +
          "(claimedAt stays). 409 when another actor's claim is live, or the ticket is resolved " +
          "or archived.",
        params: TicketIdParams,
        body: ClaimBody,
        headers: IfMatchHeaders,
        response: {
          200: answer(TicketRef, "The ticket with the actor's claim (new or renewed)."),
          ...errors(400, 404, 409, 412),
        },
      },
    },
    // Synchronous, sending and returning nothing (see sendJson in routes/tickets.ts).
    (request, reply) => {
      const { ticketId } = request.params;
      const serialize = serializerForClaim(reply);
      const json = entityTags.whenMatches(ticketId, ifMatchOf(request), () =>
        ticketClaims.claim(ticketId, request.body, serialize),
      );
      sendJson(reply, json);
    },
  );

  app.post(
    "/api/tickets/:ticketId/release",
    {
      schema: {
        operationId: "releaseTicket",
        summary: "Release a claim",
        tags: ["claims"],
        description:
          "Ends `actor`'s claim. Unclaimed or expired: 200 (idempotent). 409 when another " +
          "actor's claim is live.",
        params: TicketIdParams,
        body: ReleaseBody,
        headers: IfMatchHeaders,
        response: {
          200: answer(TicketRef, "The ticket, no longer claimed."),
          ...errors(400, 404, 409, 412),
        },
      },
    },
    // Synchronous, sending and returning nothing (see sendJson in routes/tickets.ts).
    (request, reply) => {
      const { ticketId } = request.params;
      const serialize = serializerForRelease(reply);
      const json = entityTags.whenMatches(ticketId, ifMatchOf(request), () =>
        ticketClaims.release(ticketId, request.body, serialize),
      );
      sendJson(reply, json);
    },
  );

  app.post(
    "/api/boards/:boardId/claim-next",
    {
      schema: {
        operationId: "claimNextTicket",
        summary: "Claim the first ready ticket",
        tags: ["claims"],
        description:
          "Claims the first ticket of the ready queue (GET …/tickets?ready=true), optionally " +
          "only in a lane, with a tag (case-insensitive) or of one priority, in one " +
          "transaction: no ticket is ever handed to two live claims. 204 when none is ready.",
        params: BoardIdParams,
        body: ClaimNextBody,
        response: {
          200: answer(TicketRef, "The claimed ticket."),
          204: Type.Null({ description: "No ticket is ready." }),
          ...errors(400, 404),
        },
      },
    },
    // Not `async`: the answer is sent once its unit of work has run (the handler returns
    // nothing), with no promise for Fastify to wait on through `reply.then` (see sendJson in
    // routes/tickets.ts); 32 callers' answers wait for their sync at once.
    (request, reply) => {
      const { boardId } = request.params;
      ticketClaims.claimNext(boardId, request.body, serializerForClaimNext(reply)).then(
        (json) => {
          if (json === null) reply.code(204).send(null);
          else sendJson(reply, json);
        },
        // Fastify's error handler answers it, as for an error thrown by a handler.
        (error: Error) => (reply as FastifyReply).send(error),
      );
    },
  );
}
