import { type Static, type TArray, type TObject, type TSchema, Type } from "@sinclair/typebox";
import type { TicketWritten } from "../domain/tickets/ticket-views.js";
import { IfMatchHeaders } from "./conditional-requests.js";
import { IdempotencyKeyHeaders } from "./idempotency-keys.js";
import { answer, errors, TicketIdParams } from "./schemas/common.js";
import { TicketRef } from "./schemas/tickets.js";
import type { TicketAnswers } from "./ticket-answers.js";
import type { TackApp } from "./types.js";

// Route shapes several resources share, each written once: a parent's list of children, the
// create that answers 201, the change of one ticket under If-Match, the delete that answers 204
// with no body. A route passes its own words (operationId, summary, tags, description: the
// OpenAPI document shows them as given) and what it does; the status, the answer's schema, the
// sending and the error statuses every route of the shape can answer are the shape's: each
// shape names its own, and `alsoErrors` adds a route's others (409 where it can conflict).

/** What every route says about itself in the OpenAPI document. */
export interface RouteDoc<Params extends TObject> {
  operationId: string;
  summary: string;
  tags: string[];
  description: string;
  params: Params;
}

/** The error statuses a route answers besides those of its shape. */
interface AlsoErrors {
  alsoErrors?: number[];
}

/**
 * DELETE `url`: runs `remove` with the path's parameters and answers 204 with no body; 400 or
 * 404 for a malformed or unknown id. `gone` is the 204 answer's description (what the client now
 * knows).
 */
export function deleteRoute<Params extends TObject>(
  app: TackApp,
  url: string,
  route: RouteDoc<Params> & AlsoErrors & { gone: string },
  remove: (params: Static<Params>) => void,
): void {
  const { gone, alsoErrors = [], ...doc } = route;
  const response = { 204: answer(Type.Null(), gone), ...errors(400, 404, ...alsoErrors) };
  app.delete(url, { schema: { ...doc, response } }, async (request, reply) => {
    remove(request.params as Static<Params>);
    return reply.code(204).send(null);
  });
}

/** A list answer's schema: `{ <key>: [item, …] }`, the envelope every list in the API has. */
export function listOf<Key extends string, Item extends TSchema>(key: Key, item: Item) {
  return Type.Object({ [key]: Type.Array(item) } as { [K in Key]: TArray<Item> });
}

/**
 * GET `url`: the children `list` finds for the path's parameters, answered 200 as
 * `{ <key>: [item, …] }`; 400 or 404 for a malformed or unknown parent. `listed` is the 200
 * answer's description.
 */
export function listRoute<Params extends TObject>(
  app: TackApp,
  url: string,
  route: RouteDoc<Params> & { key: string; item: TSchema; listed: string },
  list: (params: Static<Params>) => unknown[],
): void {
  const { key, item, listed, ...doc } = route;
  // Widened: the answer's type is the item's, which only the caller knows.
  const response: Record<number, TSchema> = {
    200: answer(listOf(key, item), listed),
    ...errors(400, 404),
  };
  app.get(url, { schema: { ...doc, response } }, async (request) => ({
    [key]: list(request.params as Static<Params>),
  }));
}

/**
 * POST `url`: what `create` makes from the path's parameters and the body, answered 201 as
 * `item`; 400 for a malformed id or body, 404 for an unknown parent. `created` is the 201
 * answer's description. An `idempotent` route takes an Idempotency-Key and answers 422 when a
 * key comes back with another request (http/idempotency-keys.ts).
 */
export function createRoute<Params extends TObject, Body extends TSchema>(
  app: TackApp,
  url: string,
  route: RouteDoc<Params> &
    AlsoErrors & { body: Body; item: TSchema; created: string; idempotent?: boolean },
  create: (params: Static<Params>, body: Static<Body>) => unknown,
): void {
  const { item, created, alsoErrors = [], idempotent, ...doc } = route;
  const statuses = [400, 404, ...alsoErrors, ...(idempotent ? [422] : [])];
  // Widened: the answer's type is the item's, which only the caller knows.
  const response: Record<number, TSchema> = {
    201: answer(item, created),
    ...errors(...statuses),
  };
  const schema = idempotent
    ? { ...doc, headers: IdempotencyKeyHeaders, response }
    : { ...doc, response };
  app.post(url, { schema, ...(idempotent && { config: { idempotent } }) }, async (request, reply) =>
    reply.code(201).send(create(request.params as Static<Params>, request.body as Static<Body>)),
  );
}

/**
 * `method` `url`: a change to the ticket `ticketId` names, guarded by If-Match, answered 200 with
 * the ticket as `change` left it (`changed` describes it); 400 for a malformed id or body, 404
 * for an unknown ticket, 412 when If-Match no longer matches. Synchronous, sending and returning
 * nothing: `answers` sends (see sendJson in http/answer-bytes.ts).
 */
export function ticketChangeRoute<Body extends TSchema>(
  app: TackApp,
  answers: TicketAnswers,
  method: "PATCH" | "POST",
  url: string,
  route: Omit<RouteDoc<typeof TicketIdParams>, "params"> &
    AlsoErrors & { body: Body; changed: string },
  change: (ticketId: number, body: Static<Body>) => TicketWritten,
): void {
  const { changed, alsoErrors = [], ...doc } = route;
  const response = { 200: answer(TicketRef, changed), ...errors(400, 404, 412, ...alsoErrors) };
  app.route({
    method,
    url,
    schema: { ...doc, params: TicketIdParams, headers: IfMatchHeaders, response },
    handler: (request, reply) => {
      const { ticketId } = request.params as Static<typeof TicketIdParams>;
      answers.write(request, reply, ticketId, () => change(ticketId, request.body as Static<Body>));
    },
  });
}
