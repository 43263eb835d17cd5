import type { Db } from "./database.js";

export type TokenScope = "read-only" | "read-write";

/** A stored access token: never the token itself, only its hash. */
export interface AccessTokenRecord {
  id: number;
  name: string;
  scope: TokenScope;
  tokenHash: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

interface SqlToken {
  id: number;
  name: string;
  scope: TokenScope;
  token_hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

const fromSql = (row: SqlToken): AccessTokenRecord => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  tokenHash: row.token_hash,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
});

export interface NewAccessToken {
  name: string;
  scope: TokenScope;
  tokenHash: string;
  createdAt: string;
  expiresAt: string | null;
}

/**
 * The access_tokens and access_sessions tables (migration 010). Every read goes to SQLite, so a
 * token revoked by `tack token revoke` (another process) is seen by the server's next request.
 */
export function accessTokenStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO access_tokens (name, scope, token_hash, created_at, expires_at)
     VALUES (@name, @scope, @tokenHash, @createdAt, @expiresAt)`,
  );
  const all = db.prepare<[], SqlToken>("SELECT * FROM access_tokens ORDER BY id");
  const usable = db.prepare<[string], SqlToken>(
    `SELECT * FROM access_tokens
     WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
  );
  const activeByName = db.prepare<[string], SqlToken>(
    "SELECT * FROM access_tokens WHERE name = ? AND revoked_at IS NULL",
  );
  const revoke = db.prepare<[string, number]>(
    "UPDATE access_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
  );
  const touch = db.prepare<[string, number]>(
    "UPDATE access_tokens SET last_used_at = ? WHERE id = ?",
  );
  const insertSession = db.prepare<[number, string, string]>(
    "INSERT INTO access_sessions (token_id, session_hash, created_at) VALUES (?, ?, ?)",
  );
  const tokenOfSession = db.prepare<[string], SqlToken>(
    `SELECT t.* FROM access_sessions s JOIN access_tokens t ON t.id = s.token_id
     WHERE s.session_hash = ?`,
  );
  const deleteSession = db.prepare<[string]>("DELETE FROM access_sessions WHERE session_hash = ?");
  const deleteSessionsOf = db.prepare<[number]>("DELETE FROM access_sessions WHERE token_id = ?");

  return {
    insert(token: NewAccessToken): number {
      return Number(insert.run(token).lastInsertRowid);
    },
    list(): AccessTokenRecord[] {
      return all.all().map(fromSql);
    },
    /** Tokens neither revoked nor expired at `now` (ISO text). */
    usable(now: string): AccessTokenRecord[] {
      return usable.all(now).map(fromSql);
    },
    activeByName(name: string): AccessTokenRecord | undefined {
      const row = activeByName.get(name);
      return row && fromSql(row);
    },
    /** Marks the token revoked and ends its sessions. */
    revoke: db.transaction((id: number, at: string): void => {
      revoke.run(at, id);
      deleteSessionsOf.run(id);
    }),
    touch(id: number, at: string): void {
      touch.run(at, id);
    },
    insertSession(tokenId: number, sessionHash: string, createdAt: string): void {
      insertSession.run(tokenId, sessionHash, createdAt);
    },
    /** The token a session was made from, whatever its state now. */
    tokenOfSession(sessionHash: string): AccessTokenRecord | undefined {
      const row = tokenOfSession.get(sessionHash);
      return row && fromSql(row);
    },
    deleteSession(sessionHash: string): void {
      deleteSession.run(sessionHash);
    },
  };
}

export type AccessTokenStore = ReturnType<typeof accessTokenStore>;
