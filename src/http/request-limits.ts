/**
 * The documented maxima of what one request may carry (docs/security.md, "Limits"). Each is far
 * above what real use produces, and each is answered with a 400 or 413 naming it, never a 500.
 */

/** Request body in bytes (docs/api.md, "Limits"); the board import has its own, larger limits. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** A board import with an Idempotency-Key, which is read whole (http/streamed-import.ts). */
export const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;
/**
 * Any other board import, read as it arrives: 1 GiB, five times the export of a 100,000-ticket
 * board with ~1 KB bodies (202 MB), which must also arrive within REQUEST_TIMEOUT_MS. Its scratch files need about three times the document's size
 * on the database's disk while it runs (docs/operations.md); this bound keeps one request from
 * filling a disk unnoticed.
 */
export const IMPORT_STREAM_BYTE_LIMIT = 1024 * 1024 * 1024;

/**
 * Levels a free-form object (`data` of a ticket event, `details` of a tag reason) may nest,
 * counting itself: `{}` is 1 level, `{"a":[1]}` is 2. The same limit holds in a board import,
 * so whatever an export contains imports again.
 */
export const FREE_OBJECT_MAX_DEPTH = 32;

/**
 * Levels a whole JSON body may nest. The deepest valid body (a free-form object inside a ticket
 * of a board import) nests 37; past this, a body is refused before it is parsed, so no code that
 * walks it recursively can exhaust the stack.
 */
export const BODY_MAX_DEPTH = 64;

/** The Ajv keyword that carries FREE_OBJECT_MAX_DEPTH on request schemas. */
export const MAX_DEPTH_KEYWORD = "x-max-depth";

/**
 * Time limits against slow or stalled clients (Node's http server): the headers must arrive
 * within HEADERS_TIMEOUT_MS and the whole request (a 64 MiB import included) within
 * REQUEST_TIMEOUT_MS, else 408; an idle keep-alive connection is closed after
 * KEEP_ALIVE_TIMEOUT_MS. Responses are not limited: board streams stay open.
 */
export const HEADERS_TIMEOUT_MS = 20_000;
export const REQUEST_TIMEOUT_MS = 120_000;
export const KEEP_ALIVE_TIMEOUT_MS = 10_000;

/** Request line and headers together, in bytes (Node's default); beyond, 431. */
export const MAX_HEADER_BYTES = 16 * 1024;

export interface ServerTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How often Node checks connections against the first two (tests make it short). */
  checkIntervalMs: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
  checkIntervalMs: 1000,
};

/**
 * Open board event streams, per board and in all (each holds a socket); beyond, 429. A board
 * followed by a person's tabs and a swarm of agents stays far below 256 (the benchmark fans a
 * change out to 100 clients of one board).
 */
export const MAX_STREAMS_PER_BOARD = 256;
export const MAX_STREAMS = 512;

/** Board import: tickets per document, and comments per ticket (far above real boards). */
export const MAX_IMPORT_TICKETS = 100_000;
export const MAX_IMPORT_COMMENTS_PER_TICKET = 10_000;
/** Board import: templates per document (each holds at most 200 tickets). */
export const MAX_IMPORT_TEMPLATES = 10_000;
