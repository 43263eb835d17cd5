import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { useClock } from "../../src/domain/clock.js";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";

// The insights of docs/api.md, "Insights", checked figure by figure against values computed by hand
// from a history built on the test's clock (useClock): no sleeps, no timing.

const api = await startTestServer();
const T0 = Date.parse("2026-01-01T00:00:00.000Z");
const HOUR = 3_600_000;
let clock = T0;
after(useClock(() => clock));
/** Moves the clock to `hours` after T0 (whole hours, or fractions for in-between moments). */
const at = (hours: number) => {
  clock = T0 + hours * HOUR;
};
const iso = (hours: number) => new Date(T0 + hours * HOUR).toISOString();

async function ok(response: Promise<{ status: number; body: any; text: string }>) {
  const answer = await response;
  assert.ok(answer.status < 300, answer.text);
  return answer.body;
}
const create = async (boardId: number, laneId: number, title: string) =>
  (await ok(api.post(`/api/boards/${boardId}/tickets`, { laneId, title }))).id as number;
const patch = (id: number, body: Record<string, unknown>) =>
  ok(api.patch(`/api/tickets/${id}`, body));
const claim = (id: number, actor: string) =>
  ok(api.post(`/api/tickets/${id}/claim`, { actor, leaseSeconds: 86_400 }));
const insights = async (boardId: number, query: string) =>
  ok(api.get(`/api/boards/${boardId}/insights?${query}`));

/**
 * Board B (lanes todo, doing, done) and board Other, hour by hour:
 *  0 A created in todo        1 Bt created in todo        2 A claimed by ann (F created on Other)
 *  3 A to doing (F resolved on Other)                     4 C created in todo
 *  5 A resolved (ann's claim ends: resolved)              6 C archived
 *  7 D created in todo        8 E created in doing        9 E claimed by bob
 * 10 E moved to Other        12 F moved to B/todo (arrives resolved)
 * 14 G created, 15 G deleted 16 K created in todo         20 K to doing
 * 26 Bt to doing  27 Bt resolved  28 Bt reopened  30 Bt resolved again
 */
let board: { id: number; todo: number; doing: number; done: number };
let other: { id: number; lane: number };
const ids: Record<string, number> = {};

before(async () => {
  at(0);
  const made = await ok(
    api.post("/api/boards", { name: "Flow", laneNames: ["todo", "doing", "done"] }),
  );
  const [todo, doing, done] = made.lanes.map((lane: { id: number }) => lane.id);
  board = { id: made.board.id, todo, doing, done };
  const otherMade = await ok(api.post("/api/boards", { name: "Other", laneNames: ["inbox"] }));
  other = { id: otherMade.board.id, lane: otherMade.lanes[0].id };

  ids.A = await create(board.id, todo, "A");
  at(1);
  ids.Bt = await create(board.id, todo, "Bt");
  at(2);
  await claim(ids.A, "ann");
  ids.F = await create(other.id, other.lane, "F");
  at(3);
  await patch(ids.A, { laneId: doing });
  await patch(ids.F, { isResolved: true });
  at(4);
  ids.C = await create(board.id, todo, "C");
  at(5);
  await patch(ids.A, { isResolved: true });
  at(6);
  await patch(ids.C, { isArchived: true });
  at(7);
  ids.D = await create(board.id, todo, "D");
  at(8);
  ids.E = await create(board.id, doing, "E");
  at(9);
  await claim(ids.E, "bob");
  at(10);
  await ok(api.post(`/api/tickets/${ids.E}/move`, { boardId: other.id, laneId: other.lane }));
  at(12);
  await ok(api.post(`/api/tickets/${ids.F}/move`, { boardId: board.id, laneId: todo }));
  at(14);
  ids.G = await create(board.id, todo, "G");
  at(15);
  assert.equal((await api.delete(`/api/tickets/${ids.G}`)).status, 204);
  at(16);
  ids.K = await create(board.id, todo, "K");
  at(20);
  await ok(api.patch(`/api/tickets/${ids.K}/transition`, { laneName: "doing" }));
  at(26);
  await ok(api.patch(`/api/tickets/${ids.Bt}/position`, { laneId: doing, position: 0 }));
  at(27);
  await patch(ids.Bt, { isResolved: true });
  at(28);
  await patch(ids.Bt, { isResolved: false });
  at(30);
  await ok(
    api.post(`/api/boards/${board.id}/tickets/bulk-complete`, {
      ticketIds: [ids.Bt],
      isResolved: true,
    }),
  );
  at(48);
});

const lanesAt = (todo: number, doing: number, done: number) => [
  { laneId: board.todo, count: todo },
  { laneId: board.doing, count: doing },
  { laneId: board.done, count: done },
];

describe("GET /api/boards/{id}/insights", () => {
  test("two daily buckets: every figure as computed by hand", async () => {
    const answer = await insights(board.id, `from=${iso(0)}&to=${iso(48)}&bucket=day`);
    assert.deepEqual(Object.keys(answer), [
      "from",
      "to",
      "bucket",
      "flow",
      "throughput",
      "leadTime",
      "cycleTime",
      "completions",
      "aging",
      "actors",
    ]);
    assert.equal(answer.from, iso(0));
    assert.equal(answer.to, iso(48));
    assert.equal(answer.bucket, "day");
    // End of day 1: todo Bt, D, F (arrived resolved: counted); doing A (resolved), K; C archived,
    // E gone to Other, G deleted. End of day 2: Bt moved to doing.
    assert.deepEqual(answer.flow, [
      { at: iso(0), lanes: lanesAt(3, 2, 0) },
      { at: iso(24), lanes: lanesAt(2, 3, 0) },
    ]);
    // A at 5h; Bt at 27h and 30h (reopened in between); F's resolution happened on Other.
    assert.deepEqual(answer.throughput, [
      { at: iso(0), resolved: 1 },
      { at: iso(24), resolved: 2 },
    ]);
    // Lead: A 5h, Bt 29h (from creation to its latest resolution). Cycle: A from its claim at 2h
    // (3h), Bt from its first move out of todo at 26h (4h). Nearest rank of two values.
    assert.deepEqual(answer.leadTime, { count: 2, p50: 5 * 3600, p85: 29 * 3600, p95: 29 * 3600 });
    assert.deepEqual(answer.cycleTime, { count: 2, p50: 3 * 3600, p85: 4 * 3600, p95: 4 * 3600 });
    // The points behind those percentiles, by resolution time.
    assert.deepEqual(answer.completions, [
      { ticketId: ids.A, resolvedAt: iso(5), leadSeconds: 5 * 3600, cycleSeconds: 3 * 3600 },
      { ticketId: ids.Bt, resolvedAt: iso(30), leadSeconds: 29 * 3600, cycleSeconds: 4 * 3600 },
    ]);
    // Open now: D in todo since its creation, K in doing since 20h; now is 48h.
    assert.deepEqual(answer.aging, [
      { ticketId: ids.D, laneId: board.todo, since: iso(7), ageSeconds: 41 * 3600 },
      { ticketId: ids.K, laneId: board.doing, since: iso(20), ageSeconds: 28 * 3600 },
    ]);
    // ann resolved A while holding her claim; bob's claim ended with E's move.
    assert.deepEqual(answer.actors, [
      { actor: "ann", claimed: 1, resolved: 1 },
      { actor: "bob", claimed: 1, resolved: 0 },
    ]);
  });

  test("a ticket moved between boards counts on each board for its stay there", async () => {
    const answer = await insights(other.id, `from=${iso(0)}&to=${iso(48)}`);
    // F: created 2h, resolved 3h, left at 12h. E: arrived at 10h, open.
    assert.deepEqual(answer.flow, [
      { at: iso(0), lanes: [{ laneId: other.lane, count: 1 }] },
      { at: iso(24), lanes: [{ laneId: other.lane, count: 1 }] },
    ]);
    assert.deepEqual(
      answer.throughput.map((entry: { resolved: number }) => entry.resolved),
      [1, 0],
    );
    // F is resolved now but on board B: no lead time here; E's lead would start at 10h.
    assert.equal(answer.leadTime.count, 0);
    assert.deepEqual(answer.leadTime, { count: 0, p50: null, p85: null, p95: null });
    assert.deepEqual(answer.aging, [
      { ticketId: ids.E, laneId: other.lane, since: iso(10), ageSeconds: 38 * 3600 },
    ]);
    assert.deepEqual(answer.actors, []);
  });

  test("bucket edges: an entry at a bucket's end belongs to the next; the last bucket ends at to", async () => {
    const hourly = await insights(board.id, `from=${iso(0)}&to=${iso(2)}&bucket=hour`);
    // Bt was created at exactly 1h, the end of the first bucket.
    assert.deepEqual(hourly.flow, [
      { at: iso(0), lanes: lanesAt(1, 0, 0) },
      { at: iso(1), lanes: lanesAt(2, 0, 0) },
    ]);
    // [0h, 24h) and a short [24h, 30h): Bt's resolution at 30h falls outside.
    const short = await insights(board.id, `from=${iso(0)}&to=${iso(30)}&bucket=day`);
    assert.deepEqual(short.throughput, [
      { at: iso(0), resolved: 1 },
      { at: iso(24), resolved: 1 },
    ]);
    assert.deepEqual(short.leadTime, { count: 1, p50: 5 * 3600, p85: 5 * 3600, p95: 5 * 3600 });
    // from is inclusive (A resolved at 5h), to exclusive (Bt at 27h); one bucket, cut at 27h.
    const cut = await insights(board.id, `from=${iso(5)}&to=${iso(27)}&bucket=day`);
    assert.deepEqual(cut.throughput, [{ at: iso(5), resolved: 1 }]);
    assert.deepEqual(cut.flow, [{ at: iso(5), lanes: lanesAt(2, 3, 0) }]);
    // ann claimed before from: not listed, although she resolved A inside the period.
    assert.deepEqual(cut.actors, [{ actor: "bob", claimed: 1, resolved: 0 }]);
    // Weekly buckets and offsets: the same instant written with an offset.
    const weekly = await insights(
      board.id,
      `from=${encodeURIComponent("2026-01-01T01:00:00+01:00")}&to=${iso(48)}&bucket=week`,
    );
    assert.equal(weekly.from, iso(0));
    assert.deepEqual(weekly.throughput, [{ at: iso(0), resolved: 3 }]);
  });

  test("defaults: to is now, from 30 × 24 hours before, daily buckets", async () => {
    const answer = await insights(board.id, "");
    assert.equal(answer.to, iso(48));
    assert.equal(answer.from, iso(48 - 30 * 24));
    assert.equal(answer.bucket, "day");
    assert.equal(answer.flow.length, 30);
    assert.equal(answer.throughput.at(-1).at, iso(24));
    assert.deepEqual(
      answer.throughput.slice(-2).map((entry: { resolved: number }) => entry.resolved),
      [1, 2],
    );
  });

  test("an imported board starts each ticket in the lane and state it was imported with", async () => {
    clock = T0 + 100 * HOUR;
    const imported = await ok(
      api.post("/api/boards/import", {
        board: { name: "Imported" },
        lanes: [
          { id: 1, name: "a" },
          { id: 2, name: "b" },
        ],
        tickets: [
          { id: 1, laneId: 2, title: "open in b" },
          { id: 2, laneId: 1, title: "resolved in a", isResolved: true },
          { id: 3, laneId: 1, title: "archived in a", isArchived: true },
        ],
      }),
    );
    const [a, b] = imported.lanes.map((lane: { id: number }) => lane.id);
    const first = imported.tickets.find(
      (ticket: { title: string }) => ticket.title === "open in b",
    );
    at(101);
    await ok(api.patch(`/api/tickets/${first.id}/transition`, { laneName: "a" }));
    clock = T0 + 101.5 * HOUR;
    const quick = await create(imported.board.id, a, "resolved without a start");
    at(102);
    await patch(first.id, { isResolved: true });
    clock = T0 + 102.5 * HOUR;
    await patch(quick, { isResolved: true });
    at(110);
    const answer = await insights(imported.board.id, `from=${iso(100)}&to=${iso(103)}&bucket=hour`);
    const lanes = (countA: number, countB: number) => [
      { laneId: a, count: countA },
      { laneId: b, count: countB },
    ];
    assert.deepEqual(answer.flow, [
      { at: iso(100), lanes: lanes(1, 1) },
      { at: iso(101), lanes: lanes(3, 0) },
      { at: iso(102), lanes: lanes(3, 0) },
    ]);
    // Imported resolved is not a resolution; the move out of b at 101h started the work.
    assert.deepEqual(
      answer.throughput.map((entry: { resolved: number }) => entry.resolved),
      [0, 0, 2],
    );
    assert.deepEqual(answer.leadTime, { count: 2, p50: 3600, p85: 7200, p95: 7200 });
    assert.deepEqual(answer.cycleTime, { count: 1, p50: 3600, p85: 3600, p95: 3600 });
    // A ticket resolved without a start has a lead time and no cycle time.
    assert.deepEqual(answer.completions, [
      { ticketId: first.id, resolvedAt: iso(102), leadSeconds: 7200, cycleSeconds: 3600 },
      { ticketId: quick, resolvedAt: iso(102.5), leadSeconds: 3600, cycleSeconds: null },
    ]);
    assert.deepEqual(answer.aging, []);
    at(48);
  });

  test("bad periods and buckets are 400 naming the problem; an unknown board is 404", async () => {
    const path = `/api/boards/${board.id}/insights`;
    assertError(
      await api.get(`${path}?from=${iso(2)}&to=${iso(2)}`),
      400,
      "from must be before to",
    );
    assertError(
      await api.get(`${path}?from=${iso(3)}&to=${iso(2)}`),
      400,
      "from must be before to",
    );
    for (const bad of [
      "yesterday",
      "2026-01-01",
      "2026-01-01T00:00:00",
      "2026-02-30T00:00:00Z",
      "2026-01-01T24:00:00Z",
      "2026-01-01T00:00:00+25:00",
    ]) {
      assertError(
        await api.get(`${path}?from=${encodeURIComponent(bad)}`),
        400,
        /^from must be an RFC 3339/,
      );
      assertError(
        await api.get(`${path}?to=${encodeURIComponent(bad)}`),
        400,
        /^to must be an RFC 3339/,
      );
    }
    assertError(await api.get(`${path}?bucket=month`), 400, /bucket/);
    // 1,000 hourly buckets are allowed, 1,001 are not.
    assert.equal(
      (await api.get(`${path}?from=${iso(-952)}&to=${iso(48)}&bucket=hour`)).status,
      200,
    );
    assertError(
      await api.get(`${path}?from=${iso(-953)}&to=${iso(48)}&bucket=hour`),
      400,
      /1001 hour buckets; at most 1000/,
    );
    assertError(await api.get("/api/boards/999999/insights"), 404, "board not found");
    assertError(await api.get("/api/boards/x/insights"), 400, /boardId/);
  });
});
