import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { assertError, createTag } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { SseClient, sleep } from "../helpers/sse-client.js";
import { type BoardFixture, boardWithLanes, getTicket, newTicket } from "../helpers/tickets.js";

// Templates (docs/api.md, "Templates"): CRUD, every validation rule, and instantiation.

const api = await startTestServer();
const streams: SseClient[] = [];
after(() => {
  for (const stream of streams) stream.close();
});

const ok = async <T = any>(
  response: Promise<{ status: number; body: T; text: string }>,
  status = 200,
) => {
  const result = await response;
  assert.equal(result.status, status, result.text);
  return result.body;
};

let boardNumber = 0;
const board = (lanes = ["todo", "doing", "done"]) =>
  boardWithLanes(api, `Templates ${++boardNumber}`, lanes);

const createTemplate = (boardId: number, body: unknown) =>
  api.post(`/api/boards/${boardId}/templates`, body);

const templatesOf = async (boardId: number) =>
  (await ok(api.get(`/api/boards/${boardId}/templates`))).templates as any[];

const ticketsOf = async (boardId: number) =>
  (await ok(api.get(`/api/boards/${boardId}/tickets?archived=all`))).tickets as any[];

const release = {
  name: "Release",
  description: "Steps of a {{ignored}} release",
  tickets: [
    { key: "prep", title: "  Prepare {{version}}  ", bodyMarkdown: "For {{team}}", priority: 3 },
    { key: "ship", title: "Ship {{version}}", laneName: "doing", tagNames: ["release"] },
  ],
};

describe("POST /api/boards/{boardId}/templates", () => {
  test("answers 201 Template: trimmed name and titles, defaults filled, variables", async () => {
    const fixture = await board();
    const created = await ok(
      createTemplate(fixture.boardId, { ...release, name: " Release " }),
      201,
    );
    assert.deepEqual(Object.keys(created).sort(), [
      "boardId",
      "createdAt",
      "description",
      "id",
      "name",
      "tickets",
      "updatedAt",
      "variables",
    ]);
    assert.equal(created.boardId, fixture.boardId);
    assert.equal(created.name, "Release");
    assert.equal(created.description, "Steps of a {{ignored}} release");
    assert.equal(created.createdAt, created.updatedAt);
    assert.deepEqual(created.tickets, [
      {
        key: "prep",
        title: "Prepare {{version}}",
        bodyMarkdown: "For {{team}}",
        laneName: null,
        priority: 3,
        tagNames: [],
        parentKey: null,
        blockerKeys: [],
      },
      {
        key: "ship",
        title: "Ship {{version}}",
        bodyMarkdown: "",
        laneName: "doing",
        priority: 2,
        tagNames: ["release"],
        parentKey: null,
        blockerKeys: [],
      },
    ]);
    // Titles and bodies, not the description; each name once.
    assert.deepEqual(created.variables, ["team", "version"]);
    assert.deepEqual(await ok(api.get(`/api/templates/${created.id}`)), created);
    assert.deepEqual(await templatesOf(fixture.boardId), [created]);
  });

  test("variables: {{name}} with a letter or _ first, up to 50 characters, sorted by code point", async () => {
    const fixture = await board();
    const long = `a${"b".repeat(49)}`;
    const created = await ok(
      createTemplate(fixture.boardId, {
        name: "Vars",
        tickets: [
          { key: "a", title: "{{beta}} {{Zeta}} {{_x}} {{alpha}} {{beta}}" },
          {
            key: "b",
            title: "literal {{ spaced }} {{1x}} {{x-y}} {x} {{}}",
            bodyMarkdown: `{{${long}}} {{${long}b}} {{{wrapped}}} {{Zeta}} {{ä}}`,
          },
        ],
      }),
      201,
    );
    assert.deepEqual(created.variables, ["Zeta", "_x", long, "alpha", "beta", "wrapped"]);
  });

  test("a name the board has, ignoring case, is 409; another board may use it", async () => {
    const fixture = await board();
    await ok(createTemplate(fixture.boardId, release), 201);
    assertError(
      await createTemplate(fixture.boardId, { ...release, name: " RELEASE " }),
      409,
      "a template named Release already exists on this board",
    );
    assert.equal((await templatesOf(fixture.boardId)).length, 1);
    const other = await board();
    await ok(createTemplate(other.boardId, release), 201);
  });

  test("404 for an unknown board, 400 for a malformed id", async () => {
    assertError(await createTemplate(999_999, release), 404, "board not found");
    assertError(await createTemplate(0, release), 400, /boardId/);
  });

  const one = (ticket: Record<string, unknown>) => ({ name: "T", tickets: [ticket] });
  const two = (first: Record<string, unknown>, second: Record<string, unknown>) => ({
    name: "T",
    tickets: [first, second],
  });
  const invalid: Array<[string, unknown, string | RegExp]> = [
    ["a missing name", { tickets: [{ key: "a", title: "x" }] }, "name is required"],
    ["a blank name", { name: "  ", tickets: [{ key: "a", title: "x" }] }, "name must not be empty"],
    [
      "a name over 200 characters",
      { name: "n".repeat(201), tickets: [{ key: "a", title: "x" }] },
      "name must be at most 200 characters",
    ],
    [
      "a description over 10,000 characters",
      { name: "T", description: "d".repeat(10_001), tickets: [{ key: "a", title: "x" }] },
      "description must be at most 10000 characters",
    ],
    [
      "a null description",
      { name: "T", description: null, tickets: [{ key: "a", title: "x" }] },
      /description/,
    ],
    ["missing tickets", { name: "T" }, "tickets is required"],
    ["no tickets", { name: "T", tickets: [] }, "tickets must not be empty"],
    [
      "201 tickets",
      {
        name: "T",
        tickets: Array.from({ length: 201 }, (_, index) => ({ key: `k${index}`, title: "x" })),
      },
      "tickets must have at most 200 items",
    ],
    ["a missing key", one({ title: "x" }), "tickets[0].key is required"],
    ["a blank key", one({ key: " ", title: "x" }), "tickets[0].key must not be empty"],
    [
      "a key over 50 characters",
      one({ key: "k".repeat(51), title: "x" }),
      "tickets[0].key must be at most 50 characters",
    ],
    [
      "a repeated key",
      two({ key: "a", title: "x" }, { key: " a ", title: "y" }),
      "tickets[1].key repeats the key of tickets[0]",
    ],
    ["a missing title", one({ key: "a" }), "tickets[0].title is required"],
    ["a blank title", one({ key: "a", title: "  " }), "tickets[0].title must not be empty"],
    [
      "a title over 500 characters",
      one({ key: "a", title: "t".repeat(501) }),
      "tickets[0].title must be at most 500 characters",
    ],
    [
      "a body over 200,000 characters",
      one({ key: "a", title: "x", bodyMarkdown: "b".repeat(200_001) }),
      /tickets\[0\]\.bodyMarkdown must be at most 200000 characters/,
    ],
    [
      "a lane the board lacks",
      one({ key: "a", title: "x", laneName: "review" }),
      'tickets[0].laneName "review" is not a lane of this board',
    ],
    [
      "a lane named in another case",
      one({ key: "a", title: "x", laneName: "DOING" }),
      'tickets[0].laneName "DOING" is not a lane of this board',
    ],
    ["a blank lane", one({ key: "a", title: "x", laneName: " " }), /tickets\[0\]\.laneName/],
    [
      "priority 5",
      one({ key: "a", title: "x", priority: 5 }),
      "tickets[0].priority must be one of 1, 2, 3, 4",
    ],
    ["priority as text", one({ key: "a", title: "x", priority: "2" }), /tickets\[0\]\.priority/],
    [
      "a blank tag name",
      one({ key: "a", title: "x", tagNames: ["ok", " "] }),
      "tickets[0].tagNames[1] must not be empty",
    ],
    [
      "a parent key the template lacks",
      one({ key: "a", title: "x", parentKey: "b" }),
      "tickets[0].parentKey is not a key of this template",
    ],
    [
      "a ticket its own parent",
      one({ key: "a", title: "x", parentKey: "a" }),
      "tickets[0].parentKey: a ticket cannot be its own parent",
    ],
    [
      "a blocker key the template lacks",
      one({ key: "a", title: "x", blockerKeys: ["zz"] }),
      "tickets[0].blockerKeys[0] is not a key of this template",
    ],
    [
      "a ticket blocking itself",
      two({ key: "a", title: "x" }, { key: "b", title: "y", blockerKeys: ["a", "b"] }),
      "tickets[1].blockerKeys[1]: a ticket cannot block itself",
    ],
    [
      "blocker keys that are not strings",
      one({ key: "a", title: "x", blockerKeys: [1] }),
      /tickets\[0\]\.blockerKeys\[0\]/,
    ],
  ];
  for (const [name, body, message] of invalid) {
    test(`400 for ${name}, and nothing is written`, async () => {
      const fixture = await board();
      assertError(await createTemplate(fixture.boardId, body), 400, message);
      assert.deepEqual(await templatesOf(fixture.boardId), []);
    });
  }

  test("parents are one level deep, either way round", async () => {
    const fixture = await board();
    // c's parent b has a parent itself (b is both child and parent).
    assertError(
      await createTemplate(fixture.boardId, {
        name: "Nested",
        tickets: [
          { key: "a", title: "a" },
          { key: "b", title: "b", parentKey: "a" },
          { key: "c", title: "c", parentKey: "b" },
        ],
      }),
      400,
      "tickets[2].parentKey names a ticket that has a parent; parents cannot be nested",
    );
    assertError(
      await createTemplate(fixture.boardId, {
        name: "Nested the other way",
        tickets: [
          { key: "c", title: "c", parentKey: "b" },
          { key: "b", title: "b", parentKey: "a" },
          { key: "a", title: "a" },
        ],
      }),
      400,
      "tickets[0].parentKey names a ticket that has a parent; parents cannot be nested",
    );
    assert.deepEqual(await templatesOf(fixture.boardId), []);
  });

  test("blockers form no cycle of any length", async () => {
    const fixture = await board();
    assertError(
      await createTemplate(fixture.boardId, {
        name: "Pair",
        tickets: [
          { key: "a", title: "a", blockerKeys: ["b"] },
          { key: "b", title: "b", blockerKeys: ["a"] },
        ],
      }),
      400,
      /blockerKeys\[0\]: blocker would create a cycle/,
    );
    assertError(
      await createTemplate(fixture.boardId, {
        name: "Triangle",
        tickets: [
          { key: "a", title: "a", blockerKeys: ["c"] },
          { key: "b", title: "b", blockerKeys: ["a"] },
          { key: "c", title: "c", blockerKeys: ["x", "b"] },
          { key: "x", title: "x" },
        ],
      }),
      400,
      /blocker would create a cycle/,
    );
    assert.deepEqual(await templatesOf(fixture.boardId), []);
    // A diamond is no cycle.
    await ok(
      createTemplate(fixture.boardId, {
        name: "Diamond",
        tickets: [
          { key: "a", title: "a" },
          { key: "b", title: "b", blockerKeys: ["a"] },
          { key: "c", title: "c", blockerKeys: ["a"] },
          { key: "d", title: "d", blockerKeys: ["b", "c", "b"] },
        ],
      }),
      201,
    );
  });

  test("repeated blocker keys and tag names (ignoring case) collapse; null lane and parent are defaults", async () => {
    const fixture = await board();
    const created = await ok(
      createTemplate(fixture.boardId, {
        name: "Collapse",
        tickets: [
          { key: "a", title: "a", laneName: null, parentKey: null },
          {
            key: "b",
            title: "b",
            tagNames: [" Bug ", "bug", "ops"],
            blockerKeys: ["a", " a "],
            laneName: " done ",
          },
        ],
      }),
      201,
    );
    assert.deepEqual(created.tickets[0].laneName, null);
    assert.deepEqual(created.tickets[0].parentKey, null);
    assert.deepEqual(created.tickets[1].tagNames, ["Bug", "ops"]);
    assert.deepEqual(created.tickets[1].blockerKeys, ["a"]);
    assert.equal(created.tickets[1].laneName, "done");
  });
});

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

/** A template using every feature, on a board with a tag "Bug" and a ticket in "todo". */
async function plannedBoard(): Promise<{ fixture: BoardFixture; template: any; bug: any }> {
  const fixture = await board(["todo", "doing", "done"]);
  const bug = await createTag(api, fixture.boardId, "Bug", "#f00");
  await newTicket(api, fixture.boardId, fixture.lane("todo"), "Already there");
  const template = await ok(
    createTemplate(fixture.boardId, {
      name: "Feature",
      tickets: [
        // A child listed before its parent, and a ticket blocked by one listed after it.
        { key: "spec", title: "Spec {{feature}}", parentKey: "epic", blockerKeys: ["research"] },
        {
          key: "epic",
          title: "{{feature}}",
          bodyMarkdown: "Owner: **{{owner}}**, {{owner}} again",
          laneName: "doing",
          priority: 4,
          tagNames: ["bug", "feature {{feature}}", "new"],
        },
        { key: "research", title: "Research", tagNames: ["research"] },
        {
          key: "build",
          title: "Build {{feature}}",
          parentKey: "epic",
          blockerKeys: ["spec", "research"],
          laneName: "done",
        },
      ],
    }),
    201,
  );
  return { fixture, template, bug };
}

describe("POST /api/templates/{id}/instantiate", () => {
  test("makes the tickets in template order: values, lanes, tags, parents, blockers", async () => {
    const { fixture, template, bug } = await plannedBoard();
    assert.deepEqual(template.variables, ["feature", "owner"]);
    const answer = await api.post(`/api/templates/${template.id}/instantiate`, {
      values: { feature: "Search", owner: "$& {{feature}} $1" },
    });
    assert.equal(answer.status, 201, answer.text);
    assert.deepEqual(Object.keys(answer.body), ["tickets"]);
    const [spec, epic, research, build] = answer.body.tickets;
    assert.deepEqual(
      answer.body.tickets.map((ticket: any) => ticket.title),
      ["Spec Search", "Search", "Research", "Build Search"],
    );
    // Each answer is the full Ticket GET answers now.
    for (const ticket of answer.body.tickets) {
      assert.deepEqual(await getTicket(api, ticket.id), ticket);
    }
    // Values are put in once, literally: no $-patterns, no second round of variables.
    assert.equal(epic.bodyMarkdown, "Owner: **$& {{feature}} $1**, $& {{feature}} $1 again");
    assert.match(epic.bodyHtml, /<strong>\$&amp; \{\{feature\}\} \$1<\/strong>/);
    // Lanes: laneName, else the first lane; each at the end of its lane.
    assert.deepEqual(
      [spec, epic, research, build].map((ticket) => ticket.laneId),
      [fixture.lane("todo"), fixture.lane("doing"), fixture.lane("todo"), fixture.lane("done")],
    );
    assert.deepEqual(
      [spec.position, research.position, epic.position, build.position],
      [1, 2, 0, 0],
    );
    assert.equal(epic.priority, 4);
    assert.equal(spec.priority, 2);
    // Tags: the board's tag ignoring case; missing ones made with no colour. Tag names are
    // not titles or bodies: their braces stay as written.
    const shell = await ok(api.get(`/api/boards/${fixture.boardId}`));
    const tag = (name: string) => shell.tags.find((candidate: any) => candidate.name === name);
    assert.deepEqual(
      shell.tags.map((candidate: any) => [candidate.name, candidate.color]),
      [
        ["Bug", "#f00"],
        ["feature {{feature}}", ""],
        ["new", ""],
        ["research", ""],
      ],
    );
    assert.deepEqual(
      epic.tags.map((candidate: any) => candidate.id),
      [bug.id, tag("feature {{feature}}").id, tag("new").id],
    );
    assert.deepEqual(
      research.tags.map((candidate: any) => candidate.id),
      [tag("research").id],
    );
    // Parents and blockers between the new tickets, forward references included.
    assert.equal(spec.parentTicketId, epic.id);
    assert.equal(build.parentTicketId, epic.id);
    assert.equal(epic.parentTicketId, null);
    assert.deepEqual(spec.blockerIds, [research.id]);
    assert.deepEqual(
      build.blockerIds,
      [spec.id, research.id].sort((a, b) => a - b),
    );
    assert.deepEqual(
      epic.children.map((child: any) => child.id).sort((a: number, b: number) => a - b),
      [spec.id, build.id].sort((a, b) => a - b),
    );
    // The ticket made early shows the links later ones made to it.
    const ids = (relations: any[]) => relations.map((ticket) => ticket.id).sort((a, b) => a - b);
    assert.deepEqual(ids(research.blockedBy), ids([spec, build]));
    assert.deepEqual(ids(spec.blockedBy), [build.id]);
    // The template is unchanged and can be used again.
    assert.deepEqual(await ok(api.get(`/api/templates/${template.id}`)), template);
    const second = await ok(
      api.post(`/api/templates/${template.id}/instantiate`, {
        values: { feature: "Export", owner: "me" },
      }),
      201,
    );
    assert.equal(second.tickets.length, 4);
    assert.ok(second.tickets.every((ticket: any) => ticket.id > build.id));
    assert.equal((await ticketsOf(fixture.boardId)).length, 9);
  });

  test("laneId places the tickets without laneName; each ticket's activity is that of a create", async () => {
    const { fixture, template } = await plannedBoard();
    const made = await ok(
      api.post(`/api/templates/${template.id}/instantiate`, {
        values: { feature: "F", owner: "o" },
        laneId: fixture.lane("done"),
      }),
      201,
    );
    assert.deepEqual(
      made.tickets.map((ticket: any) => ticket.laneId),
      [fixture.lane("done"), fixture.lane("doing"), fixture.lane("done"), fixture.lane("done")],
    );
    for (const ticket of made.tickets) {
      const activity = (await ok(api.get(`/api/tickets/${ticket.id}/activity`))).activity;
      const created = activity.filter((entry: any) => entry.action === "ticket_created");
      assert.equal(created.length, 1, JSON.stringify(activity));
      assert.equal(created[0].details.title, ticket.title);
      assert.equal(created[0].details.laneId, ticket.laneId);
    }
    // The spec named its parent and blocker before they existed: they were set by an update.
    const spec = (await ok(api.get(`/api/tickets/${made.tickets[0].id}/activity`))).activity;
    assert.deepEqual(
      spec.map((entry: any) => entry.action),
      ["ticket_updated", "ticket_created"],
    );
    // The epic came first for the build ticket: one entry, naming its parent and blockers.
    const build = (await ok(api.get(`/api/tickets/${made.tickets[3].id}/activity`))).activity;
    assert.deepEqual(
      build.map((entry: any) => entry.action),
      ["ticket_created"],
    );
    assert.equal(build[0].details.parentTicketId, made.tickets[1].id);
    assert.deepEqual(
      [...build[0].details.blockerIds].sort(),
      [made.tickets[0].id, made.tickets[2].id].sort(),
    );
  });

  test("the board's stream sends exactly one message for an instantiation", async () => {
    const { fixture, template } = await plannedBoard();
    const stream = await SseClient.open(`${api.url}/api/boards/${fixture.boardId}/events`);
    streams.push(stream);
    await ok(
      api.post(`/api/templates/${template.id}/instantiate`, {
        values: { feature: "F", owner: "o" },
      }),
      201,
    );
    await stream.waitForMessages(1);
    await sleep(80);
    assert.equal(stream.messages.length, 1);
    assert.equal(stream.messages[0]?.data.event, "board_updated");
  });

  test("creating, changing and deleting a template each send one board_updated", async () => {
    const fixture = await board();
    const stream = await SseClient.open(`${api.url}/api/boards/${fixture.boardId}/events`);
    streams.push(stream);
    const created = await ok(createTemplate(fixture.boardId, release), 201);
    await stream.waitForMessages(1);
    await ok(api.patch(`/api/templates/${created.id}`, { name: "Renamed" }));
    await stream.waitForMessages(2);
    assert.equal((await api.delete(`/api/templates/${created.id}`)).status, 204);
    await stream.waitForMessages(3);
    await sleep(80);
    assert.deepEqual(
      stream.messages.map((message) => message.data.event),
      ["board_updated", "board_updated", "board_updated"],
    );
  });

  test("a board without lanes: tickets without laneName have nowhere to go (400)", async () => {
    const fixture = await board(["only"]);
    const template = await ok(
      createTemplate(fixture.boardId, { name: "T", tickets: [{ key: "a", title: "A" }] }),
      201,
    );
    assert.equal((await api.delete(`/api/lanes/${fixture.lane("only")}`)).status, 204);
    assertError(
      await api.post(`/api/templates/${template.id}/instantiate`, {}),
      400,
      "the board has no lane to put tickets in",
    );
  });

  const refusals: Array<[string, (fixture: BoardFixture) => unknown, string | RegExp]> = [
    [
      "a variable without a value",
      () => ({ values: { feature: "F" } }),
      "values.owner is required",
    ],
    ["no values at all", () => ({}), "values.feature is required"],
    [
      "a value for a name the template lacks",
      () => ({ values: { feature: "F", owner: "o", extra: "x" } }),
      "values.extra is not a variable of this template",
    ],
    [
      "a value that is not a string",
      () => ({ values: { feature: "F", owner: 3 } }),
      /values\.owner must be a string/,
    ],
    [
      "a laneId of another board",
      () => ({ values: { feature: "F", owner: "o" }, laneId: 1 }),
      "laneId is not a lane of this board",
    ],
    [
      "a title blank after substitution",
      () => ({ values: { feature: "  ", owner: "o" } }),
      "tickets[1].title must not be empty",
    ],
    [
      "a title over 500 characters after substitution",
      () => ({ values: { feature: "f".repeat(500), owner: "o" } }),
      "tickets[0].title must be at most 500 characters",
    ],
  ];
  for (const [name, body, message] of refusals) {
    test(`400 for ${name}: nothing is made`, async () => {
      const { fixture, template } = await plannedBoard();
      const before = {
        tickets: await ticketsOf(fixture.boardId),
        shell: await ok(api.get(`/api/boards/${fixture.boardId}`)),
      };
      assertError(
        await api.post(`/api/templates/${template.id}/instantiate`, body(fixture)),
        400,
        message,
      );
      assert.deepEqual(
        {
          tickets: await ticketsOf(fixture.boardId),
          shell: await ok(api.get(`/api/boards/${fixture.boardId}`)),
        },
        before,
      );
    });
  }

  test("a laneName no longer on the board is 400 naming it; the first lane serves when no laneName", async () => {
    const fixture = await board(["todo", "doing"]);
    const template = await ok(
      createTemplate(fixture.boardId, {
        name: "Lanes",
        tickets: [
          { key: "a", title: "A", tagNames: ["new"] },
          { key: "b", title: "B", laneName: "doing" },
        ],
      }),
      201,
    );
    await ok(api.patch(`/api/lanes/${fixture.lane("doing")}`, { name: "in progress" }));
    assertError(
      await api.post(`/api/templates/${template.id}/instantiate`, {}),
      400,
      'tickets[1].laneName "doing" is no longer a lane of this board',
    );
    assert.deepEqual(await ticketsOf(fixture.boardId), []);
    assert.deepEqual((await ok(api.get(`/api/boards/${fixture.boardId}`))).tags, [], "no tag made");
    // Back under its name, the lane serves again; "a" goes to the first lane.
    await ok(api.patch(`/api/lanes/${fixture.lane("doing")}`, { name: "doing" }));
    const made = await ok(api.post(`/api/templates/${template.id}/instantiate`, {}), 201);
    assert.deepEqual(
      made.tickets.map((ticket: any) => ticket.laneId),
      [fixture.lane("todo"), fixture.lane("doing")],
    );
  });

  test("Idempotency-Key: a repeat answers the first answer and makes nothing; another body is 422", async () => {
    const { fixture, template } = await plannedBoard();
    const path = `/api/templates/${template.id}/instantiate`;
    const body = { values: { feature: "F", owner: "o" } };
    const first = await api.request("POST", path, body, { "idempotency-key": "inst-1" });
    assert.equal(first.status, 201, first.text);
    const repeat = await api.request("POST", path, body, { "idempotency-key": "inst-1" });
    assert.equal(repeat.status, 201);
    assert.deepEqual(repeat.body, first.body);
    assert.equal((await ticketsOf(fixture.boardId)).length, 5);
    assertError(
      await api.request(
        "POST",
        path,
        { values: { feature: "G", owner: "o" } },
        {
          "idempotency-key": "inst-1",
        },
      ),
      422,
      "idempotency key reused with a different request",
    );
    assertError(
      await api.request("POST", path, body, { "idempotency-key": "k".repeat(201) }),
      400,
      /idempotency-key/,
    );

    const createPath = `/api/boards/${fixture.boardId}/templates`;
    const made = await api.request(
      "POST",
      createPath,
      { ...release, name: "Keyed" },
      {
        "idempotency-key": "create-1",
      },
    );
    assert.equal(made.status, 201, made.text);
    const again = await api.request(
      "POST",
      createPath,
      { ...release, name: "Keyed" },
      {
        "idempotency-key": "create-1",
      },
    );
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, made.body);
    assert.equal((await templatesOf(fixture.boardId)).length, 2);
  });
});
