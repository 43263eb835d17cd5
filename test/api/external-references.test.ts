import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, getTicket, idsOf, listTickets, newTicket } from "../helpers/tickets.js";

const api = await startTestServer();

const SPEC = {
  provider: "gitlab",
  instanceUrl: "https://gitlab.example.com",
  projectKey: "platform/specs",
  issueKey: "42",
  displayRef: "platform/specs#42",
  url: "https://gitlab.example.com/platform/specs/-/issues/42",
};

async function setup() {
  const board = await boardWithLanes(api, "Refs");
  const ticket = await newTicket(api, board.boardId, board.laneIds[0], "referencing");
  return { ...board, ticketId: ticket.id as number };
}

const put = (ticketId: number, kind: string, body: unknown) =>
  api.put(`/api/tickets/${ticketId}/external-references/${kind}`, body);

const referenceActivity = async (ticketId: number) =>
  (await api.get(`/api/tickets/${ticketId}/activity`)).body.activity.filter((entry: any) =>
    entry.action.startsWith("external_reference"),
  );

describe("setting an external reference", () => {
  test("PUT answers the full Ticket carrying the reference, with defaults", async () => {
    const { ticketId } = await setup();
    const response = await put(ticketId, "spec", SPEC);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.id, ticketId);
    assert.ok(Array.isArray(response.body.comments), "a full Ticket, not a summary");
    const [reference] = response.body.externalReferences;
    assert.deepEqual(
      { ...reference, id: 0, createdAt: "", updatedAt: "" },
      {
        ...SPEC,
        id: 0,
        ticketId,
        kind: "spec",
        resourceType: "issue",
        title: null,
        createdAt: "",
        updatedAt: "",
      },
    );
    assert.equal(reference.createdAt, reference.updatedAt);
    assert.deepEqual((await getTicket(api, ticketId)).externalReferences, [reference]);
  });

  test("strings are trimmed; resourceType and title are kept when sent", async () => {
    const { ticketId } = await setup();
    const response = await put(ticketId, "doc", {
      ...SPEC,
      provider: " gitlab ",
      displayRef: " specs#42 ",
      resourceType: "work_item",
      title: "  Storage design ",
    });
    assert.equal(response.status, 200, response.text);
    const [reference] = response.body.externalReferences;
    assert.equal(reference.provider, "gitlab");
    assert.equal(reference.displayRef, "specs#42");
    assert.equal(reference.resourceType, "work_item");
    assert.equal(reference.title, "Storage design");
  });

  test("is idempotent: the same body again keeps one reference, one entry, the same updatedAt", async () => {
    const { ticketId } = await setup();
    const first = (await put(ticketId, "spec", SPEC)).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await put(ticketId, "spec", { ...SPEC, title: null });
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, first);
    assert.equal(second.body.updatedAt, first.updatedAt);
    assert.equal(second.body.externalReferences.length, 1);
    assert.equal((await referenceActivity(ticketId)).length, 1);
  });

  test("a changed body updates the same reference and bumps updatedAt", async () => {
    const { ticketId } = await setup();
    const first = (await put(ticketId, "spec", SPEC)).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const changed = (
      await put(ticketId, "spec", { ...SPEC, issueKey: "43", displayRef: "specs#43" })
    ).body;
    const [before] = first.externalReferences;
    const [after] = changed.externalReferences;
    assert.equal(after.id, before.id);
    assert.equal(after.createdAt, before.createdAt);
    assert.ok(after.updatedAt > before.updatedAt);
    assert.equal(after.issueKey, "43");
    assert.ok(changed.updatedAt > first.updatedAt, "the ticket's updatedAt moves too");
    assert.equal((await referenceActivity(ticketId)).length, 2);
  });

  test("one reference per kind, listed by kind", async () => {
    const { ticketId } = await setup();
    await put(ticketId, "spec", SPEC);
    await put(ticketId, "doc", SPEC);
    const response = await put(ticketId, "Source", { ...SPEC, provider: "github" });
    assert.deepEqual(
      response.body.externalReferences.map((reference: { kind: string }) => reference.kind),
      ["Source", "doc", "spec"],
    );
  });

  test("kind must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$", async () => {
    const { ticketId } = await setup();
    for (const kind of ["1spec", "_x", "spec.v2", "a".repeat(65), "sp%20ec", "%C3%A9t%C3%A9"]) {
      assertError(await put(ticketId, kind, SPEC), 400, "kind has an invalid format");
    }
    for (const kind of ["a", `A${"b".repeat(63)}`, "spec_v2-final"]) {
      assert.equal((await put(ticketId, kind, SPEC)).status, 200, kind);
    }
  });

  test("body rules: required strings, provider/displayRef/url not blank, no coercion", async () => {
    const { ticketId } = await setup();
    const { url: _url, ...withoutUrl } = SPEC;
    assertError(await put(ticketId, "spec", withoutUrl), 400, "url is required");
    assertError(
      await put(ticketId, "spec", { ...SPEC, provider: "  " }),
      400,
      "provider must not be empty",
    );
    assertError(
      await put(ticketId, "spec", { ...SPEC, displayRef: "" }),
      400,
      "displayRef must not be empty",
    );
    assertError(
      await put(ticketId, "spec", { ...SPEC, issueKey: 42 }),
      400,
      "issueKey must be a string",
    );
    assertError(
      await put(ticketId, "spec", { ...SPEC, title: 1 }),
      400,
      "title must be a string or null",
    );
    assertError(
      await put(ticketId, "spec", { ...SPEC, title: "t".repeat(501) }),
      400,
      "title must be at most 500 characters",
    );
    assert.deepEqual((await getTicket(api, ticketId)).externalReferences, []);
    assert.deepEqual(await referenceActivity(ticketId), []);
  });

  test("404 for an unknown ticket", async () => {
    assertError(await put(999_999, "spec", SPEC), 404, "ticket not found");
  });
});

describe("removing an external reference", () => {
  test("DELETE answers 200 with the ticket without that reference", async () => {
    const { ticketId } = await setup();
    await put(ticketId, "spec", SPEC);
    await put(ticketId, "doc", SPEC);
    const response = await api.delete(`/api/tickets/${ticketId}/external-references/spec`);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.id, ticketId);
    assert.deepEqual(
      response.body.externalReferences.map((reference: { kind: string }) => reference.kind),
      ["doc"],
    );
  });

  test("404 when the kind is not set or the ticket unknown; kind is still checked", async () => {
    const { ticketId } = await setup();
    assertError(
      await api.delete(`/api/tickets/${ticketId}/external-references/spec`),
      404,
      "no external reference of kind spec on this ticket",
    );
    assertError(await api.delete("/api/tickets/999999/external-references/spec"), 404);
    assertError(await api.delete(`/api/tickets/${ticketId}/external-references/9x`), 400);
  });
});

describe("search over external references", () => {
  test("q finds tickets by reference fields, and ext#/provider# prefixes by issue key", async () => {
    const board = await boardWithLanes(api, "Searchable");
    const referenced = await newTicket(api, board.boardId, board.laneIds[0], "first");
    // A ticket without references must never match.
    await newTicket(api, board.boardId, board.laneIds[0], "second");
    await put(referenced.id, "designdoc", { ...SPEC, title: "Quarterly Überblick" });
    const search = async (q: string) =>
      idsOf(await listTickets(api, board.boardId, `q=${encodeURIComponent(q)}`));
    assert.deepEqual(await search("platform/specs"), [referenced.id]);
    assert.deepEqual(await search("überblick"), [referenced.id], "title, Unicode case-insensitive");
    assert.deepEqual(await search("DESIGNDOC"), [referenced.id], "matches the kind too");
    assert.deepEqual(await search("ext#42"), [referenced.id]);
    assert.deepEqual(await search("gl#42"), [referenced.id]);
    assert.deepEqual(await search("gh#42"), []);
    assert.deepEqual(await search("remote#42"), [], "remote# is tracked links only");
    await api.delete(`/api/tickets/${referenced.id}/external-references/designdoc`);
    assert.deepEqual(await search("platform/specs"), []);
  });
});
