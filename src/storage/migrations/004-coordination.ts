/**
 * Coordination for agents (docs/api.md, "Coordination for agents"): a per-ticket version, leased
 * claims and idempotency keys. Existing tickets start at version 1 and unclaimed.
 *
 * Claims live in their own table rather than as ticket columns: a claim is written and ended far
 * more often than the rest of the ticket changes, and an expired claim is simply a row whose
 * `expires_at` has passed (read as null; no background job deletes it).
 *
 * Timestamps are ISO 8601 UTC with milliseconds, so text order is time order.
 */
export const coordinationSchema = `
ALTER TABLE tickets ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

CREATE TABLE ticket_claims (
  ticket_id   INTEGER PRIMARY KEY REFERENCES tickets(id) ON DELETE CASCADE,
  -- The board the ticket was on when claimed: a claim does not follow a ticket to another board.
  board_id    INTEGER NOT NULL,
  actor       TEXT NOT NULL,
  claimed_at  TEXT NOT NULL,
  expires_at  TEXT NOT NULL
);

-- One row per Idempotency-Key: the request it was first used with (method and path, and a hash
-- of the JSON body) and the answer given, replayed for a repeat within 24 hours.
CREATE TABLE idempotency_keys (
  key           TEXT PRIMARY KEY,
  request       TEXT NOT NULL,
  body_hash     TEXT NOT NULL,
  status        INTEGER NOT NULL,
  response      TEXT NOT NULL,
  created_at    TEXT NOT NULL
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);
`;
