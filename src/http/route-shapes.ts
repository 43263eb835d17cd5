import { type Static, type TArray, type TObject, type TSchema, Type } from "@sinclair/typebox";
import { answer, errors } from "./schemas/common.js";
import type { TackApp } from "./types.js";

// Route shapes several resources share, each written once: the list answer wrapped in its key,
// the delete that answers 204 with no body. A route passes its own words (operationId, summary,
// tags, description: the OpenAPI document shows them as given) and what it does; the status, the
// answer's schema and the sending are the shape's.

/** What every route says about itself in the OpenAPI document. */
export interface RouteDoc<Params extends TObject> {
  operationId: string;
  summary: string;
  tags: string[];
  description: string;
  params: Params;
}

/**
 * DELETE `url`: runs `remove` with the path's parameters and answers 204 with no body. `gone` is
 * the 204 answer's description (what the client now knows), `errors` the statuses the route may
 * answer besides.
 */
export function deleteRoute<Params extends TObject>(
  app: TackApp,
  url: string,
  route: RouteDoc<Params> & { gone: string; errors: number[] },
  remove: (params: Static<Params>) => void,
): void {
  const { gone, errors: statuses, ...doc } = route;
  app.delete(
    url,
    { schema: { ...doc, response: { 204: answer(Type.Null(), gone), ...errors(...statuses) } } },
    async (request, reply) => {
      remove(request.params as Static<Params>);
      return reply.code(204).send(null);
    },
  );
}

/** A list answer's schema: `{ <key>: [item, …] }`, the envelope every list in the API has. */
export function listOf<Key extends string, Item extends TSchema>(key: Key, item: Item) {
  return Type.Object({ [key]: Type.Array(item) } as { [K in Key]: TArray<Item> });
}
