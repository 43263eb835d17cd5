import { createHash } from "node:crypto";
import type { IdempotencyKeyStore } from "../storage/idempotency-keys.js";
import { now, nowMillis } from "./clock.js";
import { InvalidInput, Unprocessable } from "./errors.js";

/** How long a key's answer is kept and replayed (docs/api.md, "Coordination for agents"). */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** 1-200 printable ASCII characters. */
const KEY_PATTERN = /^[\x20-\x7e]{1,200}$/;

/** The answer first given to a request with a key. */
export interface RememberedAnswer {
  status: number;
  response: string;
}

/** A request carrying an Idempotency-Key, as the rule compares it. */
export interface KeyedRequest {
  key: string;
  /** Method and path. */
  request: string;
  /** Hash of the JSON body (`bodyHash`). */
  bodyHash: string;
}

/** The key is known but was first used with another path or body (422). */
export class IdempotencyKeyReused extends Unprocessable {
  constructor() {
    super("idempotency key reused with a different request");
  }
}

/** Checks the header value; throws InvalidInput naming the header otherwise. */
export function checkIdempotencyKey(value: string): string {
  if (!KEY_PATTERN.test(value)) {
    throw new InvalidInput("idempotency-key must be 1-200 printable ascii characters");
  }
  return value;
}

/**
 * A hash of a JSON value that is equal for JSON-equal values: object keys are sorted, so
 * `{"a":1,"b":2}` and `{"b":2,"a":1}` are one body.
 */
export function bodyHash(body: unknown): string {
  return createHash("sha256")
    .update(canonicalJson(body ?? null))
    .digest("base64url");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Idempotency keys of create requests: answers are kept in the database (they survive a restart)
 * for 24 hours; a repeat gets the first answer, a key reused for another request is refused.
 */
export function idempotencyService(store: IdempotencyKeyStore) {
  const cutoff = () => new Date(nowMillis() - IDEMPOTENCY_KEY_LIFETIME_MS).toISOString();
  return {
    /**
     * The answer given to the first request with this key, or undefined for a new key. Throws
     * IdempotencyKeyReused when the key was used for another path or body.
     */
    recall(keyed: KeyedRequest): RememberedAnswer | undefined {
      const record = store.find(keyed.key, cutoff());
      if (!record) return undefined;
      if (record.request !== keyed.request || record.bodyHash !== keyed.bodyHash) {
        throw new IdempotencyKeyReused();
      }
      return { status: record.status, response: record.response };
    },

    /** Keeps the answer (never a 5xx: the request may be retried) and drops expired keys. */
    remember(keyed: KeyedRequest, answer: RememberedAnswer): void {
      if (answer.status >= 500) return;
      store.removeOlderThan(cutoff());
      store.put({ ...keyed, ...answer, createdAt: now() });
    },
  };
}

export type IdempotencyService = ReturnType<typeof idempotencyService>;
