import assert from "node:assert/strict";
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

  test("serves reads with a foreign Origin but grants no CORS access", async () => {
    const response = await send({
      path: "/api/boards",
      headers: { origin: "http://evil.example" },
    });
    assert.equal(response.status, 200);
    assert.ok(Array.isArray(response.body.boards));
    for (const name of Object.keys(response.headers)) {
      assert.doesNotMatch(name, /^access-control-/, `unexpected CORS header ${name}`);
    }
    const preflight = await send({
      method: "OPTIONS",
      path: "/api/boards",
      headers: {
        origin: "http://evil.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    for (const name of Object.keys(preflight.headers)) {
      assert.doesNotMatch(name, /^access-control-/, `unexpected CORS header ${name}`);
    }
  });
});
