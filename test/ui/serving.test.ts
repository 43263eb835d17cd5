import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import { createServices } from "../../src/domain/services.js";
import { BoardEventBus } from "../../src/events/board-events.js";
import { buildApp } from "../../src/http/app.js";
import { openDatabase } from "../../src/storage/database.js";
import { startTestServer } from "../helpers/server.js";
import { ensureUiBuilt, UI_DIR } from "./browser.js";

// How tack serves the web UI: pages, assets, headers, and the JS size budget. Plain HTTP, no browser.

ensureUiBuilt();
const api = await startTestServer();
const board = (await api.post("/api/boards", { name: "Served" })).body;

const CSP = /default-src 'self'.*script-src 'self'.*frame-ancestors 'none'/;

describe("pages", () => {
  for (const path of [
    "/",
    `/boards/${board.board.id}`,
    `/boards/${board.board.id}/list`,
    `/boards/${board.board.id}/insights`,
    "/tickets/1",
    "/inbox",
  ]) {
    test(`GET ${path} answers the app's index.html with its security headers`, async () => {
      const response = await api.get(path);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "text/html; charset=utf-8");
      assert.equal(response.headers.get("cache-control"), "no-cache");
      assert.match(response.headers.get("content-security-policy") ?? "", CSP);
      assert.doesNotMatch(
        response.headers.get("content-security-policy") ?? "",
        /unsafe-inline|unsafe-eval/,
      );
      assert.equal(response.headers.get("x-content-type-options"), "nosniff");
      assert.equal(response.headers.get("referrer-policy"), "no-referrer");
      assert.equal(response.headers.get("x-frame-options"), "DENY");
      assert.match(response.text, /<div id="app"><\/div>/);
      // No inline script: every script is a file of tack's own origin.
      assert.doesNotMatch(response.text, /<script(?![^>]*\bsrc=)[^>]*>/);
    });
  }

  test("assets are served with their MIME type and cached for a year", async () => {
    const index = (await api.get("/")).text;
    const script = /<script[^>]*src="([^"]+\.js)"/.exec(index)?.[1];
    const style = /<link[^>]*rel="stylesheet"[^>]*href="([^"]+\.css)"/.exec(index)?.[1];
    assert.ok(script && style, index);
    const js = await api.get(script);
    assert.equal(js.status, 200);
    assert.equal(js.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(js.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.equal(js.headers.get("x-content-type-options"), "nosniff");
    const css = await api.get(style);
    assert.equal(css.headers.get("content-type"), "text/css; charset=utf-8");
    assert.equal(css.headers.get("cache-control"), "public, max-age=31536000, immutable");
    const icon = await api.get("/favicon.svg");
    assert.equal(icon.headers.get("content-type"), "image/svg+xml");
    assert.equal(icon.headers.get("cache-control"), "no-cache");
  });

  test("the API keeps its JSON 404s; unknown pages and assets are 404 too", async () => {
    for (const path of ["/api/nope", "/api/boards/1/nope", "/assets/missing.js", "/boards/abc/x"]) {
      const response = await api.get(path);
      assert.equal(response.status, 404, path);
      assert.deepEqual(response.body, { error: `no route for GET ${path}` });
    }
    const meta = await api.get("/api/meta");
    assert.equal(meta.status, 200);
  });

  test("initial JavaScript stays under 150 KB gzipped", () => {
    const index = readFileSync(join(UI_DIR, "index.html"), "utf8");
    const initial = [
      ...index.matchAll(/<script[^>]*src="\/([^"]+)"/g),
      ...index.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+)"/g),
    ].map((match) => match[1] as string);
    assert.ok(initial.length > 0);
    const bytes = initial.reduce(
      (sum, file) => sum + gzipSync(readFileSync(join(UI_DIR, file))).length,
      0,
    );
    console.log(`# initial JS: ${initial.join(", ")} = ${(bytes / 1024).toFixed(1)} KB gzipped`);
    assert.ok(bytes < 150 * 1024, `${bytes} bytes gzipped`);
  });

  test("no server code in the bundle: the UI imports the server's schemas as types only", () => {
    const scripts = readdirSync(join(UI_DIR, "assets")).filter((name) => name.endsWith(".js"));
    assert.ok(scripts.length > 0);
    const bundle = scripts.map((name) => readFileSync(join(UI_DIR, "assets", name), "utf8"));
    // A schema description (src/http/schemas/tickets.ts), a request limit keyword
    // (src/http/request-limits.ts) and TypeBox's own marker: each only in server code.
    for (const serverOnly of ["Deprecated alias of isResolved.", "x-max-depth", "TypeBox.Kind"]) {
      assert.ok(!bundle.some((text) => text.includes(serverOnly)), `bundle contains ${serverOnly}`);
    }
  });
});

describe("without a built UI", () => {
  test("/ explains how to build it instead of failing; the API still works", async () => {
    const folder = mkdtempSync(join(tmpdir(), "tack-noui-"));
    const db = openDatabase(join(folder, "tack.sqlite"));
    const app = await buildApp({
      services: createServices(db, new BoardEventBus()),
      info: { name: "tack", version: "0", databaseUsable: () => true, remoteProviders: () => [] },
      allowedHosts: [],
      logger: false,
      uiDir: join(folder, "missing"),
    });
    after(async () => {
      await app.close();
      db.close();
      rmSync(folder, { recursive: true, force: true });
    });
    const page = await app.inject({ method: "GET", url: "/", headers: { host: "127.0.0.1" } });
    assert.equal(page.statusCode, 503);
    assert.match(page.headers["content-type"] as string, /^text\/plain/);
    assert.match(page.body, /web UI has not been built.*npm run build/);
    const health = await app.inject({
      method: "GET",
      url: "/api/health",
      headers: { host: "127.0.0.1" },
    });
    assert.equal(health.statusCode, 200);
  });
});
