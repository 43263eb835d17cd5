/**
 * The documented maxima of what one request may carry (docs/security.md, "Limits"). Each is far
 * above what real use produces, and each is answered with a 400 or 413 naming it, never a 500.
 */

/** Request body in bytes (CONTRACT §2); the board import has its own, larger limit. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

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
