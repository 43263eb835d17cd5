/**
 * Access tokens for remote access (docs/api.md, "Access tokens") and the browser sessions made from
 * them.
 *
 * Only a SHA-256 hash of each token and session secret is stored: the secrets are random 256-bit
 * values, so a plain hash is enough (no salt or slow hash is needed against guessing), and a copy
 * of the database does not let anyone in. A revoked token keeps its row (its name stays in the
 * activity of the writes it made, `tack token list` shows it revoked); names are unique among the
 * tokens not revoked, so a name can be used again after its token was revoked.
 *
 * A session belongs to one token and lives as long as that token does: revoking or expiry ends it
 * with no second bookkeeping; `ON DELETE CASCADE` only tidies should a token row ever be deleted.
 */
export const accessTokensSchema = `
CREATE TABLE access_tokens (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  name          TEXT NOT NULL,
  scope         TEXT NOT NULL CHECK (scope IN ('read-only', 'read-write')),
  token_hash    TEXT NOT NULL UNIQUE,
  created_at    TEXT NOT NULL,
  expires_at    TEXT,
  revoked_at    TEXT,
  last_used_at  TEXT
);
CREATE UNIQUE INDEX access_tokens_active_name ON access_tokens(name) WHERE revoked_at IS NULL;

CREATE TABLE access_sessions (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  token_id      INTEGER NOT NULL REFERENCES access_tokens(id) ON DELETE CASCADE,
  session_hash  TEXT NOT NULL UNIQUE,
  created_at    TEXT NOT NULL
);
CREATE INDEX access_sessions_by_token ON access_sessions(token_id);
`;
