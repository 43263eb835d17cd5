import assert from "node:assert/strict";
import { test } from "node:test";
import { now } from "../../src/domain/clock.js";
import type { ReadyHeadFilter } from "../../src/domain/tickets/ticket-claims.js";
import { setUp } from "./setup.js";

// claim-next's pick from the kept ready order (src/kept-answers/ready-head.ts, the domain's port
// ReadyHeads) against the SQL walk it stands in for (storage/ticket-readiness.ts `firstReady`),
// after each kind of change: for every filter, and inside a unit of work that claims one ticket
// after another, as claim-next's units do.

const { services, kept, db, advance, at } = setUp({ runLength: 2 });
const { stores } = services.answerSources;

const shell = services.boards.create("Heads", ["todo", "doing", "done"]);
const boardId = shell.board.id;
const laneIds = shell.lanes.map((lane) => lane.id) as [number, number, number];
const [todo, doing, done] = laneIds;
const ids: number[] = [];
for (let i = 0; i < 24; i++) {
  const ticket = services.tickets.create(boardId, {
    laneId: laneIds[i % 3] as number,
    title: `ticket ${i}`,
    priority: (i % 4) + 1,
    ...(i === 23 ? { isArchived: true } : {}),
  });
  ids.push(ticket.id);
}
const id = (index: number) => ids[index] as number;

const FILTERS: ReadyHeadFilter[] = [
  {},
  ...laneIds.map((laneId) => ({ laneId })),
  ...[1, 2, 3, 4].map((priority) => ({ priority })),
  { laneId: doing, priority: 3 },
  { laneId: done, priority: 1 },
];

/** The SQL walk's pick, which sees the claims of the unit it runs in. */
const sqlPick = (filter: ReadyHeadFilter): number | undefined =>
  stores.ticketReadiness.firstReady(boardId, now(), filter);

/**
 * For every filter: the kept pick equals the SQL pick, then again and again inside a unit of
 * work that claims each pick (as claim-next does), which is then rolled back.
 */
function compare(step: string): void {
  for (const filter of FILTERS) {
    const label = `${step}: ${JSON.stringify(filter)}`;
    assert.equal(kept.firstReady(boardId, filter, new Set(), now()), sqlPick(filter), label);
    assert.throws(
      () =>
        db.transaction(() => {
          const taken = new Set<number>();
          for (let round = 0; round < 5; round++) {
            const pick = kept.firstReady(boardId, filter, taken, now());
            assert.equal(pick, sqlPick(filter), `${label}, in a unit, after ${taken.size} claims`);
            if (pick === undefined) break;
            stores.ticketClaims.set({
              ticketId: pick,
              boardId,
              actor: "unit",
              claimedAt: now(),
              expiresAt: at(600),
            });
            taken.add(pick);
          }
          throw new Error("roll back");
        })(),
      /roll back/,
    );
  }
}

test("on a fresh board the kept pick is the SQL walk's, alone and inside a unit", () => {
  compare("first picks");
  compare("the same picks again (kept, after a rollback)");
});

const changes: Array<[string, () => void]> = [
  ["a title", () => services.tickets.update(id(0), { title: "retitled" })],
  ["a priority", () => services.tickets.update(id(3), { priority: 4 })],
  ["a lane move", () => services.tickets.update(id(1), { laneId: done })],
  ["a position", () => services.ticketPositions.reposition(id(4), { laneId: todo, position: 0 })],
  ["a lane reorder", () => services.lanes.reorder(boardId, [done, todo, doing])],
  ["a resolution", () => services.tickets.update(id(7), { isResolved: true })],
  ["an archive", () => services.tickets.update(id(11), { isArchived: true })],
  ["an unarchive", () => services.tickets.update(id(23), { isArchived: false })],
  ["a blocker", () => services.tickets.update(id(8), { blockerIds: [id(9)] })],
  ["a blocker resolved", () => services.tickets.update(id(9), { isResolved: true })],
  ["a parent", () => services.tickets.update(id(12), { parentTicketId: id(15) })],
  ["a claim", () => services.ticketClaims.claim(id(15), { actor: "agent", leaseSeconds: 60 })],
  ["a release", () => services.ticketClaims.release(id(15), { actor: "agent" })],
  [
    "a blocking ask",
    () => services.asks.open(id(4), { actor: "agent", question: "Which?", blocking: true }),
  ],
  ["a notBefore", () => services.tickets.update(id(16), { notBefore: at(30) })],
  ["a ticket deleted", () => services.tickets.remove(id(5))],
  [
    "a ticket created",
    () =>
      ids.push(services.tickets.create(boardId, { laneId: doing, title: "new", priority: 4 }).id),
  ],
];

for (const [change, write] of changes) {
  test(`after ${change}, the kept pick is the SQL walk's`, () => {
    write();
    compare(change);
  });
}

test("the clock: a claim ending and a notBefore passing free their tickets with no row changing", () => {
  services.ticketClaims.claim(id(17), { actor: "agent", leaseSeconds: 60 });
  services.tickets.update(id(18), { notBefore: at(90) });
  compare("held");
  advance(61);
  compare("the claim ended");
  advance(30);
  compare("the notBefore passed");
});

test("claim-next hands out the kept pick: each ticket once, past held ones, a freed one again", async () => {
  const other = services.boards.create("Claims", ["a", "b"]);
  const board = other.board.id;
  const [a, b] = other.lanes.map((lane) => lane.id) as [number, number];
  const created: number[] = [];
  for (let i = 0; i < 12; i++) {
    const laneId = i % 2 === 0 ? a : b;
    created.push(services.tickets.create(board, { laneId, title: `c${i}`, priority: 2 }).id);
  }
  const expected = (filter: ReadyHeadFilter = {}) =>
    stores.ticketReadiness.firstReady(board, now(), filter);
  const claimNext = (actor: string) =>
    services.ticketClaims.claimNext(board, { actor, leaseSeconds: 60 });
  // Built before the claims, so every later pick starts from kept state.
  assert.equal(kept.firstReady(board, {}, new Set(), now()), expected());
  // The queue's order as the SQL walk hands it out, claim after claim (rolled back).
  const order: number[] = [];
  assert.throws(
    () =>
      db.transaction(() => {
        for (let next = expected(); next !== undefined; next = expected()) {
          order.push(next);
          stores.ticketClaims.set({
            ticketId: next,
            boardId: board,
            actor: "probe",
            claimedAt: now(),
            expiresAt: at(60),
          });
        }
        throw new Error("roll back");
      })(),
    /roll back/,
  );
  assert.equal(order.length, created.length);
  // Requests arriving together share one unit: each gets the next ticket in the queue's order.
  const together = await Promise.all(order.slice(0, 5).map((_, i) => claimNext(`agent-${i}`)));
  assert.deepEqual(
    together.map((written) => written?.record.id),
    order.slice(0, 5),
  );
  for (const ticketId of order.slice(5)) {
    assert.equal(kept.firstReady(board, {}, new Set(), now()), expected());
    assert.equal((await claimNext("alone"))?.record.id, ticketId);
  }
  assert.equal(await claimNext("late"), null, "nothing ready once every ticket is claimed");
  // A ticket released behind the cursor is handed out again.
  const freed = order[2] as number;
  services.ticketClaims.release(freed, { actor: "agent-2" });
  assert.equal(kept.firstReady(board, {}, new Set(), now()), freed);
  assert.equal((await claimNext("again"))?.record.id, freed);
  // Every lease ending frees the whole queue again, in its order.
  advance(61);
  assert.equal(kept.firstReady(board, {}, new Set(), now()), expected());
  assert.equal((await claimNext("after the leases"))?.record.id, order[0]);
  assert.equal(kept.firstReady(board, { laneId: b }, new Set(), now()), expected({ laneId: b }));
});

test("a unit that changed another ticket gets no kept pick (the SQL walk answers)", () => {
  assert.throws(
    () =>
      db.transaction(() => {
        // A write of the unit itself (a nested `transact` would flush its notes at its end).
        db.prepare("UPDATE tickets SET title = 'inside the unit' WHERE id = ?").run(id(0));
        assert.equal(kept.firstReady(boardId, {}, new Set(), now()), "unknown");
        throw new Error("roll back");
      })(),
    /roll back/,
  );
  compare("after the rollback");
});
