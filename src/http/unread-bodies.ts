import type { IncomingMessage } from "node:http";
import { IMPORT_BODY_LIMIT } from "./request-limits.js";
import type { TackApp } from "./types.js";

/**
 * Before an answer is sent, whatever is left of a request body nobody read (a GET's or HEAD's,
 * which Fastify never parses; an upload refused with 413 before its end) is read and thrown
 * away. Otherwise the server closes the connection (the client asked for `Connection: close`,
 * or Fastify does after a 413) while bytes of the request are still arriving; the operating
 * system then resets the connection and drops the part of the answer not yet delivered, and the
 * client gets a cut-off answer or none at all. Waiting is bounded by the request timeout.
 */

/** Beyond this many unread bytes, declared or counted, the server stops waiting for them. */
export const MAX_DISCARDED_BYTES = IMPORT_BODY_LIMIT;

export function installUnreadBodyDiscarding(app: TackApp): void {
  // Callback style: an answer whose request body was read (nearly all) is not delayed a tick.
  app.addHook("onSend", (request, _reply, payload, done) => {
    const discarding = discardUnreadBody(request.raw);
    if (discarding === undefined) done(null, payload);
    else void discarding.then(() => done(null, payload));
  });
}

/**
 * Reads the rest of the request body; the promise resolves once it has all arrived (or cannot).
 * Undefined when there is nothing to wait for.
 */
export function discardUnreadBody(message: IncomingMessage): Promise<void> | undefined {
  if (message.complete || message.readableEnded || message.destroyed) return undefined;
  // A client announcing more than any route accepts gets its answer at once instead.
  if (Number(message.headers["content-length"]) > MAX_DISCARDED_BYTES) return undefined;
  return new Promise((resolve) => {
    let discarded = 0;
    const stop = () => {
      message.off("data", count);
      message.off("end", stop);
      message.off("close", stop);
      message.off("error", stop);
      resolve();
    };
    const count = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > MAX_DISCARDED_BYTES) stop();
    };
    message.on("data", count);
    message.once("end", stop);
    message.once("close", stop);
    message.once("error", stop);
    message.resume();
  });
}
