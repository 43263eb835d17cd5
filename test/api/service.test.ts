import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { registeredRoutes } from "../helpers/routes.js";
import { startTestServer } from "../helpers/server.js";

const api = await startTestServer();
const packageVersion = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
).version as string;

describe("GET /api/health", () => {
  test("answers 200 {ok: true}", async () => {
    const response = await api.get("/api/health");
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(response.body, { ok: true });
  });
});

describe("GET /api/meta", () => {
  test("names the service, its version, and the three providers in order", async () => {
    const response = await api.get("/api/meta");
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), ["name", "remoteProviders", "version"]);
    assert.equal(response.body.name, "tack");
    assert.equal(response.body.version, packageVersion);
    // The test server runs with an empty environment: no credential anywhere.
    assert.deepEqual(response.body.remoteProviders, [
      { id: "github", hasCredential: false },
      { id: "gitlab", hasCredential: false },
      { id: "redmine", hasCredential: false },
    ]);
  });
});

describe("GET /api/openapi.json", () => {
  const documentPromise = api.get("/api/openapi.json");

  test("is an OpenAPI 3.1 document", async () => {
    const response = await documentPromise;
    assert.equal(response.status, 200);
    assert.match(response.body.openapi, /^3\.1\./);
    assert.equal(response.body.info.title, "tack");
    assert.equal(typeof response.body.info.version, "string");
  });

  test("lists every registered API route, each with a unique operationId", async () => {
    const { paths } = (await documentPromise).body as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const documented = new Set(
      Object.entries(paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const routes = registeredRoutes(api.server.app)
      // The web UI's pages and assets live outside /api and are not part of the API document.
      .filter(({ path }) => path.startsWith("/api/"))
      .filter(({ path }) => !path.startsWith("/api/docs") && path !== "/api/openapi.json")
      .map(({ method, path }) => `${method} ${path}`);
    assert.ok(routes.length >= 16, `only ${routes.length} routes found`);
    assert.deepEqual(
      routes.filter((route) => !documented.has(route)),
      [],
      "registered routes missing from the document",
    );
    assert.deepEqual(
      [...documented].filter((route) => !routes.includes(route)),
      [],
      "documented routes that are not registered",
    );
    const operationIds = Object.values(paths).flatMap((operations) =>
      Object.values(operations).map((operation) => operation.operationId),
    );
    assert.ok(operationIds.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id)));
    assert.equal(new Set(operationIds).size, operationIds.length, "operationIds must be unique");
  });

  test("covers the foundation endpoints of docs/api.md", async () => {
    const { paths } = (await documentPromise).body;
    const expected: [string, string][] = [
      ["get", "/api/health"],
      ["get", "/api/meta"],
      ["get", "/api/boards"],
      ["post", "/api/boards"],
      ["post", "/api/boards/reorder"],
      ["get", "/api/boards/{boardId}"],
      ["patch", "/api/boards/{boardId}"],
      ["delete", "/api/boards/{boardId}"],
      ["get", "/api/boards/{boardId}/lanes"],
      ["post", "/api/boards/{boardId}/lanes"],
      ["post", "/api/boards/{boardId}/lanes/reorder"],
      ["patch", "/api/lanes/{laneId}"],
      ["delete", "/api/lanes/{laneId}"],
      ["get", "/api/boards/{boardId}/tags"],
      ["post", "/api/boards/{boardId}/tags"],
      ["patch", "/api/tags/{tagId}"],
      ["delete", "/api/tags/{tagId}"],
    ];
    for (const [method, path] of expected) {
      assert.ok(paths[path]?.[method], `${method.toUpperCase()} ${path} is not documented`);
    }
    const lane = paths["/api/boards/{boardId}/lanes"].post;
    assert.equal(
      lane.responses["201"].content["application/json"].schema.$ref,
      "#/components/schemas/Lane",
    );
    assert.equal(
      lane.responses["404"].content["application/json"].schema.$ref,
      "#/components/schemas/Error",
    );
  });

  test("names its component schemas after docs/api.md's resources, and every $ref resolves", async () => {
    const document = (await documentPromise).body;
    const components = Object.keys(document.components.schemas);
    for (const name of [
      "Board",
      "Lane",
      "Tag",
      "BoardShell",
      "BoardDetail",
      "Ticket",
      "TicketSummary",
      "TicketRelation",
      "TicketRelations",
      "TicketRemote",
      "TicketRemoteSummary",
      "TicketExternalReference",
      "Comment",
      "CommentSync",
      "Error",
    ]) {
      assert.ok(components.includes(name), `component ${name} is missing`);
    }
    assert.deepEqual(document.components.schemas.Error.required, ["error"]);
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]*"/g) ?? [];
    for (const ref of new Set(refs)) {
      const name = /"#\/components\/schemas\/([^"]+)"/.exec(ref.slice(7))?.[1];
      assert.ok(name && components.includes(name), `dangling ${ref}`);
    }
  });
});

describe("GET /api/docs", () => {
  test("serves an HTML page", async () => {
    const response = await fetch(`${api.url}/api/docs`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
    const html = await response.text();
    assert.match(html, /<html/i);
    // Every asset the page loads is served by tack itself (no network needed) ...
    const assets = [...html.matchAll(/(?:src|href)="(\/api\/docs\/[^"]+)"/g)].map((m) => m[1]);
    assert.ok(assets.length >= 3, "the page references its scripts and styles");
    for (const asset of assets) {
      assert.equal((await fetch(`${api.url}${asset}`)).status, 200, asset);
    }
    // ... and the page's policy keeps those plain-http loopback URLs (no https upgrade).
    const policy = response.headers.get("content-security-policy") ?? "";
    assert.match(policy, /script-src 'self'/);
    assert.doesNotMatch(policy, /upgrade-insecure-requests/);
  });
});
