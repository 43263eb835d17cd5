import assert from "node:assert/strict";
import { afterEach, before, describe, test } from "node:test";
import { assertError, createBoard, createTag, snapshot } from "../helpers/factories.js";
import { rawRequest } from "../helpers/raw-http.js";
import { startTestServer } from "../helpers/server.js";

const api = await startTestServer();

// One populated board, so "nothing changed" compares real data.
const { board, lanes } = await createBoard(api, "Errors", ["a", "b"]);
const laneId = lanes[0]?.id as number;
const tag = await createTag(api, board.id, "t");
const other = await createBoard(api, "Other");

/** Each refused request must leave the data as it was and the server answering. */
describe("refused requests", () => {
  let baseline: unknown;
  before(async () => {
    baseline = await snapshot(api);
  });
  afterEach(async () => {
    assert.deepEqual(await snapshot(api), baseline, "a refused request changed data");
    assert.deepEqual((await api.get("/api/health")).body, { ok: true });
  });

  const bodyRoutes: [string, string][] = [
    ["POST", "/api/boards"],
    ["PATCH", `/api/boards/${board.id}`],
    ["POST", `/api/boards/${board.id}/lanes`],
    ["PATCH", `/api/lanes/${laneId}`],
    ["POST", `/api/boards/${board.id}/tags`],
    ["PATCH", `/api/tags/${tag.id}`],
  ];

  test("malformed JSON is 400 on every body route", async () => {
    for (const [method, path] of bodyRoutes) {
      for (const text of ['{"name": "x"', "{name: 'x'}", '{"name":"x"} trailing', "nul"]) {
        assertError(await api.request(method, path, text), 400, "request body is not valid JSON");
      }
    }
  });

  test("a JSON body that is not an object is 400", async () => {
    for (const text of ["null", "[]", '"name"', "42", "true", ""]) {
      const response = await api.request("POST", "/api/boards", text, {
        "content-type": "application/json",
      });
      assertError(response, 400, "request body must be a JSON object");
    }
  });

  test("a body route refuses text/plain, form-urlencoded and a missing content type (400)", async () => {
    const json = JSON.stringify({ name: "sneaky" });
    for (const [method, path] of bodyRoutes) {
      for (const contentType of [
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonx",
      ]) {
        const response = await rawRequest(api.url, {
          method,
          path,
          headers: { "content-type": contentType },
          body: contentType.startsWith("application/x-www") ? "name=sneaky" : json,
        });
        assertError(response, 400, /content-type/);
      }
      assertError(await rawRequest(api.url, { method, path, body: json }), 400, /content-type/);
    }
  });

  test("a missing required field is 400 naming it", async () => {
    assertError(await api.post("/api/boards", { laneNames: ["x"] }), 400, "name is required");
    assertError(await api.post(`/api/boards/${board.id}/lanes`, {}), 400, "name is required");
    assertError(
      await api.post(`/api/boards/${board.id}/tags`, { color: "#fff" }),
      400,
      "name is required",
    );
    assertError(
      await api.post(`/api/boards/${board.id}/lanes/reorder`, {}),
      400,
      "laneIds is required",
    );
    assertError(await api.post("/api/boards/reorder", {}), 400, "boardIds is required");
    assertError(await rawRequest(api.url, { method: "POST", path: "/api/boards" }), 400);
  });

  test("mistyped fields are never coerced: 400 naming the field", async () => {
    assertError(
      await api.post(`/api/boards/${board.id}/lanes/reorder`, {
        laneIds: lanes.map((l) => String(l.id)),
      }),
      400,
      /^laneIds\[0\]/,
    );
    assertError(await api.post("/api/boards/reorder", { boardIds: [1.5] }), 400, /^boardIds\[0\]/);
    assertError(await api.post("/api/boards", { name: 2 }), 400, /^name /);
    assertError(await api.post("/api/boards", { name: null }), 400, /^name /);
    assertError(await api.post("/api/boards", { name: ["x"] }), 400, /^name /);
    assertError(
      await api.post("/api/boards", { name: "x", laneNames: [null] }),
      400,
      /^laneNames\[0\]/,
    );
    assertError(await api.patch(`/api/tags/${tag.id}`, { color: null }), 400, /^color /);
    assertError(await api.patch(`/api/tags/${tag.id}`, { name: 1 }), 400, /^name /);
  });

  test('ticket fields: "2" for an int, 1 for a boolean, null where not allowed are 400', async () => {
    const path = `/api/boards/${board.id}/tickets`;
    assertError(await api.post(path, { laneId: String(laneId), title: "x" }), 400, /^laneId /);
    assertError(await api.post(path, { laneId, title: "x", priority: "2" }), 400, /^priority /);
    assertError(await api.post(path, { laneId, title: "x", isResolved: 1 }), 400, /^isResolved /);
    assertError(
      await api.post(path, { laneId, title: "x", isArchived: "true" }),
      400,
      /^isArchived /,
    );
    assertError(await api.post(path, { laneId, title: null }), 400, /^title /);
    assertError(await api.post(path, { laneId, title: "x", tagIds: null }), 400, /^tagIds/);
  });

  test("path ids that are not positive decimal integers are 400 on every id route", async () => {
    const templates: [string, string, unknown][] = [
      ["GET", "/api/boards/:id", undefined],
      ["PATCH", "/api/boards/:id", { name: "x" }],
      ["DELETE", "/api/boards/:id", undefined],
      ["GET", "/api/boards/:id/lanes", undefined],
      ["POST", "/api/boards/:id/lanes", { name: "x" }],
      ["POST", "/api/boards/:id/lanes/reorder", { laneIds: [laneId] }],
      ["GET", "/api/boards/:id/tags", undefined],
      ["POST", "/api/boards/:id/tags", { name: "x" }],
      ["PATCH", "/api/lanes/:id", { name: "x" }],
      ["DELETE", "/api/lanes/:id", undefined],
      ["PATCH", "/api/tags/:id", { name: "x" }],
      ["DELETE", "/api/tags/:id", undefined],
    ];
    for (const [method, template, body] of templates) {
      for (const id of ["abc", "0", "-1", "1.5", "0x10", "1e2", "1_0", "99999999999999999999"]) {
        const path = template.replace(":id", id);
        assertError(await api.request(method, path, body), 400, /must be a positive integer$/);
      }
    }
  });

  test("well-formed ids that do not exist are 404", async () => {
    const missing = 987654;
    const cases: [string, string, unknown, string][] = [
      ["GET", `/api/boards/${missing}`, undefined, "board not found"],
      ["PATCH", `/api/boards/${missing}`, { name: "x" }, "board not found"],
      ["DELETE", `/api/boards/${missing}`, undefined, "board not found"],
      ["GET", `/api/boards/${missing}/lanes`, undefined, "board not found"],
      ["POST", `/api/boards/${missing}/lanes`, { name: "x" }, "board not found"],
      ["POST", `/api/boards/${missing}/lanes/reorder`, { laneIds: [laneId] }, "board not found"],
      ["GET", `/api/boards/${missing}/tags`, undefined, "board not found"],
      ["POST", `/api/boards/${missing}/tags`, { name: "x" }, "board not found"],
      ["PATCH", `/api/lanes/${missing}`, { name: "x" }, "lane not found"],
      ["DELETE", `/api/lanes/${missing}`, undefined, "lane not found"],
      ["PATCH", `/api/tags/${missing}`, { name: "x" }, "tag not found"],
      ["DELETE", `/api/tags/${missing}`, undefined, "tag not found"],
    ];
    for (const [method, path, body, message] of cases) {
      assertError(await api.request(method, path, body), 404, message);
    }
  });

  test("an unknown route or method is 404 with the error body", async () => {
    assertError(await api.get("/api/nothing-here"), 404);
    assertError(await api.get("/nothing"), 404);
    assertError(await api.request("PUT", "/api/boards"), 404);
    assertError(await api.request("POST", `/api/boards/${board.id}`, { name: "x" }), 404);
    const response = await api.get("/api/unknown");
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
  });

  test("a body over 1 MiB is 413", async () => {
    const big = JSON.stringify({ name: "x", padding: "p".repeat(1024 * 1024) });
    assertError(await api.request("POST", "/api/boards", big), 413);
    // Without a Content-Length (chunked), the limit holds as well.
    const chunked = await rawRequest(api.url, {
      method: "POST",
      path: "/api/boards",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      body: big,
    });
    assertError(chunked, 413);
    // Just under the limit is accepted by the transport (and then validated as usual).
    const fits = JSON.stringify({ name: "x".repeat(201), padding: "p".repeat(1000 * 1000) });
    assertError(await api.request("POST", "/api/boards", fits), 400, /^name /);
  });

  test("a PATCH carrying none of the endpoint's fields is 400", async () => {
    for (const path of [`/api/boards/${board.id}`, `/api/lanes/${laneId}`, `/api/tags/${tag.id}`]) {
      assertError(await api.patch(path, {}), 400);
      assertError(await api.patch(path, { unknown: "x" }), 400);
      assertError(await rawRequest(api.url, { method: "PATCH", path }), 400);
    }
  });
});

/** Accepted requests that sit close to the refused ones (on their own board). */
describe("accepted edge cases", () => {
  test("a charset parameter on application/json is fine", async () => {
    const response = await api.request(
      "PATCH",
      `/api/boards/${other.board.id}`,
      { name: "Other" },
      {
        "content-type": "application/json; charset=utf-8",
      },
    );
    assert.equal(response.status, 200);
  });

  test("prototype-polluting keys are dropped, not applied", async () => {
    const response = await api.request(
      "PATCH",
      `/api/boards/${other.board.id}`,
      '{"name":"Other","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    );
    assert.equal(response.status, 200);
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
  });
});

test('an internal failure is 500 {error: "internal error"}, with no details for the client', async () => {
  const broken = await startTestServer();
  // Simulates a failure no input can cause: the database goes away under the server.
  broken.server.db.close();
  for (const path of ["/api/boards", "/api/boards/1", "/api/boards/1/tags"]) {
    assertError(await broken.get(path), 500, "internal error");
  }
  assertError(await broken.post("/api/boards", { name: "x" }), 500, "internal error");
  // Health looks at the database too, so a supervisor sees the failure.
  assertError(await broken.get("/api/health"), 500, "database unavailable");
});

test("a body-less DELETE is accepted whatever content type it carries", async () => {
  const api = await startTestServer();
  const board = (await api.post("/api/boards", { name: "gone" })).body.board;
  const response = await rawRequest(api.url, {
    method: "DELETE",
    path: `/api/boards/${board.id}`,
    headers: { "content-type": "text/plain", "content-length": "0" },
  });
  assert.equal(response.status, 204);
  assert.equal((await api.get(`/api/boards/${board.id}`)).status, 404);
});
