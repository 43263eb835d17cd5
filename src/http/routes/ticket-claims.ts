import { Type } from "@sinclair/typebox";
import type { FastifyReply } from "fastify";
import type { TicketClaimService } from "../../domain/tickets/ticket-claims.js";
import { ticketChangeRoute } from "../route-shapes.js";
import { answer, BoardIdParams, errors } from "../schemas/common.js";
import { ClaimBody, ClaimNextBody, ReleaseBody } from "../schemas/coordination.js";
import { TicketRef } from "../schemas/tickets.js";
import type { TicketAnswers } from "../ticket-answers.js";
import type { TackApp } from "../types.js";

/**
 * Claims with leases (docs/api.md, "Coordination for agents"): claim, release, and claim the next
 * ready ticket. Each answers the full Ticket through `answers` (http/ticket-answers.ts).
 */
export function ticketClaimRoutes(
  app: TackApp,
  services: { ticketClaims: TicketClaimService },
  answers: TicketAnswers,
): void {
  const { ticketClaims } = services;

  ticketChangeRoute(
    app,
    answers,
    "POST",
    "/api/tickets/:ticketId/claim",
    {
      operationId: "claimTicket",
      summary: "Claim a ticket",
      tags: ["claims"],
      description:
        "Claims the ticket for `actor` until now + leaseSeconds. The same actor again renews " +
        "(claimedAt stays). 409 when another actor's claim is live, or the ticket is resolved " +
        "or archived.",
      body: ClaimBody,
      changed: "The ticket with the actor's claim (new or renewed).",
      alsoErrors: [409],
    },
    (ticketId, body) => ticketClaims.claim(ticketId, body),
  );

  ticketChangeRoute(
    app,
    answers,
    "POST",
    "/api/tickets/:ticketId/release",
    {
      operationId: "releaseTicket",
      summary: "Release a claim",
      tags: ["claims"],
      description:
        "Ends `actor`'s claim. Unclaimed or expired: 200 (idempotent). 409 when another " +
        "actor's claim is live.",
      body: ReleaseBody,
      changed: "The ticket, no longer claimed.",
      alsoErrors: [409],
    },
    (ticketId, body) => ticketClaims.release(ticketId, body),
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
    // http/answer-bytes.ts); 32 callers' answers wait for their sync at once.
    (request, reply) => {
      const { boardId } = request.params;
      ticketClaims
        .claimNext(boardId, request.body)
        .then((written) => {
          if (written === null) reply.code(204).send(null);
          else answers.sendClaimed(reply, written);
        })
        // Fastify's error handler answers it, as for an error thrown by a handler: the unit's
        // failure, or its answer's (built after the commit).
        .catch((error: Error) => (reply as FastifyReply).send(error));
    },
  );
}
