import assert from "node:assert/strict";
import { request } from "node:http";
import { describe, test } from "node:test";
import { assertError, createBoard, snapshot } from "../helpers/factories.js";
import { type RawRequest, rawRequest } from "../helpers/raw-http.js";
import { startTestServer } from "../helpers/server.js";

const api = await startTestServer();
const port = new URL(api.url).port;
const { board } = await createBoard(api, "Guarded");

const send = (options: RawRequest) => rawRequest(api.url, options);
const json = (body: unknown) => ({
  "content-type": "application/json",
  body: JSON.stringify(body),
});

/** A state-changing request carrying the given extra headers. */
function createBoardWith(headers: Record<string, string>, name = "from a browser") {
  const { body, ...contentType } = json({ name });
  return send({
    method: "POST",
    path: "/api/boards",
    headers: { ...contentType, ...headers },
    body,
  });
}

describe("Host header (DNS rebinding)", () => {
  test("refuses hosts that are not loopback with 403, for reads and writes", async () => {
    const before = await snapshot(api);
    for (const host of [
      "evil.example",
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `10.0.0.1:${port}`,
      `[::2]:${port}`,
    ]) {
      assertError(await send({ path: "/api/health", headers: { host } }), 403, "host not allowed");
      assertError(await createBoardWith({ host }), 403, "host not allowed");
    }
    assert.deepEqual(await snapshot(api), before);
  });

  test("refuses a request without a Host header", async () => {
    const response = await send({ path: "/api/health", setHost: false });
    assert.ok(response.status === 400 || response.status === 403, `got ${response.status}`);
  });

  test("serves localhost, 127.0.0.1 and [::1], with or without the port", async () => {
    for (const host of [
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      "localhost",
      "127.0.0.1",
      "[::1]",
    ]) {
      const response = await send({ path: "/api/health", headers: { host } });
      assert.equal(response.status, 200, host);
      assert.deepEqual(response.body, { ok: true });
    }
  });

  test("serves the hosts given with --allowed-host, and only those", async () => {
    const allowed = await startTestServer({ allowedHosts: ["tack.internal"] });
    const allowedPort = new URL(allowed.url).port;
    const ok = await rawRequest(allowed.url, {
      path: "/api/health",
      headers: { host: `tack.internal:${allowedPort}` },
    });
    assert.equal(ok.status, 200);
    const write = await rawRequest(allowed.url, {
      method: "POST",
      path: "/api/boards",
      headers: {
        host: `tack.internal:${allowedPort}`,
        origin: `http://tack.internal:${allowedPort}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ name: "via allowed host" }),
    });
    assert.equal(write.status, 201, write.text);
    const refused = await rawRequest(allowed.url, {
      path: "/api/health",
      headers: { host: `other.internal:${allowedPort}` },
    });
    assertError(refused, 403);
  });
});

describe("Origin of state-changing requests (cross-site requests)", () => {
  test("refuses a foreign Origin or Origin: null with 403 on every write method, writing nothing", async () => {
    const before = await snapshot(api);
    const origins = [
      "http://evil.example",
      `http://evil.example:${port}`,
      `http://127.0.0.1:${Number(port) + 1}`,
      `https://127.0.0.1:${port}`,
      `http://localhost:${port}`, // another origin than the Host the request used
      "null",
    ];
    for (const origin of origins) {
      assertError(await createBoardWith({ origin }), 403, "cross-origin request refused");
      const rename = json({ name: "hijacked" });
      assertError(
        await send({
          method: "PATCH",
          path: `/api/boards/${board.id}`,
          headers: { origin, "content-type": rename["content-type"] },
          body: rename.body,
        }),
        403,
      );
      assertError(
        await send({ method: "DELETE", path: `/api/boards/${board.id}`, headers: { origin } }),
        403,
      );
    }
    assert.deepEqual(await snapshot(api), before);
  });

  test("accepts the same origin, and requests without Origin (scripts, curl, agents)", async () => {
    const sameOrigin = await createBoardWith({ origin: `http://127.0.0.1:${port}` }, "same origin");
    assert.equal(sameOrigin.status, 201, sameOrigin.text);
    const viaLocalhost = await createBoardWith(
      { host: `localhost:${port}`, origin: `http://localhost:${port}` },
      "same origin via localhost",
    );
    assert.equal(viaLocalhost.status, 201, viaLocalhost.text);
    const noOrigin = await createBoardWith({}, "no origin");
    assert.equal(noOrigin.status, 201, noOrigin.text);
    const sameSite = await createBoardWith({ "sec-fetch-site": "same-origin" }, "fetch metadata");
    assert.equal(sameSite.status, 201, sameSite.text);
    const typed = await createBoardWith({ "sec-fetch-site": "none" }, "typed in the address bar");
    assert.equal(typed.status, 201, typed.text);
  });

  test("refuses Sec-Fetch-Site: cross-site without Origin", async () => {
    const before = await snapshot(api);
    assertError(await createBoardWith({ "sec-fetch-site": "cross-site" }), 403);
    assert.deepEqual(await snapshot(api), before);
  });

  test("refuses a text/plain POST (the content type an HTML form can send without preflight)", async () => {
    const before = await snapshot(api);
    const body = JSON.stringify({ name: "form post" });
    const forms: Record<string, string>[] = [
      { "content-type": "text/plain" },
      { "content-type": "text/plain", origin: `http://127.0.0.1:${port}` },
      { "content-type": "text/plain", origin: "http://evil.example" },
    ];
    for (const headers of forms) {
      const response = await send({ method: "POST", path: "/api/boards", headers, body });
      assert.ok(response.status === 400 || response.status === 403, `got ${response.status}`);
      assertError(response, response.status);
    }
    assert.deepEqual(await snapshot(api), before);
  });

  test("grants no CORS access, also to a preflight", async () => {
    const preflight = await send({
      method: "OPTIONS",
      path: "/api/boards",
      headers: {
        origin: "http://evil.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    assertError(preflight, 403, "cross-origin request refused");
    for (const name of Object.keys(preflight.headers)) {
      assert.doesNotMatch(name, /^access-control-/, `unexpected CORS header ${name}`);
    }
  });
});

describe("reads and the event stream from other web origins", () => {
  const readPaths = [
    "/api/boards",
    `/api/boards/${board.id}`,
    `/api/boards/${board.id}/tickets`,
    `/api/boards/${board.id}/export`,
    "/api/meta",
    "/api/health",
    "/api/openapi.json",
    "/%61pi/boards", // percent-encoded: still the API
  ];
  const foreign: Record<string, string>[] = [
    { origin: "http://evil.example" },
    { origin: `http://127.0.0.1:${Number(port) + 1}` },
    { origin: "null" },
    { "sec-fetch-site": "cross-site" },
    { "sec-fetch-site": "same-site" }, // a page on another local port
    { "sec-fetch-site": "same-site", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" },
    { "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image" },
    { "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "script" },
    // A navigation to the API itself, or a UI page loaded into another site's frame.
    { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
  ];

  test("refuses every read with a foreign Origin or cross-site/same-site Fetch Metadata", async () => {
    for (const path of readPaths) {
      for (const headers of foreign) {
        const response = await send({ path, headers });
        assertError(response, 403, "cross-origin request refused");
        for (const name of Object.keys(response.headers)) {
          assert.doesNotMatch(name, /^access-control-/, `unexpected CORS header ${name}`);
        }
      }
    }
  });

  test("refuses to open the event stream for another origin", async () => {
    for (const headers of foreign) {
      const response = await send({
        path: `/api/boards/${board.id}/events`,
        headers: { accept: "text/event-stream", ...headers },
      });
      assertError(response, 403, "cross-origin request refused");
    }
  });

  test("lets a link from another site open a UI page (top-level navigation), not in a frame", async () => {
    const navigation = {
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "navigate",
      "sec-fetch-user": "?1",
    };
    for (const path of ["/tickets/42", `/boards/${board.id}`, "/"]) {
      const extras: Record<string, string>[] = [{ "sec-fetch-dest": "document" }, {}];
      for (const extra of extras) {
        const response = await send({ path, headers: { ...navigation, ...extra } });
        assert.notEqual(response.status, 403, `${path}: ${response.text}`);
      }
      for (const dest of ["iframe", "frame", "embed", "object"]) {
        const framed = await send({ path, headers: { ...navigation, "sec-fetch-dest": dest } });
        assertError(framed, 403, "cross-origin request refused");
      }
      const posted = await send({ method: "POST", path, headers: navigation });
      assertError(posted, 403, "cross-origin request refused");
    }
  });

  test("serves reads and the stream to tack's own pages and to clients without browser headers", async () => {
    const own: Record<string, string>[] = [
      {},
      { origin: `http://127.0.0.1:${port}` },
      { "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" },
      { origin: `http://127.0.0.1:${port}`, "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none", "sec-fetch-mode": "navigate" }, // typed in the address bar
    ];
    for (const headers of own) {
      const response = await send({ path: "/api/boards", headers });
      assert.equal(response.status, 200, JSON.stringify(headers));
      assert.ok(Array.isArray(response.body.boards));
    }
    const stream = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${api.url}/api/boards/${board.id}/events`,
        { headers: { origin: `http://127.0.0.1:${port}`, "sec-fetch-site": "same-origin" } },
        (res) => {
          resolve(res.statusCode ?? 0);
          res.destroy();
        },
      );
      req.on("error", reject).end();
    });
    assert.equal(stream, 200);
  });
});
