import assert from "node:assert/strict";
import { after, test } from "node:test";
import { useClock } from "../../src/domain/clock.js";
import { registeredRoutes } from "../helpers/routes.js";
import { startTestServer } from "../helpers/server.js";
import { bearer, tokensOf } from "../helpers/tokens.js";

// A server started with --require-token, as on a hostile network: a client with no token, a
// wrong, an expired, a revoked and a read-only one, against every route the app registers (the
// API, the event stream, the UI's pages and files, /mcp once it exists, and an unknown path).
// Nothing is read or written without a usable token; a read-only one only reads. The cookie path
// in a real browser: test/ui/sign-in.test.ts.

// Every request moves the clock 7 s on, so the refusals never make 10 within a minute and the
// 429 limit (test/api/access-tokens.test.ts) stays out of the way.
let clock = Date.now();
const restoreClock = useClock(() => clock);
after(restoreClock);
const tick = () => {
  clock += 7_000;
};

const api = await startTestServer({ requireToken: true });
const tokens = tokensOf(api.dbFile);
const writer = tokens.create({ name: "writer", readOnly: false }).token;
const reader = tokens.create({ name: "reader", readOnly: true }).token;
const revoked = tokens.create({ name: "gone", readOnly: false }).token;
const expiring = tokens.create({ name: "brief", readOnly: false, expires: "10d" }).token;
tokens.revoke("gone");
tokens.close();

const SIGN_IN_OR_OUT = new Set(["POST /api/session", "DELETE /api/session"]);
const routes = [
  ...registeredRoutes(api.server.app).map(({ method, path }) => ({
    method,
    // Any id: the token is checked before the route looks anything up.
    path: path.replace(/\{\w+\}/g, "1"),
    name: `${method} ${path}`,
  })),
  { method: "GET", path: "/api/no-such-route", name: "unknown API path" },
  { method: "GET", path: "/no/such/page", name: "unknown page" },
];

test("the route list covers every family", () => {
  const paths = routes.map((route) => route.path);
  for (const expected of [
    "/api/boards",
    "/api/boards/1/events",
    "/api/tickets/1",
    "/api/openapi.json",
    "/",
    "/boards/1",
  ]) {
    assert.ok(paths.includes(expected), `${expected} is not among the routes`);
  }
  assert.ok(
    paths.some((path) => path.startsWith("/assets/")) || !paths.includes("/favicon.svg"),
    "the UI's files are registered when the UI is built",
  );
});

async function send(method: string, path: string, headers: Record<string, string>) {
  tick();
  const response = await fetch(api.url + path, { method, headers });
  await response.arrayBuffer();
  return response;
}

const refusedCredentials: Record<string, Record<string, string>> = {
  "no token": {},
  "a wrong token": bearer(`${writer.slice(0, -2)}xy`),
  "a malformed Authorization header": { authorization: `Basic ${writer}` },
  "a revoked token": bearer(revoked),
  "a forged session cookie": { cookie: "tack_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
};
for (const [state, headers] of Object.entries(refusedCredentials)) {
  test(`${state}: 401 with WWW-Authenticate on every route`, async () => {
    for (const route of routes) {
      if (SIGN_IN_OR_OUT.has(route.name)) continue;
      const response = await send(route.method, route.path, headers);
      assert.equal(response.status, 401, `${route.name}: ${response.status}`);
      assert.equal(response.headers.get("www-authenticate"), 'Bearer realm="tack"', route.name);
    }
  });
}

test("an expired token: 401 on every route", async () => {
  assert.equal((await send("GET", "/api/boards", bearer(expiring))).status, 200);
  clock += 10 * 24 * 3_600_000;
  for (const route of routes) {
    if (SIGN_IN_OR_OUT.has(route.name)) continue;
    const response = await send(route.method, route.path, bearer(expiring));
    assert.equal(response.status, 401, `${route.name}: ${response.status}`);
  }
});

test("a read-only token: 403 on every method but GET, HEAD and OPTIONS; reads pass the guard", async () => {
  for (const route of routes) {
    if (SIGN_IN_OR_OUT.has(route.name)) continue;
    // The event stream stays open: only its status matters.
    const response = await fetch(api.url + route.path, {
      method: route.method,
      headers: bearer(reader),
    });
    if (route.method === "GET" || route.method === "HEAD") {
      assert.notEqual(response.status, 401, route.name);
      assert.notEqual(response.status, 403, route.name);
      await response.body?.cancel();
    } else if ((route.method === "POST" || route.method === "DELETE") && route.path === "/mcp") {
      // MCP's POSTs carry the protocol (reads too); DELETE only ends a session.
      assert.notEqual(response.status, 403, `${route.name}: MCP's protocol requests pass`);
      await response.body?.cancel();
    } else {
      assert.equal(response.status, 403, `${route.name}: ${response.status}`);
      assert.deepEqual(await response.json(), { error: "token is read-only" });
    }
  }
});

test("a read-write token passes the guard on every route; nothing above wrote anything", async () => {
  const boards = await api.request("GET", "/api/boards", undefined, bearer(writer));
  assert.equal(boards.status, 200);
  assert.deepEqual(boards.body, { boards: [] }, "no refused request created a board");
  for (const route of routes) {
    if (route.method !== "GET") continue;
    const response = await fetch(api.url + route.path, { headers: bearer(writer) });
    assert.notEqual(response.status, 401, route.name);
    await response.body?.cancel();
  }
});
