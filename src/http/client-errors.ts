import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers beyond the size limit,
 * a client too slow to send its request, bytes that are not HTTP) get the same `{ "error" }`
 * body as every other refusal, and the connection is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, reason, message] =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "Request Timeout", "request timed out"]
      : error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", "request headers are too large"]
        : [400, "Bad Request", "malformed http request"];
  const body = JSON.stringify({ error: message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * URLs the router refuses before any route runs (a path parameter over 100 characters, bad
 * percent-encoding): the usual `{ "error" }` body instead of Fastify's own shape.
 */
export function answerFrameworkError(
  error: Error & { code?: string },
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    reply.code(414).send({ error: "a path parameter is too long" });
  } else if (error.code === "FST_ERR_BAD_URL") {
    reply.code(400).send({ error: "request url is malformed" });
  } else {
    reply.code(400).send({ error: "request could not be routed" });
  }
}
