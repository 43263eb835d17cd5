import type { FastifyReply, FastifyRequest } from "fastify";
import type { AskDelivery, AskService } from "../../domain/asks/asks.js";
import { createRoute, listRoute } from "../route-shapes.js";
import {
  AskAnswerBody,
  AskCreateBody,
  AskIdParams,
  AskInboxQuery,
  AskList,
  AskRef,
  AskWaitQuery,
  AskWithdrawBody,
} from "../schemas/asks.js";
import { answer, errors, TicketIdParams } from "../schemas/common.js";
import type { TackApp } from "../types.js";

/** Asks (docs/api.md, "Asks"): open, list, the inbox, read (and wait), answer, withdraw. */
export function askRoutes(app: TackApp, asks: AskService): void {
  // Waiting callers never finish by themselves before their time: answer them (the ask as it
  // is) so close() does not wait up to a minute.
  app.addHook("preClose", async () => asks.releaseWaiters());

  createRoute(
    app,
    "/api/tickets/:ticketId/asks",
    {
      operationId: "createAsk",
      summary: "Ask a question about a ticket",
      tags: ["asks"],
      description:
        "Opens an ask. 409 when the ticket is resolved or archived; any invalid field → 400 " +
        "and nothing is written. A blocking ask (the default) keeps the ticket out of the " +
        "ready queue until it is answered or withdrawn.",
      params: TicketIdParams,
      body: AskCreateBody,
      item: AskRef,
      created: "The new ask, open.",
      alsoErrors: [409],
      idempotent: true,
    },
    ({ ticketId }, body) => asks.open(ticketId, body),
  );

  listRoute(
    app,
    "/api/tickets/:ticketId/asks",
    {
      operationId: "listTicketAsks",
      summary: "List a ticket's asks",
      tags: ["asks"],
      description: "Every ask of the ticket, of every status, oldest first.",
      params: TicketIdParams,
      key: "asks",
      item: AskRef,
      listed: "The ticket's asks, oldest first.",
    },
    ({ ticketId }) => asks.listForTicket(ticketId),
  );

  app.get(
    "/api/asks",
    {
      schema: {
        operationId: "listAsks",
        summary: "List asks across boards (the inbox)",
        tags: ["asks"],
        description:
          "Asks of one status (default `open`; `all` for every status), of every board or of " +
          "`boardId`'s, oldest first. Unknown board → 404.",
        querystring: AskInboxQuery,
        response: {
          200: answer(AskList, "The matching asks, oldest first."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => ({ asks: asks.inbox(request.query) }),
  );

  app.get(
    "/api/asks/:askId",
    {
      schema: {
        operationId: "getAsk",
        summary: "Read an ask, or wait for its answer",
        tags: ["asks"],
        description:
          "The ask. With `wait` (seconds, 1-60) and the ask open, the answer is held until the " +
          "ask is answered or withdrawn, or the time has passed; then the ask as it is (200 " +
          "either way). An ask that is not open answers at once.",
        params: AskIdParams,
        querystring: AskWaitQuery,
        response: {
          200: answer(AskRef, "The ask (after the wait, as it is then)."),
          ...errors(400, 404),
        },
      },
    },
    // Synchronous: it sends now, or when the wait ends (nothing to return or await meanwhile).
    (request, reply) => {
      const { askId } = request.params;
      const { wait } = request.query;
      if (wait === undefined) {
        reply.send(asks.require(askId));
        return;
      }
      waitForAsk(request, reply, (deliver) => asks.wait(askId, wait, deliver));
    },
  );

  app.post(
    "/api/asks/:askId/answer",
    {
      schema: {
        operationId: "answerAsk",
        summary: "Answer an ask",
        tags: ["asks"],
        description:
          "Answers an open ask with `text`, `option` or both (an option must be one of the " +
          "ask's, exactly). 409 naming the status when the ask is not open (checked first).",
        params: AskIdParams,
        body: AskAnswerBody,
        response: {
          200: answer(AskRef, "The ask, answered."),
          ...errors(400, 404, 409),
        },
      },
    },
    async (request) => asks.answer(request.params.askId, request.body),
  );

  app.post(
    "/api/asks/:askId/withdraw",
    {
      schema: {
        operationId: "withdrawAsk",
        summary: "Withdraw an ask",
        tags: ["asks"],
        description:
          "Withdraws an open ask; only the actor who opened it may (409 otherwise). 409 naming " +
          "the status when the ask is not open (checked first).",
        params: AskIdParams,
        body: AskWithdrawBody,
        response: {
          200: answer(AskRef, "The ask, withdrawn."),
          ...errors(400, 404, 409),
        },
      },
    },
    async (request) => asks.withdraw(request.params.askId, request.body),
  );
}

/**
 * Holds a request until `start`'s delivery, and lets go of it if its client goes first: the
 * response closing (the connection reset or destroyed) or the client ending its side of the
 * connection (the server allows half-open sockets so that an answer still being written is not
 * cut off; a waiting request has nothing being written, and a client that stopped sending cannot
 * be told apart from one that is gone) removes the waiter and closes the socket. Nothing is
 * written after that.
 */
function waitForAsk(
  request: FastifyRequest,
  reply: FastifyReply,
  start: (deliver: AskDelivery) => (() => void) | undefined,
): void {
  const response = reply.raw;
  const socket = request.raw.socket;
  let waiting = true;
  const deliver: AskDelivery = (error, ask) => {
    waiting = false;
    socket.off("end", gone);
    if (response.destroyed || reply.sent) return;
    reply.send(error ?? ask);
  };
  const stop = start(deliver);
  if (!stop) return;
  function gone(): void {
    if (!waiting) return;
    waiting = false;
    stop?.();
    socket.off("end", gone);
    socket.destroy();
  }
  response.once("close", gone);
  socket.once("end", gone);
  if (socket.readableEnded) gone();
}
