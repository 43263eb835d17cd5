import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { tack, tackJson } from "./tack-process.js";

// The agent loop from a terminal: ready, next, claim, renew, release, and versions guarding
// edits (docs/api.md, "Coordination for agents"), with the exit codes scripts branch on.

const api = await startTestServer();

async function boardWithTickets(name: string, titles: Array<[string, number]>) {
  const { board, lanes } = (await api.post("/api/boards", { name })).body;
  const ids: number[] = [];
  for (const [title, priority] of titles) {
    ids.push(
      (await api.post(`/api/boards/${board.id}/tickets`, { laneId: lanes[0].id, title, priority }))
        .body.id,
    );
  }
  return { boardId: String(board.id), ids };
}

describe("WIP limits from the command line", () => {
  test("lane create --wip-limit and lane limit set it; ready and prime name lanes at their limit", async () => {
    const { boardId } = await boardWithTickets("Limits", [
      ["One", 2],
      ["Two", 2],
    ]);
    const created = await tackJson(url(), [
      "lane",
      "create",
      "review",
      "--wip-limit",
      "3",
      "--board",
      boardId,
    ]);
    assert.equal(created.wipLimit, 3);
    const todo = (await api.get(`/api/boards/${boardId}/lanes`)).body.lanes[0];
    const limited = await tack(url(), ["lane", "limit", String(todo.id), "2"]);
    assert.equal(limited.code, 0, limited.stderr);
    assert.match(limited.stdout, /has a WIP limit of 2/);

    const ready = await tack(url(), ["ready", "--board", boardId]);
    assert.match(ready.stdout, new RegExp(`WIP limit.*: ${todo.id} todo \\(2/2\\)`));
    const prime = await tack(url(), ["prime", "--board", boardId]);
    assert.match(prime.stdout, new RegExp(`WIP limit.*: ${todo.id} todo \\(2/2\\)`));

    const cleared = await tackJson(url(), ["lane", "limit", String(todo.id), "none"]);
    assert.equal(cleared.wipLimit, null);
    assert.doesNotMatch((await tack(url(), ["ready", "--board", boardId])).stdout, /WIP limit/);
    const bad = await tack(url(), ["lane", "limit", String(todo.id), "0"]);
    assert.equal(bad.code, 2);
  });
});

describe("insights from the command line", () => {
  test("tack insights prints the summary and a row per bucket; --json is the API's answer", async () => {
    const { boardId } = await boardWithTickets("Insights", [["Work", 2]]);
    const period = ["--from", "2020-01-01T00:00:00Z", "--to", "2020-01-03T00:00:00Z"];
    const json = await tackJson(url(), ["insights", "--board", boardId, ...period]);
    const fromApi = await api.get(
      `/api/boards/${boardId}/insights?from=2020-01-01T00:00:00Z&to=2020-01-03T00:00:00Z`,
    );
    // Aging is measured up to now, which moves between the two requests.
    const withoutAges = (answer: any) => ({
      ...answer,
      aging: answer.aging.map((entry: { ticketId: number }) => entry.ticketId),
    });
    assert.deepEqual(withoutAges(json), withoutAges(fromApi.body));
    const printed = await tack(url(), ["insights", "--board", boardId, ...period]);
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /2 day buckets; 0 resolutions/);
    assert.match(printed.stdout, /Lead time: 0 tickets; p50 -/);
    assert.match(printed.stdout, /BUCKET\s+RESOLVED\s+todo\s+doing\s+done/);
    assert.match(printed.stdout, /2020-01-02T00:00:00.000Z\s+0\s+0/);
    const bad = await tack(url(), ["insights", "--board", boardId, "--bucket", "month"]);
    assert.equal(bad.code, 2);
  });
});

describe("claims from the command line", { concurrency: true }, () => {
  test("ready lists best first; next claims the top; a second next gets the other; then exit 3", async () => {
    const { boardId, ids } = await boardWithTickets("Queue", [
      ["Low", 1],
      ["Urgent", 4],
    ]);
    const ready = await tackJson(url(), ["ready", "--board", boardId]);
    const fromApi = await api.get(`/api/boards/${boardId}/tickets?ready=true`);
    assert.deepEqual(ready, fromApi.body, "--json is the API's answer");
    assert.deepEqual(
      ready.tickets.map((ticket: { id: number }) => ticket.id),
      [ids[1], ids[0]],
    );
    const table = await tack(url(), ["ready", "--board", boardId]);
    assert.match(table.stdout.split("\n")[1] ?? "", /urgent\s+todo\s+Urgent/);

    const first = await tack(url(), ["next", "--board", boardId, "-q"], {
      env: { TACK_ACTOR: "a1" },
    });
    assert.equal(first.stdout, `${ids[1]}\n`);
    const second = await tackJson(url(), ["next", "--board", boardId, "--actor", "a2"]);
    assert.equal(second.id, ids[0]);
    assert.equal(second.claim.actor, "a2");
    const none = await tack(url(), ["next", "--board", boardId]);
    assert.equal(none.code, 3);
    assert.match(none.stderr, /no ticket is ready/);
  });

  test("claim by another actor exits 4; renew extends; release --handoff comments and frees", async () => {
    const { ids } = await boardWithTickets("Claims", [["Work", 2]]);
    const id = String(ids[0]);
    const claimed = await tackJson(url(), ["claim", id, "--actor", "a1", "--lease", "60"]);
    assert.equal(claimed.claim.actor, "a1");

    const conflict = await tack(url(), ["claim", id, "--actor", "a2"]);
    assert.equal(conflict.code, 4);
    assert.match(
      conflict.stderr,
      /^tack: ticket is claimed by a1 until .*\nhint: another actor holds/,
    );

    const renewed = await tackJson(url(), ["renew", id, "--actor", "a1", "--lease", "3600"]);
    assert.ok(Date.parse(renewed.claim.expiresAt) > Date.parse(claimed.claim.expiresAt));
    assert.equal(renewed.claim.claimedAt, claimed.claim.claimedAt);

    const released = await tackJson(url(), [
      "release",
      id,
      "--actor",
      "a1",
      "--handoff",
      "tests pass; docs left",
    ]);
    assert.equal(released.claim, null);
    assert.equal(released.isResolved, false);
    assert.equal(released.comments[0].bodyMarkdown, "Handoff: tests pass; docs left");
  });

  test("release --done resolves; edit --if-version with a stale version exits 4 and writes nothing", async () => {
    const { ids } = await boardWithTickets("Versions", [["Versioned", 2]]);
    const id = String(ids[0]);
    const before = (await api.get(`/api/tickets/${id}`)).body;
    await api.patch(`/api/tickets/${id}`, { priority: 3 });
    const stale = await tack(url(), [
      "ticket",
      "edit",
      id,
      "--title",
      "Mine",
      "--if-version",
      String(before.version),
    ]);
    assert.equal(stale.code, 4, stale.stderr);
    assert.match(stale.stderr, /is at version \d+, not \d+/);
    assert.equal((await api.get(`/api/tickets/${id}`)).body.title, "Versioned");
    const fresh = await tackJson(url(), [
      "ticket",
      "edit",
      id,
      "--title",
      "Mine",
      "--if-version",
      String(before.version + 1),
    ]);
    assert.equal(fresh.title, "Mine");

    await tack(url(), ["claim", id]);
    const done = await tackJson(url(), ["release", id, "--done"]);
    assert.equal(done.isResolved, true);
    assert.equal(done.claim, null);
  });
});

function url(): string {
  return api.url;
}
