import assert from "node:assert/strict";
import { test } from "node:test";
import { NotFound } from "../../src/domain/errors.js";
import type { TicketListQuery } from "../../src/domain/tickets/tickets.js";
import { setUp } from "./setup.js";

// The board lists kept by src/kept-answers (board-lists.ts, ready-runs.ts, matches.ts): after
// each kind of change, every list form the module keeps equals the list read and serialized
// anew. Runs of two tickets, so each lane spans several runs.

const { services, kept, keptList, freshList, advance, at, db } = setUp({ runLength: 2 });

const shell = services.boards.create("Kept", ["todo", "doing", "done"]);
const boardId = shell.board.id;
const [todo, doing, done] = shell.lanes.map((lane) => lane.id) as [number, number, number];
const red = services.tags.create(boardId, { name: "red" });
const blue = services.tags.create(boardId, { name: "blue" });
const ids: number[] = [];
for (let i = 0; i < 12; i++) {
  const ticket = services.tickets.create(boardId, {
    laneId: [todo, doing, done][i % 3] as number,
    title: `ticket ${i} ${i % 2 === 0 ? "zeppelin" : "plain"}`,
    priority: (i % 4) + 1,
    tagIds: i % 3 === 0 ? [red.id] : [],
    ...(i === 11 ? { isArchived: true } : {}),
  });
  ids.push(ticket.id);
}
const id = (index: number) => ids[index] as number;

const FORMS: TicketListQuery[] = [
  {},
  { archived: "all" },
  { archived: "true" },
  { resolved: false },
  { lane_id: doing },
  { q: "zeppelin" },
  { tag: "RED" },
  { tag: "renamed" },
  { ready: true },
  { ready: true, lane_id: todo },
  { ready: true, tag: "red" },
];

/** Every form's kept list against the fresh one. */
function compare(step: string): void {
  for (const query of FORMS) {
    assert.equal(
      keptList(boardId, query),
      freshList(boardId, query),
      `${step}: ${JSON.stringify(query)}`,
    );
  }
}

/** The ids of the kept ready list. */
const readyIds = (): number[] =>
  JSON.parse(keptList(boardId, { ready: true }) ?? "{}").tickets.map(
    (ticket: { id: number }) => ticket.id,
  );

test("a board's lists, built on first use, equal the lists read anew", () => {
  compare("first lists");
  compare("the same lists again (kept)");
});

const changes: Array<[string, () => void]> = [
  ["a title", () => services.tickets.update(id(0), { title: "retitled zeppelin" })],
  ["a title leaving a search", () => services.tickets.update(id(2), { title: "now plain" })],
  ["a priority", () => services.tickets.update(id(3), { priority: 4 })],
  ["a lane move", () => services.tickets.update(id(1), { laneId: done })],
  ["a position", () => services.ticketPositions.reposition(id(4), { laneId: todo, position: 0 })],
  ["a resolution", () => services.tickets.update(id(5), { isResolved: true })],
  ["an archive", () => services.tickets.update(id(6), { isArchived: true })],
  ["a tag added", () => services.tickets.update(id(7), { tagIds: [red.id, blue.id] })],
  ["a tag renamed", () => services.tags.update(red.id, { name: "renamed" })],
  ["a blocker", () => services.tickets.update(id(8), { blockerIds: [id(9)] })],
  ["a blocker resolved", () => services.tickets.update(id(9), { isResolved: true })],
  ["a related ticket", () => services.tickets.update(id(10), { relatedIds: [id(8)] })],
  ["a comment", () => services.comments.create(id(0), "a comment")],
  ["a ticket deleted", () => services.tickets.remove(id(4))],
  [
    "a ticket created",
    () => ids.push(services.tickets.create(boardId, { laneId: doing, title: "new zeppelin" }).id),
  ],
  ["a board renamed", () => services.boards.rename(boardId, "Kept 2")],
];

for (const [change, write] of changes) {
  test(`after ${change}, every list equals the list read anew`, () => {
    write();
    compare(change);
  });
}

test("a ticket's readiness follows its parent's blocker, which changes no row of the child", () => {
  const blocker = services.tickets.create(boardId, { laneId: todo, title: "blocker" }).id;
  const parent = services.tickets.create(boardId, {
    laneId: todo,
    title: "parent",
    blockerIds: [blocker],
  }).id;
  const child = services.tickets.create(boardId, {
    laneId: done,
    title: "child",
    parentTicketId: parent,
  }).id;
  compare("the parent blocked");
  assert.ok(!readyIds().includes(child));
  services.tickets.update(blocker, { isResolved: true });
  compare("the parent's blocker resolved");
  assert.ok(readyIds().includes(child));
});

test("a claim ending by the clock puts its ticket back in the ready list and clears its piece", () => {
  const ticket = id(3);
  services.ticketClaims.claim(ticket, { actor: "agent", leaseSeconds: 60 });
  compare("claimed");
  assert.ok(!readyIds().includes(ticket));
  advance(61);
  compare("the claim ended by the clock");
  assert.ok(readyIds().includes(ticket));
});

test("a notBefore passing puts its ticket in the ready list with no row changing", () => {
  const ticket = id(10);
  services.tickets.update(ticket, { notBefore: at(30) });
  compare("held until later");
  assert.ok(!readyIds().includes(ticket));
  advance(31);
  compare("the notBefore passed");
  assert.ok(readyIds().includes(ticket));
});

test("an ask opened holds its ticket out of the ready list and shows in every list", () => {
  const ticket = id(0);
  const ask = services.asks.open(ticket, { actor: "agent", question: "Which?", blocking: true });
  compare("an ask opened");
  assert.ok(!readyIds().includes(ticket));
  services.asks.withdraw(ask.id, { actor: "agent" });
  compare("the ask withdrawn");
});

test("inside a unit of work nothing is kept, and a rollback leaves nothing behind", () => {
  compare("before the unit");
  assert.throws(
    () =>
      db.transaction(() => {
        services.tickets.update(id(0), { title: "rolled back", laneId: doing });
        services.tickets.update(id(1), { tagIds: [blue.id] });
        assert.equal(
          kept.listRuns(boardId, {}, () => ""),
          undefined,
          "a list inside the unit",
        );
        throw new Error("roll back");
      })(),
    /roll back/,
  );
  compare("after the rollback");
  assert.ok(!freshList(boardId, {}).includes("rolled back"));
});

test("a deleted board's lists are dropped: its list is NotFound", () => {
  const other = services.boards.create("Gone", ["only"]);
  services.tickets.create(other.board.id, { laneId: other.lanes[0]?.id as number, title: "x" });
  assert.equal(keptList(other.board.id, {}), freshList(other.board.id, {}));
  services.boards.remove(other.board.id);
  assert.throws(() => keptList(other.board.id, {}), NotFound);
  compare("another board deleted");
});
