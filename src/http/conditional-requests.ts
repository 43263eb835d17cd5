import { createHash } from "node:crypto";
import { Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { BoardState, EntityTags, TicketState } from "../domain/entity-tags.js";
import { RecentKeys } from "../kept-answers/recent-keys.js";
import type { TackApp } from "./types.js";

/**
 * Conditional requests (RFC 9110, docs/api.md, "Coordination for agents"), the HTTP side only:
 * parsing `If-Match` and `If-None-Match`, answering 304, and a strong `ETag` on every successful
 * GET. Routes that know their entity tag before building the answer (a ticket, a board's ticket
 * list) set it first and may answer from an `AnswerCache`; any other GET gets a tag hashed from its
 * serialized body.
 */

/** Route config flag of GETs that must not get an ETag (the event stream). */
export interface ConditionalRouteConfig {
  noEntityTag?: boolean;
}

/** Request headers of conditional writes, for route schemas (and so for OpenAPI). */
export const IfMatchHeaders = Type.Object({
  "if-match": Type.Optional(
    Type.String({
      description:
        "The ticket's ETag (from GET /api/tickets/{id}); anything else → 412 and nothing is " +
        "written. `*` or no header: unconditional.",
    }),
  ),
});

/** Request headers of GETs. */
export const IfNoneMatchHeaders = Type.Object({
  "if-none-match": Type.Optional(
    Type.String({ description: "An ETag from an earlier answer: 304 with no body if current." }),
  ),
});

export const NOT_MODIFIED = {
  304: Type.Null({
    description:
      "Not Modified: If-None-Match names the current ETag (every 200 answer of a GET carries a " +
      "strong ETag); no body.",
  }),
};

/** Parses `If-Match`/`If-None-Match`: "*" or the list of strong tags (weak ones never match). */
export function parseTagList(header: string | undefined): "*" | string[] | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === "*") return "*";
  const tags: string[] = [];
  for (const match of header.matchAll(/(W\/)?("[^"]*")/g)) {
    if (!match[1]) tags.push(match[2] as string);
  }
  return tags;
}

function matchesNoneMatch(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  // If-None-Match compares weakly: W/"x" names the same state as "x".
  for (const match of header.matchAll(/(?:W\/)?("[^"]*")/g)) if (match[1] === tag) return true;
  return false;
}

/** A ticket's entity tag: `"t<id>.<version>"`, `.x` appended once its stored claim expired. */
export const ticketTag = (state: TicketState): string =>
  `"t${state.ticketId}.${state.version}${state.claimExpired ? ".x" : ""}"`;

/** A board's lists' entity tag: `"b<id>.<epoch>.<revision>"`, `.<next clock change>` if any. */
export function boardTag(state: BoardState): string {
  const clock = state.nextClockChange;
  const next = clock === null ? "" : `.${Date.parse(clock).toString(36)}`;
  return `"b${state.boardId}.${state.epoch}.${state.revision}${next}"`;
}

/** The current entity tag of a ticket; undefined: no such ticket. */
export function ticketTagOf(tags: EntityTags, ticketId: number): string | undefined {
  const state = tags.ticketState(ticketId);
  return state && ticketTag(state);
}

/** The current entity tag of a board's lists; undefined: no such board. */
export function boardTagOf(tags: EntityTags, boardId: number): string | undefined {
  const state = tags.boardState(boardId);
  return state && boardTag(state);
}

/**
 * The request's `If-Match` as a test of a ticket's state (`entityTags.whenCurrent`): undefined
 * when the write is unconditional (no header, or `*`).
 */
export function ifMatchTest(
  request: FastifyRequest,
): ((state: TicketState) => boolean) | undefined {
  const tags = parseTagList(request.headers["if-match"]);
  if (tags === undefined || tags === "*") return undefined;
  return (state) => tags.includes(ticketTag(state));
}

/**
 * Below this many characters an answer is kept and sent as the string it was serialized to:
 * Node encodes a small string straight into the socket write, while `Buffer.from` allocates a
 * fresh ArrayBuffer per answer, which cost more than the encoding it saves (docs/performance.md,
 * "The answer cache and conditional GETs"). Larger answers (lists, exports) are kept as UTF-8
 * bytes, encoded once.
 */
const KEEP_AS_TEXT_BELOW = 64 * 1024;

/** How many keys an `admitOnRepeat` cache remembers having answered once. */
const SEEN_KEYS = 16_384;

/**
 * Serialized answers by key, each valid for one entity tag; bounded in total bytes. Large ones
 * are kept as UTF-8 buffers: sending one is a copy to the socket, with no string flattening or
 * encoding per read.
 *
 * With `admitOnRepeat`, an answer is kept only when the same key and tag are answered a second
 * time: a client reading every ticket of a board once (an agent going through it, the bench)
 * would otherwise push out the tickets a UI keeps asking for, and make the garbage collector
 * promote and drop one answer per request (docs/performance.md, "The answer cache and conditional
 * GETs").
 */
export class AnswerCache {
  private readonly entries = new Map<
    string,
    { tag: string; body: string | Buffer; bytes: number }
  >();
  private size = 0;
  /** Keys answered once, with the tag they had (admitOnRepeat only); oldest first. */
  private readonly seen = new RecentKeys<string, string>(SEEN_KEYS);

  constructor(
    private readonly maxBytes: number,
    private readonly options: { admitOnRepeat?: boolean } = {},
  ) {}

  get(key: string, tag: string): string | Buffer | undefined {
    const entry = this.entries.get(key);
    return entry && entry.tag === tag ? entry.body : undefined;
  }

  /**
   * Keeps the answer if it fits; returns what to send (the bytes of a large answer). An answer
   * that is bytes already (a Ticket joined from kept pieces) is kept as it is.
   */
  set(key: string, tag: string, text: string | Buffer): string | Buffer {
    const body =
      typeof text !== "string" || text.length < KEEP_AS_TEXT_BELOW
        ? text
        : Buffer.from(text, "utf8");
    // Whatever was kept under this key answered an older tag: it can never be sent again
    // (`keep` replaces it).
    if (this.admits(key, tag)) this.keep(key, tag, body);
    else this.delete(key);
    return body;
  }

  /**
   * For an answer gathered whole at a cost only worth paying when it will be kept (a streamed
   * export): whether an answer for `key` at `tag` is admitted now, counting this one as
   * answered (admitOnRepeat). Hand the admitted answer to `keep`.
   */
  admit(key: string, tag: string): boolean {
    this.delete(key);
    return this.admits(key, tag);
  }

  /** Keeps an admitted answer if it fits (see `admit`). */
  keep(key: string, tag: string, body: string | Buffer): void {
    // A string's UTF-16 size bounds its UTF-8 one closely enough for a memory bound.
    const bytes = typeof body === "string" ? body.length * 2 : body.length;
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { tag, body, bytes });
    this.size += bytes;
    // Oldest first out (Map keeps insertion order; a refreshed entry moves to the end).
    for (const [oldest] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  /** Whether to keep this answer: always, or (admitOnRepeat) on its second time. */
  private admits(key: string, tag: string): boolean {
    if (!this.options.admitOnRepeat) return true;
    if (this.seen.take(key) === tag) return true;
    this.seen.note(key, tag);
    return false;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.size -= entry.bytes;
    this.entries.delete(key);
  }
}

const CACHE_SLOT = Symbol("answerCacheSlot");
interface CacheSlot {
  cache: AnswerCache;
  key: string;
  tag: string;
}

/**
 * For a GET whose entity tag is known before its answer is built: answers 304 when the client
 * has it, or the cached serialized answer; otherwise sets the ETag, remembers where to cache the
 * answer once serialized, and returns false (the handler builds it). Call it and build the
 * answer in the same tick, so the tag and the answer describe the same state.
 */
export function answerFromTag(
  request: FastifyRequest,
  reply: FastifyReply,
  tag: string,
  cache?: { store: AnswerCache; key: string },
): boolean {
  reply.header("etag", tag);
  if (matchesNoneMatch(request.headers["if-none-match"], tag)) {
    reply.code(304).send();
    return true;
  }
  const cached = cache?.store.get(cache.key, tag);
  if (cached !== undefined) {
    reply.header("content-type", "application/json; charset=utf-8").send(cached);
    return true;
  }
  if (cache) {
    (request as unknown as Record<symbol, CacheSlot>)[CACHE_SLOT] = {
      cache: cache.store,
      key: cache.key,
      tag,
    };
  }
  return false;
}

/**
 * Every successful GET answers a strong ETag and honours If-None-Match. Answers whose route set
 * no tag get one from a hash of the body (still cheaper for the client than the body).
 */
export function installConditionalGets(app: TackApp): void {
  // Document it on every GET route: the If-None-Match header and the 304 answer.
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes("GET") || !route.schema || route.schema.hide) return;
    if ((route.config as ConditionalRouteConfig | undefined)?.noEntityTag) return;
    const schema = route.schema as { headers?: unknown; response?: Record<string, unknown> };
    schema.headers ??= IfNoneMatchHeaders;
    schema.response = { ...NOT_MODIFIED, ...schema.response };
  });
  // A callback hook: most answers pass through untouched, without a promise per request.
  app.addHook("onSend", (request, reply, payload, done) => {
    done(null, withEntityTag(request, reply, payload));
  });
}

/** The payload to send: tagged (or 304) for a successful GET, anything else as it is. */
function withEntityTag(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (request.method !== "GET" && request.method !== "HEAD") return payload;
  if (reply.statusCode !== 200) return payload;
  if ((reply.routeOptions.config as ConditionalRouteConfig).noEntityTag) return payload;
  if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
  let body: string | Buffer = payload;
  const slot = (request as unknown as Record<symbol, CacheSlot | undefined>)[CACHE_SLOT];
  // The cached bytes go to the socket too: a string payload would be encoded a second time
  // (for a 20 MiB export, a second 20 MiB buffer to allocate and fill).
  if (slot) body = slot.cache.set(slot.key, slot.tag, body);
  let tag = reply.getHeader("etag");
  if (typeof tag !== "string") {
    tag = `"h${createHash("sha1").update(body).digest("base64url")}"`;
    reply.header("etag", tag);
  }
  if (matchesNoneMatch(request.headers["if-none-match"], tag)) {
    reply.code(304);
    return "";
  }
  return body;
}
