import type { FastifyRequest } from "fastify";
import type { Durable } from "../storage/group-commit.js";
import type { TackApp } from "./types.js";

/**
 * False when every change committed so far is on disk; otherwise calls `done` once they are
 * (storage/group-commit.ts).
 */
export type AfterDurable = (done: Durable) => boolean;

/** Marks a request whose wait failed: its error answer must not wait for a sync again. */
const SYNC_FAILED = Symbol("syncFailed");
type MarkedRequest = FastifyRequest & { [SYNC_FAILED]?: true };

/**
 * No answer leaves before the changes it may show are on disk (storage/group-commit.ts): the
 * answer to a write, and also a read that saw a write committed a moment ago whose sync is still
 * running. Installed after every hook that writes while sending (Idempotency-Key answers are
 * stored in onSend), so their rows are covered too. A failed sync answers 500 with `{error}`.
 */
export function installDurableAnswers(app: TackApp, afterDurable: AfterDurable): void {
  // A callback hook: an answer with nothing to wait for passes without a promise.
  app.addHook("onSend", (request: MarkedRequest, _reply, payload, done) => {
    if (request[SYNC_FAILED]) return done(null, payload);
    let waiting: boolean;
    try {
      waiting = afterDurable((error) => {
        if (error === null) return done(null, payload);
        request[SYNC_FAILED] = true;
        done(error);
      });
    } catch (error) {
      request[SYNC_FAILED] = true;
      return done(error as Error);
    }
    if (!waiting) done(null, payload);
  });
}
