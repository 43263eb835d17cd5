import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, getTicket, newTicket } from "../helpers/tickets.js";

const api = await startTestServer();

async function ticketId(): Promise<number> {
  const board = await boardWithLanes(api, "Events");
  return (await newTicket(api, board.boardId, board.laneIds[0], "observed")).id;
}

const MINIMAL = { source: "ci", kind: "build", title: "Build passed" };

async function post(id: number, body: unknown) {
  return api.post(`/api/tickets/${id}/events`, body);
}

describe("ticket events", () => {
  test("POST answers 201 with the stored event, defaults filled in", async () => {
    const id = await ticketId();
    const created = await post(id, MINIMAL);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), [
      "createdAt",
      "data",
      "icon",
      "id",
      "kind",
      "severity",
      "source",
      "summary",
      "ticketId",
      "title",
    ]);
    assert.equal(created.body.ticketId, id);
    assert.equal(created.body.source, "ci");
    assert.equal(created.body.kind, "build");
    assert.equal(created.body.title, "Build passed");
    assert.equal(created.body.summary, null);
    assert.equal(created.body.severity, null);
    assert.equal(created.body.icon, null);
    assert.deepEqual(created.body.data, {});
    assert.ok(!Number.isNaN(Date.parse(created.body.createdAt)));
  });

  test("keeps every field; names are trimmed; empty optional strings become null", async () => {
    const id = await ticketId();
    const created = await post(id, {
      source: "  agent ",
      kind: " review ",
      title: " Found 2 issues ",
      summary: "Two **nits**",
      severity: "",
      icon: "  ",
      data: { findings: [{ line: 3 }], ok: false },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.source, "agent");
    assert.equal(created.body.kind, "review");
    assert.equal(created.body.title, "Found 2 issues");
    assert.equal(created.body.summary, "Two **nits**");
    assert.equal(created.body.severity, null);
    assert.equal(created.body.icon, null);
    assert.deepEqual(created.body.data, { findings: [{ line: 3 }], ok: false });
    const listed = await api.get(`/api/tickets/${id}/events`);
    assert.deepEqual(listed.body.events, [created.body]);
  });

  test("GET lists newest first and only the ticket's own events", async () => {
    const id = await ticketId();
    const other = await ticketId();
    const first = (await post(id, { ...MINIMAL, title: "first" })).body;
    const second = (await post(id, { ...MINIMAL, title: "second" })).body;
    await post(other, MINIMAL);
    const listed = await api.get(`/api/tickets/${id}/events`);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.events.map((event: { id: number }) => event.id),
      [second.id, first.id],
    );
  });

  test("limits: source and kind 1-100, title 1-500 characters after trimming", async () => {
    const id = await ticketId();
    assertError(await post(id, { ...MINIMAL, source: " " }), 400, "source must not be empty");
    assertError(await post(id, { ...MINIMAL, kind: "" }), 400, "kind must not be empty");
    assertError(await post(id, { ...MINIMAL, title: "\t" }), 400, "title must not be empty");
    assertError(
      await post(id, { ...MINIMAL, source: "s".repeat(101) }),
      400,
      "source must be at most 100 characters",
    );
    assertError(
      await post(id, { ...MINIMAL, kind: "k".repeat(101) }),
      400,
      "kind must be at most 100 characters",
    );
    assertError(
      await post(id, { ...MINIMAL, title: "t".repeat(501) }),
      400,
      "title must be at most 500 characters",
    );
    assert.equal(
      (
        await post(id, {
          ...MINIMAL,
          source: "s".repeat(100),
          kind: "k".repeat(100),
          title: "t".repeat(500),
        })
      ).status,
      201,
    );
    assert.equal((await api.get(`/api/tickets/${id}/events`)).body.events.length, 1);
  });

  test("types are checked without coercion", async () => {
    const id = await ticketId();
    assertError(await post(id, { kind: "k", title: "t" }), 400, "source is required");
    assertError(await post(id, { ...MINIMAL, data: [] }), 400, "data must be an object");
    assertError(await post(id, { ...MINIMAL, data: null }), 400, "data must be an object");
    assertError(
      await post(id, { ...MINIMAL, summary: 3 }),
      400,
      "summary must be a string or null",
    );
    assertError(await post(id, { ...MINIMAL, title: 1 }), 400, "title must be a string");
    assert.equal(
      (await post(id, { ...MINIMAL, summary: null, severity: null, icon: null })).status,
      201,
    );
  });

  test("404 for an unknown ticket; events do not change the ticket", async () => {
    assertError(await post(999_999, MINIMAL), 404, "ticket not found");
    assertError(await api.get("/api/tickets/999999/events"), 404, "ticket not found");
    const id = await ticketId();
    const before = await getTicket(api, id);
    assert.equal((await post(id, MINIMAL)).status, 201);
    assert.deepEqual(await getTicket(api, id), before);
  });

  test("events go with their ticket", async () => {
    const id = await ticketId();
    await post(id, MINIMAL);
    assert.equal((await api.delete(`/api/tickets/${id}`)).status, 204);
    assertError(await api.get(`/api/tickets/${id}/events`), 404);
  });
});
