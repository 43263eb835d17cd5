import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BODY_MAX_DEPTH, FREE_OBJECT_MAX_DEPTH } from "../../src/http/request-limits.js";
import {
  assertError,
  createBoard,
  createTag,
  createTicket,
  snapshot,
} from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";

/**
 * Free-form objects (`data` of a ticket event, `details` of a tag reason, in their own endpoints
 * and inside a board import) nest at most FREE_OBJECT_MAX_DEPTH levels; a whole body at most
 * BODY_MAX_DEPTH. Deeper is a 400 naming the limit (it was a 500 once), and nothing is written.
 */

const api = await startTestServer();
const shell = await createBoard(api, "Nesting");
const lane = shell.lanes[0] as { id: number };
const ticket = await createTicket(api, shell.board.id, { laneId: lane.id, title: "deep" });
const tag = await createTag(api, shell.board.id, "reasoned");

/** An object nesting exactly `levels` levels, alternating objects and arrays. */
function nested(levels: number): Record<string, unknown> {
  let value: unknown = { leaf: '[{ not structure }]\\"' };
  for (let level = 2; level <= levels; level += 1) {
    // The outermost level is an object; below it objects and arrays alternate.
    value = (levels - level) % 2 === 1 ? [value] : { [`l${level}`]: value };
  }
  return value as Record<string, unknown>;
}

/** Text of an object nesting `levels` levels, for depths JSON.stringify itself cannot reach. */
function nestedText(levels: number): string {
  return `${'{"a":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)}`;
}

function depthOf(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

test("the helper builds the depth it is asked for", () => {
  for (const levels of [1, 2, 3, 32, 33]) assert.equal(depthOf(nested(levels)), levels);
});

const limit = FREE_OBJECT_MAX_DEPTH;

describe("POST /api/tickets/{id}/events data", () => {
  const path = `/api/tickets/${ticket.id}/events`;
  const event = { source: "ci", kind: "build", title: "Build" };

  test(`accepts data nested ${limit} levels and answers it back unchanged`, async () => {
    const data = nested(limit);
    const created = await api.post(path, { ...event, data });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.data, data);
    const listed = await api.get(path);
    assert.deepEqual(listed.body.events[0].data, data);
  });

  test(`refuses data nested ${limit + 1} levels, or thousands, with 400 and writes nothing`, async () => {
    const before = (await api.get(path)).body;
    assertError(
      await api.post(path, { ...event, data: nested(limit + 1) }),
      400,
      `data is nested more than ${limit} levels deep`,
    );
    for (const levels of [BODY_MAX_DEPTH, 500, 100_000]) {
      const response = await api.post(
        path,
        `{"source":"ci","kind":"build","title":"Build","data":${nestedText(levels)}}`,
      );
      assertError(response, 400, /nested more than \d+ levels deep/);
    }
    assert.deepEqual((await api.get(path)).body, before);
  });
});

describe("POST /api/tickets/{id}/tags/{tagId} details", () => {
  const path = `/api/tickets/${ticket.id}/tags/${tag.id}`;

  test(`accepts details nested ${limit} levels`, async () => {
    const details = nested(limit);
    const response = await api.post(path, { reason: "why", details });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.details, details);
  });

  test(`refuses details nested ${limit + 1} levels, or thousands, and keeps the old value`, async () => {
    const before = (await api.get(`/api/tickets/${ticket.id}/tag-reasons`)).body;
    assertError(
      await api.post(path, { reason: "other", details: nested(limit + 1) }),
      400,
      `details is nested more than ${limit} levels deep`,
    );
    assertError(
      await api.post(path, `{"reason":"other","details":${nestedText(20_000)}}`),
      400,
      `request body is nested more than ${BODY_MAX_DEPTH} levels deep`,
    );
    assert.deepEqual((await api.get(`/api/tickets/${ticket.id}/tag-reasons`)).body, before);
  });
});

describe("POST /api/boards/import", () => {
  function document(details: unknown, data: unknown) {
    return {
      board: { name: "Imported" },
      lanes: [{ id: 1, name: "todo" }],
      tags: [{ id: 7, name: "t" }],
      tickets: [
        {
          id: 1,
          laneId: 1,
          title: "one",
          tagReasons: [{ tagId: 7, reason: "r", details }],
          events: [{ source: "s", kind: "k", title: "e", data }],
        },
      ],
    };
  }

  test(`imports details and data nested ${limit} levels, and an export of them imports again`, async () => {
    const deep = nested(limit);
    const imported = await api.post("/api/boards/import", document(deep, deep));
    assert.equal(imported.status, 201, imported.text);
    const exported = await api.get(`/api/boards/${imported.body.board.id}/export`);
    assert.equal(exported.status, 200);
    const [first] = exported.body.tickets;
    assert.deepEqual(first.tagReasons[0].details, deep);
    assert.deepEqual(first.events[0].data, deep);
    const again = await api.post("/api/boards/import", exported.body);
    assert.equal(again.status, 201, again.text);
  });

  test(`refuses details or data nested ${limit + 1} levels, naming the ticket and field`, async () => {
    const before = await snapshot(api);
    assertError(
      await api.post("/api/boards/import", document(nested(limit + 1), {})),
      400,
      `tickets[0].tagReasons[0].details is nested more than ${limit} levels deep`,
    );
    assertError(
      await api.post("/api/boards/import", document(null, nested(limit + 1))),
      400,
      `tickets[0].events[0].data is nested more than ${limit} levels deep`,
    );
    const text = JSON.stringify(document(null, {})).replace(
      '"data":{}',
      `"data":${nestedText(3000)}`,
    );
    assertError(await api.post("/api/boards/import", text), 400, /nested more than/);
    assert.deepEqual(await snapshot(api), before);
  });
});

describe("any body", () => {
  test(`refuses a body nested more than ${BODY_MAX_DEPTH} levels, even in an ignored field`, async () => {
    const before = await snapshot(api);
    for (const levels of [BODY_MAX_DEPTH, 10_000]) {
      const text = `{"name":"deep board","ignored":${nestedText(levels)}}`;
      assertError(
        await api.post("/api/boards", text),
        400,
        `request body is nested more than ${BODY_MAX_DEPTH} levels deep`,
      );
      const array = `[${"[".repeat(levels)}${"]".repeat(levels)}]`;
      assertError(await api.post("/api/boards", array), 400, /nested more than/);
    }
    assert.deepEqual(await snapshot(api), before);
  });

  test("counts structure only: brackets and escaped quotes inside strings do not count", async () => {
    const name = `${"{[".repeat(90)}\\"}]\\\\`;
    const response = await api.post("/api/boards", { name });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.board.name, name);
    const escaped = await api.post("/api/boards", `{"name":"a\\"${"[".repeat(100)}\\\\"}`);
    assert.equal(escaped.status, 201, escaped.text);
  });

  test("a body nested just within the limit is parsed", async () => {
    const response = await api.post(
      "/api/boards",
      `{"name":"ok","ignored":${nestedText(BODY_MAX_DEPTH - 1)}}`,
    );
    assert.equal(response.status, 201, response.text);
  });
});

test("every free-form object of every request body carries the nesting limit (OpenAPI)", async () => {
  const openapi = (await api.get("/api/openapi.json")).body;
  const found: string[] = [];
  const missing: string[] = [];
  const visit = (schema: unknown, where: string, seen: Set<unknown>): void => {
    if (schema === null || typeof schema !== "object" || seen.has(schema)) return;
    seen.add(schema);
    const record = schema as Record<string, unknown>;
    if (typeof record.$ref === "string") {
      const name = record.$ref.split("/").pop() as string;
      visit(openapi.components.schemas[name], `${where}->${name}`, seen);
      return;
    }
    if (record.additionalProperties === true) {
      (record["x-max-depth"] === FREE_OBJECT_MAX_DEPTH ? found : missing).push(where);
    }
    for (const [key, value] of Object.entries(record)) visit(value, `${where}.${key}`, seen);
  };
  for (const [path, operations] of Object.entries<Record<string, any>>(openapi.paths)) {
    for (const [method, operation] of Object.entries<any>(operations)) {
      const schema = operation?.requestBody?.content?.["application/json"]?.schema;
      if (schema) visit(schema, `${method.toUpperCase()} ${path}`, new Set());
    }
  }
  assert.deepEqual(missing, []);
  assert.ok(found.length >= 4, `found only ${found.join(", ")}`);
});
