import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { DomainError } from "../domain/errors.js";
import { isDiskFull } from "../storage/disk-space.js";
import type { DiskFullReports } from "./disk-full.js";
import { requestLogFields } from "./request-logging.js";
import { describeValidationError } from "./validation.js";

/**
 * The one error path. Every failure becomes `{ "error": "<sentence>" }` with the status its
 * class or Fastify code implies; 5xx details go to the log, never to the client.
 */
export function installErrorHandling(app: FastifyInstance, diskFull?: DiskFullReports): void {
  app.setErrorHandler((error: FastifyError, request, reply) =>
    answerError(error, request, reply, diskFull),
  );

  app.setNotFoundHandler((request, reply) => {
    return reply
      .status(404)
      .send({ error: `no route for ${request.method} ${request.url.split("?")[0]}` });
  });
}

/** Answers a failure with `{ "error": "..." }`; routes with their own 400 shape fall back to it. */
export function answerError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  diskFull?: DiskFullReports,
) {
  const { status, message } = classifyError(error);
  if ((status === 507 || (status === 500 && diskFull?.explains(error))) && diskFull) {
    // Logged once per run of failures (disk-full.ts), not per request.
    diskFull.failed(request.log, error);
    return reply.status(507).send({ error: diskFull.message() });
  }
  if (status >= 500) {
    request.log.error({ err: error, ...requestLogFields(request) }, "request failed");
  }
  return reply.status(status).send({ error: message });
}

/** Client-side failures raised by Fastify itself, and what we tell the client. */
const FASTIFY_CLIENT_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, "request body is too large"],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [400, "content-type must be application/json"],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, "content-length does not match the body"],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, "request body is empty"],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, "request body is not valid JSON"],
  FST_ERR_BAD_URL: [400, "request url is malformed"],
  FST_ERR_ASYNC_CONSTRAINT: [400, "request could not be routed"],
};

/** 507's sentence where the folder is not known (disk-full.ts's names it). */
const DISK_FULL = "the disk is full: tack could not write its database; free some space and retry";

/** The status and client-facing sentence of a failure (5xx details stay out of it). */
export function classifyError(error: FastifyError): { status: number; message: string } {
  if (error instanceof DomainError) return { status: error.status, message: error.message };
  if (isDiskFull(error)) return { status: 507, message: DISK_FULL };
  if (error.validation) {
    return {
      status: 400,
      message: describeValidationError(
        error.validation as never,
        error.validationContext ?? "body",
      ),
    };
  }
  const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
  if (known) return { status: known[0], message: known[1] };
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Other client errors from Fastify or its plugins: keep the status, give a generic sentence.
    return { status, message: "invalid request" };
  }
  return { status: 500, message: "internal error" };
}
