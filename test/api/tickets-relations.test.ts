import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import {
  boardWithLanes,
  boardWithTickets,
  getTicket,
  idsOf,
  listTickets,
  newTicket,
  patchTicket,
} from "../helpers/tickets.js";

const api = await startTestServer();

/** Tickets t0, t1, ... with these priorities. */
const withPriorities = (priorities: number[]) =>
  priorities.map((priority, index) => ({ title: `t${index}`, priority }));

async function expectRejected(ticketId: number, body: Record<string, unknown>, message: RegExp) {
  const before = await getTicket(api, ticketId);
  assertError(await api.patch(`/api/tickets/${ticketId}`, body), 400, message);
  assert.deepEqual(await getTicket(api, ticketId), before);
}

describe("parent and children", () => {
  test("a parent lists its children and hasChildren; the child its parent", async () => {
    const { ids } = await boardWithTickets(api, "Family", withPriorities([2, 1, 4]));
    const [parent = 0, first = 0, second = 0] = ids;
    await patchTicket(api, first, { parentTicketId: parent });
    const child = await patchTicket(api, second, { parentTicketId: parent });
    assert.equal(child.parentTicketId, parent);
    assert.deepEqual(child.parent, {
      id: parent,
      title: "t0",
      laneId: child.laneId,
      isResolved: false,
      isCompleted: false,
      priority: 2,
      ref: `Family#${parent}`,
      shortRef: `#${parent}`,
    });
    const read = await getTicket(api, parent);
    assert.equal(read.hasChildren, true);
    // Priority desc, then id.
    assert.deepEqual(idsOf(read.children), [second, first]);
    const cleared = await patchTicket(api, second, { parentTicketId: null });
    assert.equal(cleared.parentTicketId, null);
    assert.equal(cleared.parent, null);
    assert.deepEqual(idsOf((await getTicket(api, parent)).children), [first]);
  });

  test("nesting is one level deep in every direction", async () => {
    const { ids } = await boardWithTickets(api, "One level", 4);
    const [parent = 0, child = 0, other = 0, loner = 0] = ids;
    await patchTicket(api, child, { parentTicketId: parent });
    // A child cannot become a parent.
    await expectRejected(other, { parentTicketId: child }, /parentTicketId/);
    // A ticket that has children cannot become a child.
    await expectRejected(parent, { parentTicketId: other }, /children/);
    // Not its own parent, and not the child of its child.
    await expectRejected(loner, { parentTicketId: loner }, /own parent/);
    await expectRejected(parent, { parentTicketId: child }, /./);
    // Same rules at creation.
    const board = (await getTicket(api, parent)).boardId;
    const lane = (await getTicket(api, parent)).laneId;
    assertError(
      await api.post(`/api/boards/${board}/tickets`, {
        laneId: lane,
        title: "x",
        parentTicketId: child,
      }),
      400,
      /parentTicketId/,
    );
  });

  test("the parent must be a ticket of the same board", async () => {
    const { ids } = await boardWithTickets(api, "Parent home", 1);
    const { ids: foreign } = await boardWithTickets(api, "Parent abroad", 1);
    await expectRejected(ids[0] ?? 0, { parentTicketId: foreign[0] }, /not a ticket of this board/);
    await expectRejected(ids[0] ?? 0, { parentTicketId: 999999 }, /not a ticket of this board/);
  });

  test("hasChildren holds whatever the list filters", async () => {
    const board = await boardWithLanes(api, "Filtered family");
    const parent = await newTicket(api, board.boardId, board.lane("todo"), "parent");
    await newTicket(api, board.boardId, board.lane("done"), "child", {
      parentTicketId: parent.id,
      isArchived: true,
      isResolved: true,
    });
    const [listed] = await listTickets(api, board.boardId, `lane_id=${board.lane("todo")}`);
    assert.equal(listed.id, parent.id);
    assert.equal(listed.hasChildren, true);
    const [searched] = await listTickets(api, board.boardId, "resolved=false&q=parent");
    assert.equal(searched.hasChildren, true);
  });
});

describe("blockers", () => {
  test("blockerIds lists blockers ascending; blockers and blockedBy expand them by priority", async () => {
    const { ids } = await boardWithTickets(api, "Blocking", withPriorities([2, 1, 3, 3]));
    const [subject = 0, low = 0, high = 0, high2 = 0] = ids;
    const ticket = await patchTicket(api, subject, { blockerIds: [high2, low, high, low] });
    assert.deepEqual(ticket.blockerIds, [low, high, high2]);
    assert.deepEqual(idsOf(ticket.blockers), [high, high2, low]);
    assert.deepEqual(ticket.blockedBy, []);
    assert.deepEqual(idsOf((await getTicket(api, high)).blockedBy), [subject]);
    const [summary] = await listTickets(
      api,
      (await getTicket(api, subject)).boardId,
      `q=%23${subject}`,
    );
    assert.deepEqual(summary.blockerIds, [low, high, high2]);
  });

  test("null or [] clears the blockers; an omitted field keeps them", async () => {
    const { ids } = await boardWithTickets(api, "Clearing", 3);
    const [a = 0, b = 0, c = 0] = ids;
    await patchTicket(api, a, { blockerIds: [b, c] });
    assert.deepEqual((await patchTicket(api, a, { priority: 3 })).blockerIds, [b, c]);
    assert.deepEqual((await patchTicket(api, a, { blockerIds: null })).blockerIds, []);
    await patchTicket(api, a, { blockerIds: [b] });
    assert.deepEqual((await patchTicket(api, a, { blockerIds: [] })).blockerIds, []);
  });

  test("a ticket cannot block itself", async () => {
    const { ids } = await boardWithTickets(api, "Self block", 2);
    await expectRejected(ids[0] ?? 0, { blockerIds: [ids[1], ids[0]] }, /blockerIds\[1\]/);
  });

  test("reciprocal blocking and longer cycles are rejected", async () => {
    const { ids } = await boardWithTickets(api, "Cycles", 4);
    const [a = 0, b = 0, c = 0, d = 0] = ids;
    await patchTicket(api, a, { blockerIds: [b] });
    await expectRejected(b, { blockerIds: [a] }, /cycle/);
    await patchTicket(api, b, { blockerIds: [c] });
    await patchTicket(api, c, { blockerIds: [d] });
    await expectRejected(d, { blockerIds: [a] }, /^blockerIds\[0\]: blocker would create a cycle$/);
    await expectRejected(c, { blockerIds: [d, b] }, /^blockerIds\[1\]/);
    // A diamond is not a cycle.
    const diamond = await patchTicket(api, a, { blockerIds: [b, c, d] });
    assert.deepEqual(diamond.blockerIds, [b, c, d]);
  });

  test("blockers must be tickets of the same board", async () => {
    const { ids } = await boardWithTickets(api, "Blocker home", 1);
    const { ids: foreign } = await boardWithTickets(api, "Blocker abroad", 1);
    await expectRejected(
      ids[0] ?? 0,
      { blockerIds: foreign },
      /^blockerIds\[0\] is not a ticket of this board$/,
    );
    await expectRejected(ids[0] ?? 0, { blockerIds: [999999] }, /^blockerIds\[0\]/);
  });
});

describe("related tickets", () => {
  test("are symmetric, stored once, and listed ascending / by priority", async () => {
    const { ids } = await boardWithTickets(api, "Related", withPriorities([1, 2, 4]));
    const [a = 0, b = 0, c = 0] = ids;
    const ticket = await patchTicket(api, a, { relatedIds: [c, b, c] });
    assert.deepEqual(ticket.relatedIds, [b, c]);
    assert.deepEqual(idsOf(ticket.related), [c, b]);
    assert.deepEqual((await getTicket(api, b)).relatedIds, [a]);
    // Setting the same link from the other side keeps one link.
    await patchTicket(api, c, { relatedIds: [a] });
    assert.deepEqual((await getTicket(api, a)).relatedIds, [b, c]);
    const count = api.server.db
      .prepare("SELECT COUNT(*) AS n FROM ticket_related WHERE low_id = ? OR high_id = ?")
      .get(a, a) as { n: number };
    assert.equal(count.n, 2);
  });

  test("setting relatedIds on a ticket replaces every link touching it", async () => {
    const { ids } = await boardWithTickets(api, "Replacing related", 3);
    const [a = 0, b = 0, c = 0] = ids;
    await patchTicket(api, b, { relatedIds: [a] });
    await patchTicket(api, a, { relatedIds: [c] });
    assert.deepEqual((await getTicket(api, a)).relatedIds, [c]);
    assert.deepEqual((await getTicket(api, b)).relatedIds, []);
    assert.deepEqual((await patchTicket(api, a, { relatedIds: null })).relatedIds, []);
    assert.deepEqual((await getTicket(api, c)).relatedIds, []);
  });

  test("not itself, and only tickets of the same board", async () => {
    const { ids } = await boardWithTickets(api, "Related home", 1);
    const { ids: foreign } = await boardWithTickets(api, "Related abroad", 1);
    await expectRejected(ids[0] ?? 0, { relatedIds: ids }, /relatedIds\[0\]/);
    await expectRejected(
      ids[0] ?? 0,
      { relatedIds: foreign },
      /^relatedIds\[0\] is not a ticket of this board$/,
    );
  });
});

describe("GET /api/tickets/{ticketId}/relations", () => {
  test("answers the five relation lists, as in the full ticket", async () => {
    const { ids } = await boardWithTickets(api, "Relations endpoint", 5);
    const [subject = 0, parent = 0, child = 0, blocker = 0, other = 0] = ids;
    await patchTicket(api, child, { parentTicketId: subject });
    await patchTicket(api, other, { blockerIds: [subject] });
    // A child of a ticket cannot itself be a parent, so the subject's parent is refused while it
    // has children; give the parent relation to a sibling instead.
    await patchTicket(api, subject, { blockerIds: [blocker], relatedIds: [parent] });
    const response = await api.get(`/api/tickets/${subject}/relations`);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), [
      "blockedBy",
      "blockers",
      "children",
      "parent",
      "related",
    ]);
    const ticket = await getTicket(api, subject);
    for (const key of ["parent", "children", "blockers", "blockedBy", "related"]) {
      assert.deepEqual(response.body[key], ticket[key], key);
    }
    assert.deepEqual(idsOf(response.body.children), [child]);
    assert.deepEqual(idsOf(response.body.blockedBy), [other]);
    assert.deepEqual(idsOf(response.body.blockers), [blocker]);
    assert.deepEqual(idsOf(response.body.related), [parent]);
    const childRelations = await api.get(`/api/tickets/${child}/relations`);
    assert.equal(childRelations.body.parent.id, subject);
  });

  test("answers 404 for an unknown ticket", async () => {
    assertError(await api.get("/api/tickets/999999/relations"), 404, "ticket not found");
    assertError(await api.get("/api/tickets/x/relations"), 400);
  });
});
