import type { FastifyReply, FastifyRequest } from "fastify";
import type { Ticket, TicketSummary } from "../domain/model.js";
import type { Services } from "../domain/services.js";
import type { TicketWritten } from "../domain/tickets/ticket-views.js";
import type { TicketListQuery } from "../domain/tickets/tickets.js";
import { keptAnswers, type SerializeSummary, type SerializeTicket } from "../kept-answers/index.js";
import { LIST_CLOSING, LIST_OPENING, sendJson, sendListRuns } from "./answer-bytes.js";
import {
  AnswerCache,
  answerFromTag,
  boardTagOf,
  ifMatchTest,
  ticketTagOf,
} from "./conditional-requests.js";

/**
 * How the ticket routes answer: lists and full Tickets from src/kept-answers (bytes kept between
 * requests), with their entity tags and 304s, and every single-ticket write through one
 * sequence, `write`: If-Match checked and the domain's write in one transaction, then the
 * ticket's answer, then the send.
 */

export interface TicketAnswerOptions {
  /**
   * THE REFERENCE MODE, the only switch of how tack answers: every list and every full Ticket
   * is read anew and serialized by its route's own serializer, and nothing is kept between
   * requests (no kept answers, no answer cache, no board tags, which count this process's
   * commits only). test/api/live-lists-*.test.ts compare a normal server's answers byte for byte
   * with those of a server in this mode on the same database file.
   */
  reference?: boolean;
  /** Tickets per kept run of a list (src/kept-answers/index.ts `KeptAnswerOptions`). */
  runLength?: number;
}

/**
 * One summary's JSON exactly as the list's response serializer writes it inside the list: the
 * serializer's answer for a one-summary list, less the wrapper around it.
 */
function summarySerializer(
  serializeList: ((data: { [key: string]: unknown }) => string) | undefined,
): SerializeSummary {
  if (!serializeList) throw new Error("the ticket list has no response serializer");
  return (summary: TicketSummary) => {
    const text = serializeList({ tickets: [summary] });
    if (!text.startsWith(LIST_OPENING) || !text.endsWith(LIST_CLOSING)) {
      throw new Error("unexpected serialization of a ticket list");
    }
    return text.slice(LIST_OPENING.length, -LIST_CLOSING.length);
  };
}

/** claim-next answers from parts it does not keep (`sendClaimed`). */
const NOT_KEPT = { keep: false };

export function ticketAnswers(
  services: Pick<Services, "tickets" | "entityTags" | "answerSources">,
  options: TicketAnswerOptions = {},
) {
  const { tickets, entityTags } = services;
  const kept = options.reference
    ? undefined
    : keptAnswers(services.answerSources, { runLength: options.runLength });
  // Serialized answers of unchanged tickets (conditional-requests.ts), in bytes. Lists need no
  // such cache: their kept runs are what an answer sends. A ticket's answer is kept from its
  // second request on (one read of every ticket would otherwise replace the tickets that are
  // read again and again).
  const details = new AnswerCache(8 * 1024 * 1024, { admitOnRepeat: true });
  // Every route answering a full Ticket declares the same 200 schema (TicketRef), so one route's
  // serializer writes what any of them would: it is taken from the first reply that needs it.
  let serializeTicket: SerializeTicket | undefined;
  let serializeSummary: SerializeSummary | undefined;

  function ticketSerializer(reply: FastifyReply): SerializeTicket {
    if (serializeTicket) return serializeTicket;
    const serialize = reply.getSerializationFunction("200");
    if (!serialize) throw new Error("the ticket route has no response serializer");
    serializeTicket = serialize as unknown as SerializeTicket;
    return serializeTicket;
  }

  /** Sends the full Ticket a write (or a read) left, as the route's serializer writes it. */
  function send(
    reply: FastifyReply,
    written: TicketWritten,
    keep: { keep: boolean } = { keep: true },
  ): void {
    const ticketId = written.record.id;
    if (!kept) {
      reply.send(tickets.get(ticketId));
      return;
    }
    sendJson(reply, kept.ticketJson(ticketId, ticketSerializer(reply), written, keep));
  }

  /** Runs `work` only if the request's If-Match names the ticket's state (else 412). */
  function ifMatching<T>(request: FastifyRequest, ticketId: number, work: () => T): T {
    return entityTags.whenCurrent(ticketId, ifMatchTest(request), work);
  }

  return {
    /** GET a board's list: 304 from the board's tag, else the kept runs (or the list read). */
    list(
      request: FastifyRequest,
      reply: FastifyReply,
      boardId: number,
      query: TicketListQuery,
    ): FastifyReply | { tickets: TicketSummary[] } {
      if (!kept) return { tickets: tickets.list(boardId, query) };
      const tag = boardTagOf(entityTags, boardId);
      if (tag !== undefined && answerFromTag(request, reply, tag)) return reply;
      serializeSummary ??= summarySerializer(reply.getSerializationFunction("200"));
      const runs = kept.listRuns(boardId, query, serializeSummary);
      if (!runs) return { tickets: tickets.list(boardId, query) };
      // What the serializer writes for the whole list: the pieces joined inside the wrapper.
      return sendListRuns(reply, runs);
    },

    /** GET a full Ticket: 304 or the cached answer from its tag, else its kept answer. */
    ticket(request: FastifyRequest, reply: FastifyReply, ticketId: number): void {
      const tag = ticketTagOf(entityTags, ticketId);
      const cache = kept && { store: details, key: String(ticketId) };
      if (tag !== undefined && answerFromTag(request, reply, tag, cache)) return;
      if (!kept) {
        reply.send(tickets.get(ticketId) satisfies Ticket);
        return;
      }
      sendJson(reply, kept.ticketJson(ticketId, ticketSerializer(reply)));
    },

    ifMatching,

    /**
     * A write of one ticket answering its full Ticket: If-Match and the write in one
     * transaction, then the answer from the row the write left (after the commit: what is kept
     * is committed state), then the send.
     */
    write(
      request: FastifyRequest,
      reply: FastifyReply,
      ticketId: number,
      write: () => TicketWritten,
    ): void {
      send(reply, ifMatching(request, ticketId, write));
    },

    /**
     * A claim-next's answer. A ticket claim-next hands out was usually never read, and its
     * next write (a comment) drops its parts: keeping them for this answer only fed the
     * collector, so they are read for it alone.
     */
    sendClaimed(reply: FastifyReply, written: TicketWritten): void {
      send(reply, written, NOT_KEPT);
    },
  };
}

export type TicketAnswers = ReturnType<typeof ticketAnswers>;
