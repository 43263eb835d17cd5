import { Readable, type Writable } from "node:stream";
import { Type } from "@sinclair/typebox";
import type { FastifyReply } from "fastify";
import type { EntityTags } from "../../domain/entity-tags.js";
import type { TicketSummary } from "../../domain/model.js";
import type { TicketJson } from "../../domain/tickets/ticket-json.js";
import type { TicketMoveService } from "../../domain/tickets/ticket-moves.js";
import type { TicketPositionService } from "../../domain/tickets/ticket-positions.js";
import type { SerializeTicket } from "../../domain/tickets/ticket-views.js";
import type { TicketService } from "../../domain/tickets/tickets.js";
import {
  AnswerCache,
  answerFromTag,
  IfMatchHeaders,
  IfNoneMatchHeaders,
  ifMatchOf,
  NOT_MODIFIED,
} from "../conditional-requests.js";
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
import type { TackApp } from "../types.js";

const LIST_OPENING = '{"tickets":[';
const LIST_CLOSING = "]}";

/**
 * One summary's JSON exactly as the list's response serializer writes it inside the list: the
 * serializer's answer for a one-summary list, less the wrapper around it.
 */
function summarySerializer(
  serializeList: ((data: { [key: string]: unknown }) => string) | undefined,
): (summary: TicketSummary) => string {
  if (!serializeList) throw new Error("the ticket list has no response serializer");
  return (summary) => {
    const text = serializeList({ tickets: [summary] });
    if (!text.startsWith(LIST_OPENING) || !text.endsWith(LIST_CLOSING)) {
      throw new Error("unexpected serialization of a ticket list");
    }
    return text.slice(LIST_OPENING.length, -LIST_CLOSING.length);
  };
}

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * One route's 200 serializer (a full Ticket): call the function returned with the route's
 * replies; it takes the serializer from the first and keeps it.
 */
export function ticketSerializer(): (reply: FastifyReply) => SerializeTicket {
  let serializer: SerializeTicket | undefined;
  return (reply) => {
    if (serializer) return serializer;
    const serialize = reply.getSerializationFunction("200");
    if (!serialize) throw new Error("the ticket route has no response serializer");
    serializer = serialize as unknown as SerializeTicket;
    return serializer;
  };
}

/**
 * Sends JSON already written as the route's serializer writes it (no serialization again).
 * The single-Ticket routes below are synchronous handlers: they call this and return nothing.
 * An `async` handler must return the reply it gives (else Fastify would send again); that costs
 * a promise, and Fastify then resolves it through `reply.then`, which adds and removes
 * end-of-stream listeners on every answer still waiting for its sync (docs/performance.md,
 * "The request path").
 */
export function sendJson(reply: FastifyReply, json: TicketJson): FastifyReply {
  return reply.type(JSON_TYPE).send(json);
}

const OPENING_BYTES = Buffer.from(LIST_OPENING);
const CLOSING_BYTES = Buffer.from(LIST_CLOSING);

/**
 * A list's JSON in parts: its kept UTF-8 runs of pieces (each piece ending in ","), in a row
 * inside the wrapper, the last comma left out.
 */
function listParts(runs: readonly Buffer[]): { parts: Buffer[]; length: number } {
  const parts: Buffer[] = [OPENING_BYTES];
  let length = OPENING_BYTES.length + CLOSING_BYTES.length;
  const last = runs.length - 1;
  runs.forEach((run, index) => {
    const part = index === last ? run.subarray(0, -1) : run;
    parts.push(part);
    length += part.length;
  });
  parts.push(CLOSING_BYTES);
  return { parts, length };
}

/**
 * A list's answer, sent without copying its parts into one buffer (a big board's list is
 * 2-5 MB): piped into the response, it writes every part at once into the corked response, so
 * the socket sends them with one `writev`. The runs are never changed in place (a write
 * replaces a run), so they can be handed to the socket as they are.
 */
class ListAnswer extends Readable {
  constructor(private readonly parts: readonly Buffer[]) {
    super();
  }

  // Nothing to read: the parts go straight to the response in `pipe` (or nowhere, for HEAD).
  override _read(): void {
    this.push(null);
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    const response = destination as unknown as Writable;
    response.cork();
    for (const part of this.parts) response.write(part);
    if (options?.end !== false) response.end();
    response.uncork();
    this.resume();
    return destination;
  }
}

/**
 * Below this many bytes a list is copied into one buffer, which Node then takes from its
 * shared pool; any bigger answer is sent as its parts, since a buffer of its own per answer
 * ends up in the old generation once the kept runs have made V8 pretenure Node's buffers, and
 * lives until a mark-compact: a search after full-list reads then paid ~0.7-1 ms of collection
 * per read (docs/performance.md, "Board lists kept in memory").
 */
const STREAM_FROM_BYTES = Buffer.poolSize >>> 1;

/** Sends a list's runs (JSON already serialized by the route's serializer, joined). */
function sendListRuns(reply: FastifyReply, runs: readonly Buffer[]): FastifyReply {
  const { parts, length } = listParts(runs);
  reply.type("application/json; charset=utf-8");
  if (length < STREAM_FROM_BYTES) return reply.send(Buffer.concat(parts, length));
  return reply.header("content-length", length).send(new ListAnswer(parts));
}

export function ticketRoutes(
  app: TackApp,
  services: {
    tickets: TicketService;
    ticketPositions: TicketPositionService;
    ticketMoves: TicketMoveService;
    entityTags: EntityTags;
  },
  options: { freshLists: boolean } = { freshLists: false },
): void {
  const { tickets, ticketPositions, ticketMoves, entityTags } = services;
  /** One summary as the list's serializer writes it (set by the first list request). */
  let serializeSummary: ((summary: TicketSummary) => string) | undefined;
  // Serialized answers of unchanged tickets (conditional-requests.ts), in bytes. Lists need no
  // such cache: the board lists keep their runs as bytes, which is what an answer sends.
  // A ticket's answer is kept from its second request on (one read of every ticket would
  // otherwise replace the tickets that are read again and again).
  const details = new AnswerCache(8 * 1024 * 1024, { admitOnRepeat: true });
  // A full Ticket as each route's serializer writes it (set by the route's first answer). The
  // routes answer the JSON the domain joins from kept pieces (domain/tickets/ticket-json.ts);
  // with `freshLists` (the reference server of the tests) they answer objects, serialized anew.
  const serializerForGet = ticketSerializer();
  const serializerForPatch = ticketSerializer();
  const serializerForChecklist = ticketSerializer();
  const serializerForTransition = ticketSerializer();
  // Position and move answer JSON on the reference server too: with nothing kept, it is the
  // serializer's text of a Ticket read anew.
  const serializerForPosition = ticketSerializer();
  const serializerForMove = ticketSerializer();

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
    async (request, reply) => {
      const { boardId } = request.params;
      if (options.freshLists) return { tickets: tickets.list(boardId, request.query) };
      const tag = entityTags.boardTag(boardId);
      if (tag !== undefined && answerFromTag(request, reply, tag)) return reply;
      serializeSummary ??= summarySerializer(reply.getSerializationFunction("200"));
      const runs = tickets.listPieces(boardId, request.query, serializeSummary);
      if (!runs) return { tickets: tickets.list(boardId, request.query) };
      // What the serializer writes for the whole list: the pieces joined inside the wrapper.
      return sendListRuns(reply, runs);
    },
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
    // Synchronous: it sends, or returns an object for Fastify to send (see sendJson).
    (request, reply) => {
      const { ticketId } = request.params;
      const tag = entityTags.ticketTag(ticketId);
      const cache = { store: details, key: String(ticketId) };
      if (tag !== undefined && answerFromTag(request, reply, tag, cache)) return;
      if (options.freshLists) return tickets.get(ticketId);
      // The serializer's JSON, joined from kept pieces (domain/tickets/ticket-json.ts).
      sendJson(reply, tickets.getAsJson(ticketId, serializerForGet(reply)));
    },
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
    // Synchronous: it sends, or returns an object for Fastify to send (see sendJson).
    (request, reply) => {
      const { ticketId } = request.params;
      if (options.freshLists) {
        return entityTags.whenMatches(ticketId, ifMatchOf(request), () =>
          tickets.update(ticketId, request.body),
        );
      }
      const serialize = serializerForPatch(reply);
      const json = entityTags.whenMatches(ticketId, ifMatchOf(request), () =>
        tickets.updateAsJson(ticketId, request.body, serialize),
      );
      sendJson(reply, json);
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
    // Synchronous: it sends, or returns an object for Fastify to send (see sendJson).
    (request, reply) => {
      const { ticketId } = request.params;
      if (options.freshLists) {
        return entityTags.whenMatches(ticketId, ifMatchOf(request), () =>
          tickets.checkItem(ticketId, request.body),
        );
      }
      const serialize = serializerForChecklist(reply);
      const json = entityTags.whenMatches(ticketId, ifMatchOf(request), () =>
        tickets.checkItemAsJson(ticketId, request.body, serialize),
      );
      sendJson(reply, json);
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
    // Synchronous, sending and returning nothing (see sendJson).
    (request, reply) => {
      const { ticketId } = request.params;
      entityTags.whenMatches(ticketId, ifMatchOf(request), () => tickets.remove(ticketId));
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
    // Synchronous: it sends, or returns an object for Fastify to send (see sendJson).
    (request, reply) => {
      const { ticketId } = request.params;
      if (options.freshLists) {
        return entityTags.whenMatches(ticketId, ifMatchOf(request), () =>
          tickets.transition(ticketId, request.body),
        );
      }
      const serialize = serializerForTransition(reply);
      const json = entityTags.whenMatches(ticketId, ifMatchOf(request), () =>
        tickets.transitionAsJson(ticketId, request.body, serialize),
      );
      sendJson(reply, json);
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
    // Synchronous, sending and returning nothing (see sendJson).
    (request, reply) => {
      const { ticketId } = request.params;
      const serialize = serializerForPosition(reply);
      const json = entityTags.whenMatches(ticketId, ifMatchOf(request), () =>
        ticketPositions.reposition(ticketId, request.body, serialize),
      );
      sendJson(reply, json);
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
    // Synchronous, sending and returning nothing (see sendJson).
    (request, reply) => {
      const { ticketId } = request.params;
      const serialize = serializerForMove(reply);
      const json = entityTags.whenMatches(ticketId, ifMatchOf(request), () =>
        ticketMoves.move(ticketId, request.body, serialize),
      );
      sendJson(reply, json);
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
