import type { FastifyRequest } from "fastify";
import type { TackApp } from "./types.js";

/** Resolves once every change committed so far is on disk; null when it already is. */
export type WhenDurable = () => Promise<void> | null;

/** Marks a request whose wait failed: its error answer must not wait for a sync again. */
const SYNC_FAILED = Symbol("syncFailed");
type MarkedRequest = FastifyRequest & { [SYNC_FAILED]?: true };

/**
 * No answer leaves before the changes it may show are on disk (storage/group-commit.ts): the
 * answer to a write, and also a read that saw a write committed a moment ago whose sync is still
 * running. Installed after every hook that writes while sending (Idempotency-Key answers are
 * stored in onSend), so their rows are covered too. A failed sync answers 500 with `{error}`.
 */
export function installDurableAnswers(app: TackApp, whenDurable: WhenDurable): void {
  app.addHook("onSend", (request: MarkedRequest, _reply, payload, done) => {
    let durable: Promise<void> | null;
    try {
      durable = request[SYNC_FAILED] ? null : whenDurable();
    } catch (error) {
      request[SYNC_FAILED] = true;
      return done(error as Error);
    }
    if (!durable) return done(null, payload);
    durable.then(
      () => done(null, payload),
      (error: Error) => {
        request[SYNC_FAILED] = true;
        done(error);
      },
    );
  });
}
