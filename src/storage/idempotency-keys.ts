import type { Db } from "./database.js";

/** A stored Idempotency-Key with the request it was first used for and the answer given. */
export interface IdempotencyRecord {
  key: string;
  /** Method and path of the first request. */
  request: string;
  /** Hash of the first request's JSON body (domain/idempotency.ts). */
  bodyHash: string;
  status: number;
  response: string;
  createdAt: string;
}

interface SqlRecord {
  key: string;
  request: string;
  body_hash: string;
  status: number;
  response: string;
  created_at: string;
}

export function idempotencyKeyStore(db: Db) {
  const byKey = db.prepare<[string, string], SqlRecord>(
    "SELECT * FROM idempotency_keys WHERE key = ? AND created_at >= ?",
  );
  // A key whose record has expired may be used afresh: the new record replaces it.
  const put = db.prepare(
    `INSERT OR REPLACE INTO idempotency_keys (key, request, body_hash, status, response, created_at)
     VALUES (@key, @request, @bodyHash, @status, @response, @createdAt)`,
  );
  const removeOlder = db.prepare<[string]>("DELETE FROM idempotency_keys WHERE created_at < ?");

  return {
    /** The record of `key` created at or after `since`, if any. */
    find(key: string, since: string): IdempotencyRecord | undefined {
      const row = byKey.get(key, since);
      return (
        row && {
          key: row.key,
          request: row.request,
          bodyHash: row.body_hash,
          status: row.status,
          response: row.response,
          createdAt: row.created_at,
        }
      );
    },

    put(record: IdempotencyRecord): void {
      put.run(record);
    },

    /** Deletes the records created before `before`. */
    removeOlderThan(before: string): void {
      removeOlder.run(before);
    },
  };
}

export type IdempotencyKeyStore = ReturnType<typeof idempotencyKeyStore>;
