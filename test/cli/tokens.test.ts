import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli } from "../helpers/cli.js";
import { startTestServer } from "../helpers/server.js";
import { bearer } from "../helpers/tokens.js";

// `tack token create|list|revoke` on the database file (docs/api.md, "Access tokens"), while a
// server runs on it; and the client commands sending TACK_TOKEN.

const folder = mkdtempSync(join(tmpdir(), "tack-tokens-cli-"));
after(() => rmSync(folder, { recursive: true, force: true }));

test("create prints the token once, last; list never shows it; revoke applies from the next request", async () => {
  const dbFile = join(folder, "tack.sqlite");
  const api = await startTestServer({ dbFile, requireToken: true });
  const env = { TACK_DB_FILE: dbFile };

  const [phone, reader, duplicate, badExpiry] = await Promise.all([
    runCli(["token", "create", "--name", "phone", "--expires", "30d"], env),
    runCli(["token", "create", "--name", "reader", "--read-only"], env),
    runCli(["token", "create", "--name", "", "--db", dbFile]),
    runCli(["token", "create", "--name", "later", "--expires", "soon"], env),
  ]);
  assert.equal(phone.code, 0, phone.stderr);
  const lines = phone.stdout.trim().split("\n");
  const token = lines.at(-1) as string;
  assert.match(token, /^tack_[\w-]{43}$/);
  assert.equal(phone.stdout.split(token).length, 2, "printed exactly once");
  assert.match(lines[0] as string, /read-write token "phone", expires 20\d\d-/);
  assert.equal(reader.code, 0, reader.stderr);
  assert.equal(duplicate.code, 2, duplicate.stderr);
  assert.match(duplicate.stderr, /^tack: token name must be 1 to 100 characters\n$/);
  assert.equal(badExpiry.code, 2);
  assert.match(badExpiry.stderr, /invalid expiry "soon"/);

  const again = await runCli(["token", "create", "--name", "phone"], env);
  assert.equal(again.code, 4);
  assert.match(again.stderr, /a token named "phone" already exists/);

  assert.equal((await api.request("GET", "/api/boards", undefined, bearer(token))).status, 200);
  const [list, clientWithToken, clientWithout] = await Promise.all([
    runCli(["token", "list"], env),
    runCli(["board", "list", "--json"], { TACK_URL: api.url, TACK_TOKEN: token }),
    runCli(["board", "list"], { TACK_URL: api.url }),
  ]);
  assert.equal(list.code, 0, list.stderr);
  assert.ok(!list.stdout.includes(token));
  assert.match(list.stdout, /^NAME\s+SCOPE\s+STATE\s+CREATED\s+EXPIRES\s+LAST USED$/m);
  assert.match(list.stdout, /^phone\s+read-write\s+usable\s+\S+\s+20\d\d-\S+\s+20\d\d-\S+$/m);
  assert.match(list.stdout, /^reader\s+read-only\s+usable\s+\S+\s+never\s+never$/m);
  assert.equal(clientWithToken.code, 0, clientWithToken.stderr);
  assert.equal(clientWithout.code, 1);
  assert.match(clientWithout.stderr, /^tack: an access token is required\nhint: .*TACK_TOKEN/);

  const [revoke, unknown] = await Promise.all([
    runCli(["token", "revoke", "phone"], env),
    runCli(["token", "revoke", "nobody"], env),
  ]);
  assert.equal(revoke.code, 0, revoke.stderr);
  assert.equal(unknown.code, 3);
  assert.equal((await api.request("GET", "/api/boards", undefined, bearer(token))).status, 401);
  const listed = await runCli(["token", "list", "--json"], env);
  const phoneRow = JSON.parse(listed.stdout).find((row: { name: string }) => row.name === "phone");
  assert.equal(phoneRow.usable, false);
  assert.ok(phoneRow.revokedAt);
  assert.ok(!listed.stdout.includes(token));
});
