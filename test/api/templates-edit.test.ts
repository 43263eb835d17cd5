import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError, ok } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { sleep } from "../helpers/sse-client.js";
import { release, templateRequests } from "./templates-setup.js";

// Reading, changing and deleting templates (docs/api.md, "Templates").

const api = await startTestServer();
const { board, createTemplate, templatesOf, ticketsOf } = templateRequests(api);

describe("GET /api/boards/{boardId}/templates and /api/templates/{id}", () => {
  test("lists by name ignoring case; answers strong ETags and 304", async () => {
    const fixture = await board();
    for (const name of ["delta", "Bravo", "charlie", "alpha"]) {
      await ok(createTemplate(fixture.boardId, { ...release, name }), 201);
    }
    const listed = await api.get(`/api/boards/${fixture.boardId}/templates`);
    assert.deepEqual(Object.keys(listed.body), ["templates"]);
    assert.deepEqual(
      listed.body.templates.map((template: any) => template.name),
      ["alpha", "Bravo", "charlie", "delta"],
    );
    const tag = listed.headers.get("etag");
    assert.match(tag ?? "", /^"[^"]+"$/);
    const again = await api.request("GET", `/api/boards/${fixture.boardId}/templates`, undefined, {
      "if-none-match": tag as string,
    });
    assert.equal(again.status, 304);
    assert.equal(again.text, "");

    const id = listed.body.templates[0].id;
    const single = await api.get(`/api/templates/${id}`);
    const singleTag = single.headers.get("etag") as string;
    assert.match(singleTag, /^"[^"]+"$/);
    const notModified = await api.request("GET", `/api/templates/${id}`, undefined, {
      "if-none-match": singleTag,
    });
    assert.equal(notModified.status, 304);
    await ok(api.patch(`/api/templates/${id}`, { description: "changed" }));
    const changed = await api.request("GET", `/api/templates/${id}`, undefined, {
      "if-none-match": singleTag,
    });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get("etag"), singleTag);
    const list = await api.request("GET", `/api/boards/${fixture.boardId}/templates`, undefined, {
      "if-none-match": tag as string,
    });
    assert.equal(list.status, 200);
  });

  test("404 for unknown boards and templates, 400 for malformed ids", async () => {
    assertError(await api.get("/api/boards/999999/templates"), 404, "board not found");
    assertError(await api.get("/api/templates/999999"), 404, "template not found");
    assertError(await api.get("/api/templates/x"), 400, /templateId/);
    assertError(await api.patch("/api/templates/999999", { name: "x" }), 404, "template not found");
    assertError(await api.delete("/api/templates/999999"), 404, "template not found");
    assertError(await api.post("/api/templates/999999/instantiate", {}), 404, "template not found");
  });
});

describe("PATCH and DELETE /api/templates/{id}", () => {
  test("changes only the fields given, each checked as on create", async () => {
    const fixture = await board();
    const created = await ok(createTemplate(fixture.boardId, release), 201);
    await sleep(5);
    const renamed = await ok(api.patch(`/api/templates/${created.id}`, { name: " Shipping " }));
    assert.equal(renamed.name, "Shipping");
    assert.equal(renamed.description, created.description);
    assert.deepEqual(renamed.tickets, created.tickets);
    assert.equal(renamed.createdAt, created.createdAt);
    assert.ok(renamed.updatedAt > created.updatedAt);

    const retold = await ok(
      api.patch(`/api/templates/${created.id}`, {
        tickets: [{ key: "only", title: "Only {{one}}", laneName: "done" }],
      }),
    );
    assert.equal(retold.name, "Shipping");
    assert.deepEqual(retold.variables, ["one"]);
    assert.deepEqual(
      retold.tickets.map((ticket: any) => [ticket.key, ticket.laneName]),
      [["only", "done"]],
    );
    // Its own name in another case is no clash.
    assert.equal(
      (await ok(api.patch(`/api/templates/${created.id}`, { name: "SHIPPING" }))).name,
      "SHIPPING",
    );
  });

  test("refuses what create refuses, and a PATCH with no known field; nothing changes", async () => {
    const fixture = await board();
    const created = await ok(createTemplate(fixture.boardId, release), 201);
    await ok(createTemplate(fixture.boardId, { ...release, name: "Other" }), 201);
    const path = `/api/templates/${created.id}`;
    assertError(
      await api.patch(path, { other: 1 }),
      400,
      "nothing to update: send name, description or tickets",
    );
    assertError(await api.patch(path, { name: " " }), 400, "name must not be empty");
    assertError(
      await api.patch(path, { name: "other" }),
      409,
      "a template named Other already exists on this board",
    );
    assertError(await api.patch(path, { tickets: [] }), 400, "tickets must not be empty");
    assertError(
      await api.patch(path, { tickets: [{ key: "a", title: "x", laneName: "nope" }] }),
      400,
      'tickets[0].laneName "nope" is not a lane of this board',
    );
    assertError(
      await api.patch(path, {
        name: "Renamed",
        tickets: [{ key: "a", title: "x", parentKey: "a" }],
      }),
      400,
      "tickets[0].parentKey: a ticket cannot be its own parent",
    );
    assert.deepEqual(await ok(api.get(path)), created);
  });

  test("DELETE answers 204; the template is gone, tickets made from it stay", async () => {
    const fixture = await board();
    const created = await ok(createTemplate(fixture.boardId, release), 201);
    const made = await ok(
      api.post(`/api/templates/${created.id}/instantiate`, {
        values: { version: "1", team: "ops" },
      }),
      201,
    );
    const deleted = await api.delete(`/api/templates/${created.id}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, "");
    assertError(await api.get(`/api/templates/${created.id}`), 404, "template not found");
    assert.deepEqual(await templatesOf(fixture.boardId), []);
    assertError(await api.delete(`/api/templates/${created.id}`), 404);
    assert.equal((await ticketsOf(fixture.boardId)).length, made.tickets.length);
  });
});
