import { Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import {
  bodyHash,
  checkIdempotencyKey,
  type IdempotencyService,
  type KeyedRequest,
} from "../domain/idempotency.js";
import type { TackApp } from "./types.js";

/**
 * `Idempotency-Key` on create endpoints (docs/api.md, "Coordination for agents"), the HTTP side:
 * routes opt in with `config: { idempotent: true }`. Before validation, a key seen before gets its
 * first answer again (or 422 when the path or body differ); a key in flight makes the duplicate
 * wait for the first request's answer. The answer is remembered when it is sent, also when the
 * client has left meanwhile (domain/idempotency.ts keeps it in the database for 24 hours; a 5xx is
 * not kept).
 */
export interface IdempotentRouteConfig {
  idempotent?: boolean;
}

export const IdempotencyKeyHeaders = Type.Object({
  "idempotency-key": Type.Optional(
    Type.String({
      description:
        "1-200 printable ASCII characters. A repeat with the same key, path and JSON-equal body " +
        "within 24 hours gets the first answer and writes nothing; the same key with another " +
        "path or body → 422.",
    }),
  ),
});

const KEYED = Symbol("idempotencyKeyed");
type KeyedRequestSlot = { [KEYED]?: KeyedRequest };

export function installIdempotencyKeys(app: TackApp, service: IdempotencyService): void {
  /** Requests being answered, by key: duplicates wait for these. */
  const inFlight = new Map<string, Promise<void>>();
  const finishers = new Map<string, () => void>();

  function finish(request: FastifyRequest): void {
    const keyed = (request as KeyedRequestSlot)[KEYED];
    if (!keyed) return;
    (request as KeyedRequestSlot)[KEYED] = undefined;
    finishers.get(keyed.key)?.();
    finishers.delete(keyed.key);
    inFlight.delete(keyed.key);
  }

  // Callback hooks: a request without a key passes without a promise or a microtask hop per
  // hook (docs/performance.md, "The request path").
  const recallOrClaim = (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
    const header = request.headers["idempotency-key"];
    if (header === undefined) return done();
    let key: string;
    try {
      key = checkIdempotencyKey(Array.isArray(header) ? header.join(",") : header);
    } catch (error) {
      return done(error as Error);
    }
    const keyed: KeyedRequest = {
      key,
      request: `${request.method} ${request.url}`,
      bodyHash: bodyHash(request.body),
    };
    // Runs now when no request with this key is being answered, else once it has been (and
    // checks again: another duplicate may have taken the key meanwhile).
    const attempt = (): void => {
      const running = inFlight.get(key);
      if (running) {
        void running.then(attempt);
        return;
      }
      let answer: ReturnType<IdempotencyService["recall"]>;
      try {
        answer = service.recall(keyed);
      } catch (error) {
        done(error as Error);
        return;
      }
      if (answer) {
        reply
          .code(answer.status)
          .header("content-type", "application/json; charset=utf-8")
          .send(answer.response);
        return;
      }
      inFlight.set(
        key,
        new Promise<void>((resolve) => {
          finishers.set(key, resolve);
        }),
      );
      (request as KeyedRequestSlot)[KEYED] = keyed;
      done();
    };
    attempt();
  };

  // Only routes that take a key run these hooks: any other request (a PATCH, a GET) has no
  // preValidation or onResponse hook to run.
  //
  // A client that leaves before its answer does not release the key: the key is claimed only
  // once the body has been read, and from there the handler goes on without its client and
  // sends its answer through onSend, which keeps it for the retry. Releasing when the client
  // leaves would let a retry write a second time while the first is still writing, and lose the
  // first answer (test/api/idempotency-keys.test.ts, "a client that leaves").
  app.addHook("onRoute", (route) => {
    if (!(route.config as IdempotentRouteConfig | undefined)?.idempotent) return;
    route.preValidation = withHook(route.preValidation, recallOrClaim);
    // Normally onSend has released the key already; this is for an answer that skipped it.
    route.onResponse = withHook(route.onResponse, (request, _reply, done) => {
      finish(request);
      done();
    });
  });

  // Every route's: it must run before durable-answers.ts's onSend, which waits for the sync of
  // the answer it stores, and route hooks run after the app's.
  app.addHook("onSend", (request, reply, payload, done) => {
    const keyed = (request as KeyedRequestSlot)[KEYED];
    if (!keyed) return done(null, payload);
    const response = typeof payload === "string" ? payload : "";
    try {
      service.remember(keyed, { status: reply.statusCode, response });
    } catch (error) {
      finish(request);
      return done(error as Error);
    }
    finish(request);
    done(null, payload);
  });
}

type HookDone = (error?: Error) => void;

/** A route's hooks of one kind (none, one or several) with `hook` after them. */
function withHook<T>(existing: T | T[] | undefined, hook: T): T[] {
  if (existing === undefined) return [hook];
  return Array.isArray(existing) ? [...existing, hook] : [existing, hook];
}
