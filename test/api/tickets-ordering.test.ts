import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError, createLane, snapshot } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import {
  type BoardFixture,
  boardWithLanes,
  getTicket,
  idsOf,
  layout,
  listTickets,
  newTicket,
  patchTicket,
} from "../helpers/tickets.js";

const api = await startTestServer();

/** A board with lanes a and b; lane a holds `count` tickets, lane b two. */
async function lanes(name: string, count = 4) {
  const board = await boardWithLanes(api, name, ["a", "b"]);
  const a: number[] = [];
  const b: number[] = [];
  for (let index = 0; index < count; index++) {
    a.push((await newTicket(api, board.boardId, board.lane("a"), `a${index}`)).id);
  }
  for (let index = 0; index < 2; index++) {
    b.push((await newTicket(api, board.boardId, board.lane("b"), `b${index}`)).id);
  }
  return { board, a, b };
}

/** Ids of a lane in list order, and a check that positions run 0..n-1. */
async function laneIds(board: BoardFixture, laneName: string, archived = "all"): Promise<number[]> {
  const tickets = await listTickets(
    api,
    board.boardId,
    `lane_id=${board.lane(laneName)}&archived=${archived}`,
  );
  assert.deepEqual(
    tickets.map((ticket) => ticket.position),
    tickets.map((_, index) => index),
  );
  return idsOf(tickets);
}

const position = (ticketId: number, body: Record<string, unknown>) =>
  api.patch(`/api/tickets/${ticketId}/position`, body);

async function place(ticketId: number, body: Record<string, unknown>) {
  const response = await position(ticketId, body);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

describe("lane order", () => {
  test("new tickets are appended to the end of their lane", async () => {
    const { board, a, b } = await lanes("Append");
    assert.deepEqual(await laneIds(board, "a"), a);
    assert.deepEqual(await laneIds(board, "b"), b);
    const fresh = await newTicket(api, board.boardId, board.lane("a"), "fresh");
    assert.equal(fresh.position, a.length);
  });

  test("a new ticket goes after the active ones and before archived ones", async () => {
    const board = await boardWithLanes(api, "Append archived", ["a"]);
    const old = await newTicket(api, board.boardId, board.lane("a"), "old", { isArchived: true });
    const fresh = await newTicket(api, board.boardId, board.lane("a"), "fresh");
    assert.deepEqual(await laneIds(board, "a"), [fresh.id, old.id]);
  });

  test("changing laneId by PATCH appends to the new lane and closes the gap", async () => {
    const { board, a, b } = await lanes("Patch lane");
    const moved = await patchTicket(api, a[1] ?? 0, { laneId: board.lane("b") });
    assert.equal(moved.position, 2);
    assert.deepEqual(await laneIds(board, "b"), [...b, a[1]]);
    assert.deepEqual(await laneIds(board, "a"), [a[0], a[2], a[3]]);
  });

  test("archiving moves a ticket after the active ones; restoring to the end of the active ones", async () => {
    const { board, a } = await lanes("Archive order");
    const [t0 = 0, t1 = 0, t2 = 0, t3 = 0] = a;
    await patchTicket(api, t0, { isArchived: true });
    assert.deepEqual(await laneIds(board, "a"), [t1, t2, t3, t0]);
    await patchTicket(api, t2, { isArchived: true });
    assert.deepEqual(await laneIds(board, "a"), [t1, t3, t0, t2]);
    await patchTicket(api, t0, { isArchived: false });
    assert.deepEqual(await laneIds(board, "a"), [t1, t3, t0, t2]);
    await patchTicket(api, t1, { isArchived: true });
    assert.deepEqual(await laneIds(board, "a"), [t3, t0, t2, t1]);
    assert.deepEqual(await laneIds(board, "a", "false"), [t3, t0]);
  });
});

describe("PATCH /api/tickets/{ticketId}/position", () => {
  test("places before an anchor, after an anchor, at a position, or at the end", async () => {
    const { board, a } = await lanes("Anchors", 5);
    const [t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0] = a;
    const laneId = board.lane("a");
    const placed = await place(t4, { laneId, beforeTicketId: t1 });
    assert.equal(placed.position, 1);
    assert.deepEqual(await laneIds(board, "a"), [t0, t4, t1, t2, t3]);
    await place(t0, { laneId, afterTicketId: t2 });
    assert.deepEqual(await laneIds(board, "a"), [t4, t1, t2, t0, t3]);
    await place(t3, { laneId, position: 0 });
    assert.deepEqual(await laneIds(board, "a"), [t3, t4, t1, t2, t0]);
    await place(t3, { laneId, position: 2 });
    assert.deepEqual(await laneIds(board, "a"), [t4, t1, t3, t2, t0]);
    await place(t4, { laneId });
    assert.deepEqual(await laneIds(board, "a"), [t1, t3, t2, t0, t4]);
    await place(t1, { laneId, position: 1000 });
    assert.deepEqual(await laneIds(board, "a"), [t3, t2, t0, t4, t1]);
  });

  test("beforeTicketId takes precedence over afterTicketId, which takes precedence over position", async () => {
    const { board, a } = await lanes("Precedence", 4);
    const [t0 = 0, t1 = 0, t2 = 0, t3 = 0] = a;
    const laneId = board.lane("a");
    await place(t3, { laneId, beforeTicketId: t0, afterTicketId: t1, position: 2 });
    assert.deepEqual(await laneIds(board, "a"), [t3, t0, t1, t2]);
    await place(t3, { laneId, beforeTicketId: null, afterTicketId: t1, position: 0 });
    assert.deepEqual(await laneIds(board, "a"), [t0, t1, t3, t2]);
    await place(t3, { laneId, beforeTicketId: null, afterTicketId: null, position: 0 });
    assert.deepEqual(await laneIds(board, "a"), [t3, t0, t1, t2]);
  });

  test("moves to another lane of the board, renumbering both lanes, without touching isResolved", async () => {
    const { board, a, b } = await lanes("Cross lane", 3);
    const [t0 = 0, t1 = 0, t2 = 0] = a;
    const [b0 = 0, b1 = 0] = b;
    await patchTicket(api, t1, { isResolved: true });
    const moved = await place(t1, { laneId: board.lane("b"), afterTicketId: b0 });
    assert.equal(moved.laneId, board.lane("b"));
    assert.equal(moved.position, 1);
    assert.equal(moved.isResolved, true);
    assert.deepEqual(await laneIds(board, "a"), [t0, t2]);
    assert.deepEqual(await laneIds(board, "b"), [b0, t1, b1]);
    await place(t0, { laneId: board.lane("b") });
    assert.deepEqual(await laneIds(board, "b"), [b0, t1, b1, t0]);
    assert.deepEqual(await laneIds(board, "a"), [t2]);
  });

  test("keeps archived tickets after active ones", async () => {
    const { board, a } = await lanes("Archived anchors", 3);
    const [t0 = 0, t1 = 0, t2 = 0] = a;
    await patchTicket(api, t0, { isArchived: true });
    const laneId = board.lane("a");
    // An active ticket asked to go before an archived one lands at the end of the active ones.
    await place(t2, { laneId, beforeTicketId: t0 });
    assert.deepEqual(await laneIds(board, "a"), [t1, t2, t0]);
    // An archived ticket asked to go first stays after the active ones.
    await place(t0, { laneId, position: 0 });
    assert.deepEqual(await laneIds(board, "a"), [t1, t2, t0]);
  });

  test("bumps the moved ticket's updatedAt only when it moved", async () => {
    const { board, a } = await lanes("Position times", 2);
    const [t0 = 0, t1 = 0] = a;
    const before = await getTicket(api, t0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const unchanged = await place(t0, { laneId: board.lane("a"), position: 0 });
    assert.equal(unchanged.updatedAt, before.updatedAt);
    const moved = await place(t0, { laneId: board.lane("a"), afterTicketId: t1 });
    assert.ok(moved.updatedAt > before.updatedAt);
  });

  test("rejects bad anchors, lanes and values with 400 and changes nothing", async () => {
    const { board, a, b } = await lanes("Position errors", 3);
    const other = await boardWithLanes(api, "Position elsewhere");
    const foreign = await newTicket(api, other.boardId, other.laneIds[0], "foreign");
    const laneId = board.lane("a");
    const [t0 = 0, t1 = 0] = a;
    const before = await snapshot(api);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /^laneId is required$/],
      [{ laneId: other.laneIds[0] }, /^laneId is not a lane of this board$/],
      [{ laneId: 999999 }, /^laneId/],
      [{ laneId: "1" }, /^laneId/],
      [{ laneId, position: -1 }, /^position must be >= 0$/],
      [{ laneId, position: "1" }, /^position/],
      [{ laneId, position: 1.5 }, /^position/],
      [{ laneId, position: null }, /^position/],
      [{ laneId, beforeTicketId: t0 }, /^beforeTicketId must not be the ticket itself$/],
      [{ laneId, afterTicketId: t0 }, /^afterTicketId must not be the ticket itself$/],
      [{ laneId, beforeTicketId: b[0] }, /^beforeTicketId is not a ticket of the target lane$/],
      [{ laneId, afterTicketId: foreign.id }, /^afterTicketId is not a ticket of the target lane$/],
      [{ laneId, beforeTicketId: 999999 }, /^beforeTicketId/],
      [{ laneId, beforeTicketId: "2" }, /^beforeTicketId/],
      [{ laneId, beforeTicketId: t1, afterTicketId: b[0] }, /^afterTicketId/],
      [
        { laneId: board.lane("b"), beforeTicketId: t1 },
        /^beforeTicketId is not a ticket of the target lane$/,
      ],
    ];
    for (const [body, message] of cases) assertError(await position(t0, body), 400, message);
    assertError(await position(999999, { laneId }), 404, "ticket not found");
    assertError(await position(0, { laneId }), 400);
    assert.deepEqual(await snapshot(api), before);
  });
});

describe("PATCH /api/tickets/{ticketId}/transition", () => {
  const transition = (ticketId: number, body: Record<string, unknown>) =>
    api.patch(`/api/tickets/${ticketId}/transition`, body);

  test("moves to the lane with that exact (trimmed) name, appended, keeping isResolved", async () => {
    const { board, a, b } = await lanes("Transition", 2);
    const response = await transition(a[0] ?? 0, { laneName: "  b " });
    assert.equal(response.status, 200);
    assert.equal(response.body.laneId, board.lane("b"));
    assert.equal(response.body.position, 2);
    assert.equal(response.body.isResolved, false);
    assert.deepEqual(await laneIds(board, "b"), [...b, a[0]]);
    assert.deepEqual(await laneIds(board, "a"), [a[1]]);
  });

  test("changes isResolved only when sent (isResolved wins over isCompleted)", async () => {
    const { a } = await lanes("Transition flags", 1);
    const id = a[0] ?? 0;
    assert.equal((await transition(id, { laneName: "b", isResolved: true })).body.isResolved, true);
    assert.equal((await transition(id, { laneName: "a" })).body.isResolved, true);
    assert.equal(
      (await transition(id, { laneName: "b", isCompleted: false })).body.isResolved,
      false,
    );
    const both = await transition(id, { laneName: "a", isResolved: true, isCompleted: false });
    assert.equal(both.body.isResolved, true);
    assert.equal(both.body.isCompleted, true);
  });

  test("matches case-sensitively and picks the first of duplicate names by lane order", async () => {
    const board = await boardWithLanes(api, "Duplicate lanes", ["Review", "x", "Review"]);
    const ticket = await newTicket(api, board.boardId, board.laneIds[1] ?? 0, "t");
    assertError(await transition(ticket.id, { laneName: "review" }), 400, /laneName/);
    const moved = await transition(ticket.id, { laneName: "Review" });
    assert.equal(moved.body.laneId, board.laneIds[0]);
    const reordered = await api.post(`/api/boards/${board.boardId}/lanes/reorder`, {
      laneIds: [board.laneIds[2], board.laneIds[1], board.laneIds[0]],
    });
    assert.equal(reordered.status, 200);
    const again = await transition(ticket.id, { laneName: "Review" });
    assert.equal(again.body.laneId, board.laneIds[2]);
  });

  test("transition to the current lane keeps the position", async () => {
    const { board, a } = await lanes("Same lane transition", 3);
    const response = await transition(a[0] ?? 0, { laneName: "a" });
    assert.equal(response.body.position, 0);
    assert.deepEqual(await laneIds(board, "a"), a);
  });

  test("rejects unknown, blank and malformed input with 400 and changes nothing", async () => {
    const { board, a } = await lanes("Transition errors", 1);
    const other = await boardWithLanes(api, "Transition elsewhere", ["only-there"]);
    const id = a[0] ?? 0;
    const before = await getTicket(api, id);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ laneName: "nope" }, /^laneName "nope" is not a lane of this board$/],
      [{ laneName: "only-there" }, /laneName/],
      [{ laneName: "  " }, /^laneName must not be empty$/],
      [{}, /^laneName is required$/],
      [{ laneName: 3 }, /^laneName/],
      [{ laneName: "b", isResolved: "true" }, /^isResolved/],
      [{ laneName: "b", isCompleted: null }, /^isCompleted/],
    ];
    for (const [body, message] of cases) assertError(await transition(id, body), 400, message);
    assert.deepEqual(await getTicket(api, id), before);
    assertError(await transition(999999, { laneName: "a" }), 404, "ticket not found");
    assert.ok(board && other);
  });
});

describe("POST /api/boards/{boardId}/tickets/reorder (deprecated)", () => {
  const reorder = (boardId: number, items: unknown) =>
    api.post(`/api/boards/${boardId}/tickets/reorder`, { items });

  test("places every active ticket and answers the board's active tickets as full Tickets", async () => {
    const { board, a, b } = await lanes("Legacy reorder", 3);
    const [t0 = 0, t1 = 0, t2 = 0] = a;
    const [b0 = 0, b1 = 0] = b;
    const archived = await newTicket(api, board.boardId, board.lane("a"), "archived", {
      isArchived: true,
    });
    const laneA = board.lane("a");
    const laneB = board.lane("b");
    const response = await reorder(board.boardId, [
      { ticketId: t0, laneId: laneB, position: 5 },
      { ticketId: t1, laneId: laneA, position: 1 },
      { ticketId: t2, laneId: laneA, position: 0 },
      { ticketId: b0, laneId: laneB, position: 0 },
      { ticketId: b1, laneId: laneA, position: 7 },
    ]);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(Object.keys(response.body), ["tickets"]);
    assert.deepEqual(layout(response.body.tickets), [
      [laneA, 0, t2],
      [laneA, 1, t1],
      [laneA, 2, b1],
      [laneB, 0, b0],
      [laneB, 1, t0],
    ]);
    assert.ok("bodyMarkdown" in response.body.tickets[0] && "blockers" in response.body.tickets[0]);
    assert.deepEqual(await laneIds(board, "a"), [t2, t1, b1, archived.id]);
    assert.deepEqual(await laneIds(board, "b"), [b0, t0]);
  });

  test("requires every active ticket once, on this board, in its lanes; otherwise nothing changes", async () => {
    const { board, a, b } = await lanes("Legacy errors", 2);
    const other = await boardWithLanes(api, "Legacy elsewhere");
    const foreign = await newTicket(api, other.boardId, other.laneIds[0], "foreign");
    const laneA = board.lane("a");
    const all = [...a, ...b].map((ticketId, position) => ({ ticketId, laneId: laneA, position }));
    const before = await snapshot(api);
    const cases: Array<[unknown, RegExp]> = [
      [all.slice(1), /every active ticket/],
      [[...all, { ...all[0] }], /^items\[4\]\.ticketId is listed more than once$/],
      [
        [...all, { ticketId: foreign.id, laneId: laneA, position: 0 }],
        /^items\[4\]\.ticketId is not a ticket of this board$/,
      ],
      [
        [{ ...all[0], laneId: other.laneIds[0] }, ...all.slice(1)],
        /^items\[0\]\.laneId is not a lane of this board$/,
      ],
      [[{ ...all[0], position: -1 }, ...all.slice(1)], /^items\[0\]\.position must be >= 0$/],
      [[{ ...all[0], ticketId: "1" }], /^items\[0\]\.ticketId/],
      [[{ ticketId: a[0], laneId: laneA }], /^items\[0\]\.position is required$/],
      ["nope", /^items/],
    ];
    for (const [items, message] of cases) {
      assertError(await reorder(board.boardId, items), 400, message);
    }
    assertError(await api.post(`/api/boards/${board.boardId}/tickets/reorder`, {}), 400, /items/);
    assert.deepEqual(await snapshot(api), before);
    assertError(await reorder(999999, []), 404, "board not found");
  });

  test("archived tickets need no item and may be given one", async () => {
    const board = await boardWithLanes(api, "Legacy archived", ["a", "b"]);
    const active = await newTicket(api, board.boardId, board.lane("a"), "active");
    const archived = await newTicket(api, board.boardId, board.lane("a"), "archived", {
      isArchived: true,
    });
    const response = await reorder(board.boardId, [
      { ticketId: active.id, laneId: board.lane("b"), position: 0 },
    ]);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(idsOf(response.body.tickets), [active.id]);
    const moved = await reorder(board.boardId, [
      { ticketId: active.id, laneId: board.lane("b"), position: 1 },
      { ticketId: archived.id, laneId: board.lane("b"), position: 0 },
    ]);
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(await laneIds(board, "b"), [active.id, archived.id]);
    assert.deepEqual(await laneIds(board, "a"), []);
  });

  test("an empty board reorders with an empty list", async () => {
    const board = await boardWithLanes(api, "Legacy empty");
    await createLane(api, board.boardId, "extra");
    const response = await reorder(board.boardId, []);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { tickets: [] });
  });
});
