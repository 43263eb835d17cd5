import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { assertError, createTag, ok } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { SseClient, sleep } from "../helpers/sse-client.js";
import { type BoardFixture, getTicket, newTicket } from "../helpers/tickets.js";
import { release, templateRequests } from "./templates-setup.js";

// Making tickets from a template (docs/api.md, "Templates"), and what a board's stream hears of
// templates.

const api = await startTestServer();
const streams: SseClient[] = [];
after(() => {
  for (const stream of streams) stream.close();
});
const { board, createTemplate, templatesOf, ticketsOf } = templateRequests(api);

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
