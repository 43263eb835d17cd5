import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { useClock } from "../../src/domain/clock.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, getTicket, idsOf, listTickets, newTicket } from "../helpers/tickets.js";

// What asks do to their tickets (docs/api.md, "Asks"): `openAsks`, the version, the ready queue
// and claim-next, the list's ETag; on the kept lists (the default server) and on a server that
// builds every list anew.

const api = await startTestServer();
const fresh = await startTestServer({ answers: { reference: true } });

async function openAsk(server: typeof api, ticketId: number, blocking = true): Promise<number> {
  const response = await server.post(`/api/tickets/${ticketId}/asks`, {
    actor: "agent",
    question: "Which way?",
    blocking,
  });
  assert.equal(response.status, 201, response.text);
  return response.body.id;
}

for (const [name, server] of [
  ["kept lists", api],
  ["fresh lists", fresh],
] as const) {
  describe(`asks and their tickets (${name})`, () => {
    test("openAsks counts open asks of any kind; each ask change is one version", async () => {
      const board = await boardWithLanes(server, "Counts");
      const ticket = await newTicket(server, board.boardId, board.laneIds[0], "t");
      const first = await openAsk(server, ticket.id);
      await openAsk(server, ticket.id, false);
      let now = await getTicket(server, ticket.id);
      assert.equal(now.openAsks, 2);
      assert.equal(now.version, ticket.version + 2);
      const [summary] = await listTickets(server, board.boardId);
      assert.equal(summary.openAsks, 2);
      const answered = await server.post(`/api/asks/${first}/answer`, { by: "dev", text: "left" });
      assert.equal(answered.status, 200);
      now = await getTicket(server, ticket.id);
      assert.equal(now.openAsks, 1);
      assert.equal(now.version, ticket.version + 3);
      assert.equal((await listTickets(server, board.boardId))[0].openAsks, 1);
    });

    test("an open blocking ask keeps its ticket out of ready and claim-next until it is answered or withdrawn", async () => {
      const board = await boardWithLanes(server, "Held");
      const held = await newTicket(server, board.boardId, board.laneIds[0], "held", {
        priority: 4,
      });
      const other = await newTicket(server, board.boardId, board.laneIds[0], "other");
      const ready = async () => idsOf(await listTickets(server, board.boardId, "ready=true"));
      assert.deepEqual(await ready(), [held.id, other.id]);
      const before = await server.get(`/api/boards/${board.boardId}/tickets?ready=true`);
      const askId = await openAsk(server, held.id);
      const after = await server.get(`/api/boards/${board.boardId}/tickets?ready=true`);
      assert.notEqual(after.headers.get("etag"), before.headers.get("etag"));
      assert.deepEqual(idsOf(after.body.tickets), [other.id]);
      const claimed = await server.post(`/api/boards/${board.boardId}/claim-next`, {
        actor: "a1",
        leaseSeconds: 60,
      });
      assert.equal(claimed.body.id, other.id);
      await server.post(`/api/tickets/${other.id}/release`, { actor: "a1" });
      const withdrawn = await server.post(`/api/asks/${askId}/withdraw`, { actor: "agent" });
      assert.equal(withdrawn.status, 200);
      assert.deepEqual(await ready(), [held.id, other.id]);
    });

    test("a non-blocking ask holds nothing", async () => {
      const board = await boardWithLanes(server, "Free");
      const ticket = await newTicket(server, board.boardId, board.laneIds[0], "t");
      await openAsk(server, ticket.id, false);
      assert.deepEqual(idsOf(await listTickets(server, board.boardId, "ready=true")), [ticket.id]);
      const claimed = await server.post(`/api/boards/${board.boardId}/claim-next`, {
        actor: "a1",
      });
      assert.equal(claimed.body.id, ticket.id);
    });
  });
}

// docs/api.md, "Not before": the test's clock (domain/clock.ts) moves instead of the test waiting.
describe("not before", () => {
  let clock = Date.parse("2031-03-01T12:00:00.000Z");
  const restore = useClock(() => clock);
  after(restore);

  test("create and PATCH take an RFC 3339 date-time with an offset, shown in UTC; null clears", async () => {
    const board = await boardWithLanes(api, "Not before");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t", {
      notBefore: "2031-03-02T09:30:00+02:00",
    });
    assert.equal(ticket.notBefore, "2031-03-02T07:30:00.000Z");
    const [summary] = await listTickets(api, board.boardId);
    assert.equal(summary.notBefore, "2031-03-02T07:30:00.000Z");
    const changed = await api.patch(`/api/tickets/${ticket.id}`, {
      notBefore: "2031-03-05t10:00:00.5z",
    });
    assert.equal(changed.body.notBefore, "2031-03-05T10:00:00.500Z");
    assert.equal(changed.body.version, ticket.version + 1);
    const cleared = await api.patch(`/api/tickets/${ticket.id}`, { notBefore: null });
    assert.equal(cleared.body.notBefore, null);
    const activity = await api.get(`/api/tickets/${ticket.id}/activity`);
    const entry = activity.body.activity?.[0] ?? activity.body[0];
    assert.deepEqual(entry.details.changed, ["notBefore"]);
    for (const notBefore of ["2031-03-02T09:30:00", "tomorrow", "2031-02-30T00:00:00Z", 5, ""]) {
      const refused = await api.patch(`/api/tickets/${ticket.id}`, { notBefore });
      assert.equal(refused.status, 400, `${notBefore}`);
      assert.match(refused.body.error, /notBefore/);
    }
    const bad = await api.post(`/api/boards/${board.boardId}/tickets`, {
      laneId: board.laneIds[0],
      title: "bad",
      notBefore: "soon",
    });
    assert.equal(bad.status, 400);
    assert.equal((await getTicket(api, ticket.id)).version, cleared.body.version);
  });

  for (const [name, server] of [
    ["kept lists", api],
    ["fresh lists", fresh],
  ] as const) {
    test(`a moment to come keeps a ticket out of ready and claim-next until it passes (${name})`, async () => {
      const board = await boardWithLanes(server, `Waiting ${name}`);
      const later = new Date(clock + 60_000).toISOString();
      const waiting = await newTicket(server, board.boardId, board.laneIds[0], "waiting", {
        priority: 4,
        notBefore: later,
      });
      const path = `/api/boards/${board.boardId}/tickets?ready=true`;
      const before = await server.get(path);
      assert.deepEqual(idsOf(before.body.tickets), []);
      const none = await server.post(`/api/boards/${board.boardId}/claim-next`, { actor: "a" });
      assert.equal(none.status, 204);
      clock += 61_000;
      // Ready with no write: the list and its ETag follow the clock.
      const after = await server.get(path);
      assert.deepEqual(idsOf(after.body.tickets), [waiting.id]);
      assert.notEqual(after.headers.get("etag"), before.headers.get("etag"));
      const picked = await server.post(`/api/boards/${board.boardId}/claim-next`, { actor: "a" });
      assert.equal(picked.body.id, waiting.id);
    });
  }

  test("a direct claim may take a ticket whose moment has not come", async () => {
    const board = await boardWithLanes(api, "Direct");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t", {
      notBefore: new Date(clock + 3_600_000).toISOString(),
    });
    const claimed = await api.post(`/api/tickets/${ticket.id}/claim`, { actor: "a" });
    assert.equal(claimed.status, 200);
    assert.equal(claimed.body.claim.actor, "a");
  });

  test("export and import carry it", async () => {
    const board = await boardWithLanes(api, "Carried");
    const at = "2031-04-01T00:00:00.000Z";
    await newTicket(api, board.boardId, board.laneIds[0], "t", { notBefore: at });
    const exported = await api.get(`/api/boards/${board.boardId}/export`);
    assert.equal(exported.body.tickets[0].notBefore, at);
    const document = { ...exported.body, board: { name: "Carried again" } };
    const imported = await api.post("/api/boards/import", document);
    assert.equal(imported.status, 201, imported.text);
    const [ticket] = await listTickets(api, imported.body.board.id);
    assert.equal(ticket.notBefore, at);
    document.tickets[0].notBefore = "2031-04-01";
    const refused = await api.post("/api/boards/import", document);
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /tickets\[0\]\.notBefore/);
  });
});

// docs/api.md, "Checklists".
const BODY = [
  "Intro with [ ] no list",
  "- [ ] one",
  "* [x] two",
  "  1. [X] nested three",
  "> - [ ] quoted four",
  "```",
  "- [ ] in code",
  "```",
  "<div>",
  "- [ ] in raw HTML",
  "</div>",
  "",
  "+ [ ]\u00a0five",
].join("\r\n");

describe("checklists", () => {
  test("the task list items of the body: any marker and depth, quotes yes, code and HTML no", async () => {
    const board = await boardWithLanes(api, "Checklists");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t", {
      bodyMarkdown: BODY,
    });
    assert.deepEqual(ticket.checklist, { done: 2, total: 5 });
    assert.deepEqual((await listTickets(api, board.boardId))[0].checklist, { done: 2, total: 5 });
    const plain = await newTicket(api, board.boardId, board.laneIds[0], "plain");
    assert.deepEqual(plain.checklist, { done: 0, total: 0 });
    const edited = await api.patch(`/api/tickets/${plain.id}`, { bodyMarkdown: "- [x] done" });
    assert.deepEqual(edited.body.checklist, { done: 1, total: 1 });
  });

  test("PATCH .../checklist sets one box and changes no other character", async () => {
    const board = await boardWithLanes(api, "Boxes");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t", {
      bodyMarkdown: BODY,
    });
    const set = (index: unknown, checked: unknown, headers: Record<string, string> = {}) =>
      api.request("PATCH", `/api/tickets/${ticket.id}/checklist`, { index, checked }, headers);
    const quoted = await set(3, true);
    assert.equal(quoted.status, 200);
    assert.equal(quoted.body.bodyMarkdown, BODY.replace("> - [ ] quoted", "> - [x] quoted"));
    assert.deepEqual(quoted.body.checklist, { done: 3, total: 5 });
    assert.equal(quoted.body.version, ticket.version + 1);
    const nested = await set(2, false);
    assert.equal(
      nested.body.bodyMarkdown,
      BODY.replace("> - [ ] quoted", "> - [x] quoted").replace("[X] nested", "[ ] nested"),
    );
    const last = await set(4, true);
    assert.ok(last.body.bodyMarkdown.endsWith("+ [x]\u00a0five"));
    assert.deepEqual(await getTicket(api, ticket.id), last.body);
    const entries = (await api.get(`/api/tickets/${ticket.id}/activity`)).body;
    const latest = (entries.activity ?? entries)[0];
    assert.equal(latest.action, "ticket_updated");
    assert.deepEqual(latest.details.changed, ["bodyMarkdown"]);

    // The state it has: nothing written.
    const same = await set(4, true);
    assert.equal(same.status, 200);
    assert.equal(same.body.version, last.body.version);
    assert.equal(same.body.updatedAt, last.body.updatedAt);

    for (const [index, checked] of [
      [5, true],
      [-1, true],
      [1.5, true],
      ["1", true],
      [1, "true"],
      [undefined, true],
      [1, undefined],
    ]) {
      const refused = await set(index, checked);
      assert.equal(refused.status, 400, `${index} ${checked}`);
    }
    const stale = await set(0, true, { "if-match": `"t${ticket.id}.1"` });
    assert.equal(stale.status, 412);
    assert.equal(stale.body.error, "ticket has changed");
    const tag = (await api.get(`/api/tickets/${ticket.id}`)).headers.get("etag") as string;
    const matched = await set(0, true, { "if-match": tag });
    assert.equal(matched.status, 200);
    assert.equal((await getTicket(api, ticket.id)).version, last.body.version + 1);
    const missing = await api.patch("/api/tickets/999999/checklist", { index: 0, checked: true });
    assert.equal(missing.status, 404);
  });

  test("a body without task list items has no item to set", async () => {
    const board = await boardWithLanes(api, "No list");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t", {
      bodyMarkdown: "`- [ ] code`",
    });
    assert.deepEqual(ticket.checklist, { done: 0, total: 0 });
    const refused = await api.patch(`/api/tickets/${ticket.id}/checklist`, {
      index: 0,
      checked: true,
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /index/);
  });
});
