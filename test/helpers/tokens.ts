import type { AccessTokens } from "../../src/domain/access/access-tokens.js";
import { accessTokens } from "../../src/domain/access/access-tokens.js";
import { accessTokenStore } from "../../src/storage/access-tokens.js";
import { openDatabase } from "../../src/storage/database.js";

/**
 * Access tokens managed on the database file through a connection of its own, as `tack token`
 * does from another process while the server runs (the CLI itself: test/cli/tokens.test.ts).
 */
export function tokensOf(dbFile: string): AccessTokens & { close(): void } {
  const db = openDatabase(dbFile);
  return Object.assign(accessTokens(accessTokenStore(db)), { close: () => db.close() });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
