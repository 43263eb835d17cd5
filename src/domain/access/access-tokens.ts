import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type {
  AccessTokenRecord,
  AccessTokenStore,
  TokenScope,
} from "../../storage/access-tokens.js";
import { now, nowMillis } from "../clock.js";
import { Conflict, InvalidInput, NotFound } from "../errors.js";

/**
 * Access tokens (docs/api.md, "Access tokens"): created and revoked by `tack token` on the database
 * file, checked by the server on every request that needs one. A token is `tack_` and 256 random
 * bits; only its SHA-256 is stored. Nothing here ever returns a token except `create`, once.
 */

/** Who a request acts as when it presented a usable token or session. */
export interface TokenAccess {
  tokenName: string;
  readOnly: boolean;
}

export interface TokenSummary {
  name: string;
  scope: TokenScope;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** Neither revoked nor expired now. */
  usable: boolean;
}

const TOKEN_PREFIX = "tack_";
/** last_used_at is written at most this often per token: a busy client is not a write per request. */
const LAST_USE_RESOLUTION_MS = 60_000;
const MAX_EXPIRY_HOURS = 10 * 366 * 24;

export function accessTokens(store: AccessTokenStore) {
  const usableNow = (token: AccessTokenRecord) =>
    token.revokedAt === null && (token.expiresAt === null || token.expiresAt > now());

  const noteUse = (token: AccessTokenRecord) => {
    const last = token.lastUsedAt === null ? 0 : Date.parse(token.lastUsedAt);
    if (nowMillis() - last >= LAST_USE_RESOLUTION_MS) store.touch(token.id, now());
  };

  const access = (token: AccessTokenRecord): TokenAccess => {
    noteUse(token);
    return { tokenName: token.name, readOnly: token.scope === "read-only" };
  };

  /** The usable token whose hash is `hash`, compared in constant time against every one. */
  const findByToken = (secret: string): AccessTokenRecord | undefined => {
    const presented = sha256(secret);
    let found: AccessTokenRecord | undefined;
    for (const token of store.usable(now())) {
      // No early exit: the time taken does not depend on which token (if any) matched.
      if (timingSafeEqual(presented, Buffer.from(token.tokenHash, "hex"))) found = token;
    }
    return found;
  };

  return {
    /** Makes a token; the returned `token` is the only time it exists outside its holder. */
    create(input: { name: string; readOnly: boolean; expires?: string | undefined }): {
      token: string;
      summary: TokenSummary;
    } {
      const name = checkName(input.name);
      if (store.activeByName(name)) {
        throw new Conflict(`a token named "${name}" already exists; revoke it first`);
      }
      const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
      const expiresAt =
        input.expires === undefined
          ? null
          : new Date(nowMillis() + parseDuration(input.expires)).toISOString();
      store.insert({
        name,
        scope: input.readOnly ? "read-only" : "read-write",
        tokenHash: sha256(token).toString("hex"),
        createdAt: now(),
        expiresAt,
      });
      const summary = summarize(store.activeByName(name) as AccessTokenRecord);
      return { token, summary };
    },

    list(): TokenSummary[] {
      return store.list().map(summarize);
    },

    revoke(name: string): void {
      const token = store.activeByName(name);
      if (!token) throw new NotFound(`no token named "${name}" to revoke`);
      store.revoke(token.id, now());
    },

    /** Whether any token can be used now (`--allow-remote` refuses to start without one). */
    hasUsable(): boolean {
      return store.usable(now()).length > 0;
    },

    /** The access a bearer token gives, or undefined when it is unknown, revoked or expired. */
    authenticate(secret: string): TokenAccess | undefined {
      const token = findByToken(secret);
      return token && access(token);
    },

    /** Starts a browser session for a usable token; returns the session secret for the cookie. */
    startSession(secret: string): { session: string; access: TokenAccess } | undefined {
      const token = findByToken(secret);
      if (!token) return undefined;
      const session = randomBytes(32).toString("base64url");
      store.insertSession(token.id, sha256(session).toString("hex"), now());
      return { session, access: access(token) };
    },

    /** The access a session gives while its token is usable. */
    sessionAccess(session: string): TokenAccess | undefined {
      const token = store.tokenOfSession(sha256(session).toString("hex"));
      return token && usableNow(token) ? access(token) : undefined;
    },

    endSession(session: string): void {
      store.deleteSession(sha256(session).toString("hex"));
    },
  };

  function summarize(token: AccessTokenRecord): TokenSummary {
    return {
      name: token.name,
      scope: token.scope,
      createdAt: token.createdAt,
      expiresAt: token.expiresAt,
      revokedAt: token.revokedAt,
      lastUsedAt: token.lastUsedAt,
      usable: usableNow(token),
    };
  }
}

export type AccessTokens = ReturnType<typeof accessTokens>;

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (name.length < 1 || name.length > 100) {
    throw new InvalidInput("token name must be 1 to 100 characters");
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw new InvalidInput("token name must not contain control characters");
  }
  return name;
}

/** `30d` or `12h` → milliseconds. */
function parseDuration(text: string): number {
  const match = /^([1-9]\d{0,5})([dh])$/.exec(text.trim());
  const hours = match ? Number(match[1]) * (match[2] === "d" ? 24 : 1) : Number.NaN;
  if (!(hours <= MAX_EXPIRY_HOURS)) {
    throw new InvalidInput(
      `invalid expiry "${text}": expected a number of days or hours such as 30d or 12h, at most 10 years`,
    );
  }
  return hours * 3_600_000;
}
