import assert from "node:assert/strict";
import { networkInterfaces } from "node:os";
import { describe, test } from "node:test";
import { useClock } from "../../src/domain/clock.js";
import { startTestServer } from "../helpers/server.js";
import { bearer, tokensOf } from "../helpers/tokens.js";

// Tokens and their rules (docs/api.md, "Access tokens") through real HTTP against a real SQLite
// file; the tokens are made and revoked through a second connection, as `tack token` does
// meanwhile. Every route family against every token state: test/trust/hostile-network.test.ts.

describe("without --require-token, on loopback", () => {
  test("requests need no token, whether tokens exist or not; a presented one still counts", async () => {
    const api = await startTestServer();
    assert.equal((await api.get("/api/boards")).status, 200);
    const tokens = tokensOf(api.dbFile);
    const { token: reader } = tokens.create({ name: "reader", readOnly: true });
    const { token: writer } = tokens.create({ name: "writer", readOnly: false });
    tokens.close();

    const board = await api.post("/api/boards", { name: "Still open" });
    assert.equal(board.status, 201);
    // A read-only token limits the client that chose to send it.
    const refused = await api.request("POST", "/api/boards", { name: "x" }, bearer(reader));
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { error: "token is read-only" });
    // An unusable one is ignored: the request needed none.
    const ignored = await api.request("GET", "/api/boards", undefined, bearer("tack_wrong"));
    assert.equal(ignored.status, 200);

    // Writes made with a token name it in their activity (details.via); others do not.
    const boardId = board.body.board.id;
    const laneId = board.body.lanes[0].id;
    const plain = await api.post(`/api/boards/${boardId}/tickets`, { laneId, title: "plain" });
    const viaToken = await api.request(
      "POST",
      `/api/boards/${boardId}/tickets`,
      { laneId, title: "via token" },
      bearer(writer),
    );
    assert.equal(viaToken.status, 201, viaToken.text);
    const edited = await api.request(
      "PATCH",
      `/api/tickets/${plain.body.id}`,
      { title: "renamed" },
      bearer(writer),
    );
    assert.equal(edited.status, 200, edited.text);
    const plainLog = (await api.get(`/api/tickets/${plain.body.id}/activity`)).body.activity;
    const created = plainLog.find((entry: { action: string }) => entry.action === "ticket_created");
    assert.equal(created.details.via, undefined);
    const edit = plainLog.find((entry: { action: string }) => entry.action !== "ticket_created");
    assert.equal(edit.details.via, "writer");
    const tokenLog = (await api.get(`/api/tickets/${viaToken.body.id}/activity`)).body.activity;
    assert.equal(tokenLog[0].details.via, "writer");

    const listed = tokensOf(api.dbFile);
    const writerRow = listed.list().find((row) => row.name === "writer");
    listed.close();
    assert.ok(writerRow?.lastUsedAt, "last use is recorded");
  });
});

describe("with --require-token", () => {
  test("no, wrong, expired, revoked and read-only tokens; revocation from the next request on", async () => {
    const api = await startTestServer({ requireToken: true });
    const tokens = tokensOf(api.dbFile);
    const { token: writer } = tokens.create({ name: "writer", readOnly: false });
    const { token: reader } = tokens.create({ name: "reader", readOnly: true });
    const { token: shortLived } = tokens.create({ name: "short", readOnly: false, expires: "1h" });

    const missing = await api.get("/api/boards");
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get("www-authenticate"), 'Bearer realm="tack"');
    assert.deepEqual(Object.keys(missing.body), ["error"]);

    const wrong = await api.request("GET", "/api/boards", undefined, bearer(`${writer}x`));
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get("www-authenticate"), 'Bearer realm="tack"');

    assert.equal((await api.request("GET", "/api/boards", undefined, bearer(writer))).status, 200);
    const made = await api.request("POST", "/api/boards", { name: "B" }, bearer(writer));
    assert.equal(made.status, 201);
    assert.equal((await api.request("GET", "/api/boards", undefined, bearer(reader))).status, 200);
    const readOnly = await api.request("POST", "/api/boards", { name: "C" }, bearer(reader));
    assert.equal(readOnly.status, 403);
    assert.deepEqual(readOnly.body, { error: "token is read-only" });

    assert.equal(
      (await api.request("GET", "/api/boards", undefined, bearer(shortLived))).status,
      200,
    );
    const restore = useClock(() => Date.now() + 3_600_000 + 1000);
    try {
      const expired = await api.request("GET", "/api/boards", undefined, bearer(shortLived));
      assert.equal(expired.status, 401);
      assert.deepEqual(expired.body, wrong.body, "expired answers as unknown does");
    } finally {
      restore();
    }

    tokens.revoke("writer");
    tokens.close();
    const revoked = await api.request("GET", "/api/boards", undefined, bearer(writer));
    assert.equal(revoked.status, 401);
    assert.deepEqual(revoked.body, wrong.body, "revoked answers as unknown does");
  });

  test("a browser opening a page gets the sign-in page with its 401; assets and the API get JSON", async () => {
    const api = await startTestServer({ requireToken: true });
    const page = await api.request("GET", "/boards/1", undefined, { accept: "text/html" });
    assert.equal(page.status, 401);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(page.text, /Sign in to tack/);
    assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'sha256-/);
    const api401 = await api.request("GET", "/api/boards", undefined, { accept: "text/html" });
    assert.deepEqual(Object.keys(api401.body), ["error"]);
    const asset = await api.request("GET", "/assets/x.js", undefined, { accept: "*/*" });
    assert.equal(asset.status, 401);
    // Unknown paths answer 401 too: a client without a token learns nothing about routes.
    assert.equal((await api.get("/api/nowhere")).status, 401);
  });
});

describe("failed attempts", () => {
  test("after 10 refused tokens within a minute the address gets 429 until the minute has passed", async () => {
    const api = await startTestServer({ requireToken: true });
    const tokens = tokensOf(api.dbFile);
    const { token } = tokens.create({ name: "good", readOnly: false });
    tokens.close();
    let clock = Date.now();
    const restore = useClock(() => clock);
    try {
      // Requests without any token are not failed attempts.
      for (let i = 0; i < 12; i++) assert.equal((await api.get("/api/boards")).status, 401);
      for (let i = 0; i < 9; i++) {
        const wrong = await api.request("GET", "/api/boards", undefined, bearer(`tack_no${i}`));
        assert.equal(wrong.status, 401);
      }
      const session = await api.post("/api/session", { token: "tack_not-a-token" });
      assert.equal(session.status, 401, "a refused sign-in is the 10th");
      const limited = await api.request("GET", "/api/boards", undefined, bearer(token));
      assert.equal(limited.status, 429, "even a good token waits");
      assert.deepEqual(Object.keys(limited.body), ["error"]);
      assert.equal(limited.headers.get("retry-after"), "60");
      assert.equal((await api.post("/api/session", { token })).status, 429);
      clock += 30_000;
      const later = await api.request("GET", "/api/boards", undefined, bearer(token));
      assert.equal(later.status, 429);
      assert.equal(later.headers.get("retry-after"), "30");
      clock += 30_001;
      assert.equal((await api.request("GET", "/api/boards", undefined, bearer(token))).status, 200);
    } finally {
      restore();
    }
  });
});

describe("session cookie", () => {
  test("sign in, use, sign out; read-only scope; ends with its token", async () => {
    const api = await startTestServer({ requireToken: true });
    const tokens = tokensOf(api.dbFile);
    const { token } = tokens.create({ name: "browser", readOnly: false });
    const { token: reader } = tokens.create({ name: "viewer", readOnly: true });

    const refused = await api.post("/api/session", { token: "tack_guess" });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get("set-cookie"), null);

    const signIn = await api.post("/api/session", { token });
    assert.equal(signIn.status, 204, signIn.text);
    const setCookie = signIn.headers.get("set-cookie") ?? "";
    assert.match(setCookie, /^tack_session=[\w-]{43};/);
    assert.match(setCookie, /; HttpOnly/);
    assert.match(setCookie, /; SameSite=Strict/);
    assert.match(setCookie, /; Path=\//);
    assert.doesNotMatch(setCookie, /Secure/, "not over plain http");
    assert.ok(!setCookie.includes(token), "the cookie is not the token");
    const cookie = { cookie: setCookie.split(";")[0] as string };

    assert.equal((await api.request("GET", "/api/boards", undefined, cookie)).status, 200);
    const state = await api.request("GET", "/api/session", undefined, cookie);
    assert.deepEqual(state.body, { signedIn: true, readOnly: false });
    const made = await api.request("POST", "/api/boards", { name: "From the UI" }, cookie);
    assert.equal(made.status, 201);
    const log = await api.request(
      "POST",
      `/api/boards/${made.body.board.id}/tickets`,
      { laneId: made.body.lanes[0].id, title: "t" },
      cookie,
    );
    const activity = await api.request(
      "GET",
      `/api/tickets/${log.body.id}/activity`,
      undefined,
      cookie,
    );
    assert.equal(activity.body.activity[0].details.via, "browser");

    const signOut = await api.request("DELETE", "/api/session", undefined, cookie);
    assert.equal(signOut.status, 204);
    assert.match(signOut.headers.get("set-cookie") ?? "", /^tack_session=; Max-Age=0;/);
    assert.equal((await api.request("GET", "/api/boards", undefined, cookie)).status, 401);

    const readerSignIn = await api.post("/api/session", { token: reader });
    const readerCookie = {
      cookie: (readerSignIn.headers.get("set-cookie") ?? "").split(";")[0] as string,
    };
    assert.equal((await api.request("GET", "/api/boards", undefined, readerCookie)).status, 200);
    const write = await api.request("POST", "/api/boards", { name: "no" }, readerCookie);
    assert.equal(write.status, 403);
    assert.deepEqual(write.body, { error: "token is read-only" });
    // A read-only session may still sign out; here its token is revoked instead.
    tokens.revoke("viewer");
    tokens.close();
    assert.equal((await api.request("GET", "/api/boards", undefined, readerCookie)).status, 401);
  });
});

describe("requests from another machine", () => {
  // A real non-loopback peer: the server listens on this machine's network address and the test
  // connects to it there, so the socket's peer is that address, not 127.0.0.1.
  const address = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && !entry.internal && entry.family === "IPv4")?.address;

  test("need a token even without --require-token; forwarded headers change nothing", {
    skip: address === undefined && "no non-loopback IPv4 address on this machine",
  }, async () => {
    const api = await startTestServer({ host: address, allowedHosts: [address as string] });
    const missing = await api.get("/api/boards");
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get("www-authenticate"), 'Bearer realm="tack"');
    const forwarded = await api.request("GET", "/api/boards", undefined, {
      "x-forwarded-for": "127.0.0.1",
      forwarded: "for=127.0.0.1",
    });
    assert.equal(forwarded.status, 401);
    const tokens = tokensOf(api.dbFile);
    const { token } = tokens.create({ name: "laptop", readOnly: false });
    tokens.close();
    assert.equal((await api.request("GET", "/api/boards", undefined, bearer(token))).status, 200);
    const wrong = await api.request("GET", "/api/boards", undefined, bearer("tack_x"));
    assert.equal(wrong.status, 401, "an unusable token is refused, not ignored");
  });
});
