import type { FastifyBaseLogger, FastifyRequest, FastifyServerOptions } from "fastify";

/** The levels at which Fastify's per-request lines ("incoming request", "request completed") show. */
const REQUEST_LINE_LEVELS = new Set(["info", "debug", "trace"]);

/**
 * Fastify gives every request a child logger bound to its id, for the request's lines. At
 * `warn` and above (tack's default) Fastify's per-request lines are never written, yet every
 * request paid for its child (a pino object made with its bindings serialized): there, requests
 * share the server's logger, and the rare line a request does write (a 5xx, errors.ts) names its
 * request with `requestLogFields` (docs/performance.md, "The request path"). At `info` and below, a
 * child per request as before, its lines carrying `reqId`.
 */
export function requestLoggerOptions(
  logger: FastifyServerOptions["logger"],
): Pick<FastifyServerOptions, "childLoggerFactory"> {
  // No logger: Fastify already gives requests its silent one. Pino's level defaults to info.
  if (logger === undefined || logger === false) return {};
  const level = typeof logger === "object" ? (logger.level ?? "info") : "info";
  if (REQUEST_LINE_LEVELS.has(level)) return {};
  return { childLoggerFactory: (serverLogger: FastifyBaseLogger) => serverLogger };
}

/** `reqId` for a line a request writes, unless its logger is a child that already binds it. */
export function requestLogFields(request: FastifyRequest): { reqId?: string } {
  return request.log === request.server.log ? { reqId: request.id } : {};
}
