import { Readable, type Writable } from "node:stream";
import type { FastifyReply } from "fastify";

/**
 * Sending answers serialized ahead (src/kept-answers): a Ticket's JSON as a string or bytes,
 * and a list's kept runs of pieces inside the list's wrapper.
 */

const JSON_TYPE = "application/json; charset=utf-8";
export const LIST_OPENING = '{"tickets":[';
export const LIST_CLOSING = "]}";

/**
 * Sends JSON already written as the route's serializer writes it (no serialization again).
 * The single-Ticket routes are synchronous handlers: they call this and return nothing. An
 * `async` handler must return the reply it gives (else Fastify would send again); that costs a
 * promise, and Fastify then resolves it through `reply.then`, which adds and removes
 * end-of-stream listeners on every answer still waiting for its sync (docs/performance.md,
 * "The request path").
 */
export function sendJson(reply: FastifyReply, json: string | Buffer): FastifyReply {
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
export function sendListRuns(reply: FastifyReply, runs: readonly Buffer[]): FastifyReply {
  const { parts, length } = listParts(runs);
  reply.type(JSON_TYPE);
  if (length < STREAM_FROM_BYTES) return reply.send(Buffer.concat(parts, length));
  return reply.header("content-length", length).send(new ListAnswer(parts));
}
