import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError, createTag } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, idsOf, listTickets, newTicket, patchTicket } from "../helpers/tickets.js";

// docs/api.md, "Coordination for agents": GET /api/boards/{id}/tickets?ready=true, each rule alone
// on its own board.

const api = await startTestServer();

/** A board with one plain ticket (always ready) and the ticket under test. */
async function setup(name: string) {
  const board = await boardWithLanes(api, name);
  const plain = await newTicket(api, board.boardId, board.laneIds[0], "plain");
  const ready = async () => idsOf(await listTickets(api, board.boardId, "ready=true"));
  const add = (title: string, fields: Record<string, unknown> = {}) =>
    newTicket(api, board.boardId, board.laneIds[0], title, fields);
  return { board, plain, ready, add };
}

describe("ready queue", () => {
  test("resolved tickets are out", async () => {
    const { plain, ready, add } = await setup("Resolved");
    const ticket = await add("t", { isResolved: true });
    assert.deepEqual(await ready(), [plain.id]);
    await patchTicket(api, ticket.id, { isResolved: false });
    assert.deepEqual(await ready(), [plain.id, ticket.id]);
  });

  test("archived tickets are out", async () => {
    const { plain, ready, add } = await setup("Archived");
    await add("t", { isArchived: true });
    assert.deepEqual(await ready(), [plain.id]);
  });

  test("a ticket with an unresolved blocker is out, archived blocker included", async () => {
    const { plain, ready, add } = await setup("Blocked");
    const blocker = await add("blocker", { isArchived: true });
    const blocked = await add("blocked", { blockerIds: [blocker.id] });
    assert.deepEqual(await ready(), [plain.id]);
    await patchTicket(api, blocker.id, { isResolved: true });
    assert.deepEqual(await ready(), [plain.id, blocked.id]);
  });

  test("a child of a parent with an unresolved blocker is out", async () => {
    const { plain, ready, add } = await setup("Blocked parent");
    const blocker = await add("blocker");
    const parent = await add("parent", { blockerIds: [blocker.id] });
    const child = await add("child", { parentTicketId: parent.id, isResolved: false });
    // The parent is out twice over (blocked, open child); the child only by its parent's blocker.
    assert.deepEqual(await ready(), [plain.id, blocker.id]);
    await patchTicket(api, blocker.id, { isResolved: true });
    assert.deepEqual(await ready(), [plain.id, child.id]);
  });

  test("a parent with an unresolved child is out, archived child included", async () => {
    const { plain, ready, add } = await setup("Container");
    const parent = await add("parent");
    const child = await add("child", { parentTicketId: parent.id, isArchived: true });
    assert.deepEqual(await ready(), [plain.id]);
    await patchTicket(api, child.id, { isResolved: true });
    assert.deepEqual(await ready(), [plain.id, parent.id]);
  });

  test("a ticket with a live claim is out until the claim ends", async () => {
    const { plain, ready, add } = await setup("Claimed");
    const ticket = await add("t");
    await api.post(`/api/tickets/${ticket.id}/claim`, { actor: "a" });
    assert.deepEqual(await ready(), [plain.id]);
    await api.post(`/api/tickets/${ticket.id}/release`, { actor: "a" });
    assert.deepEqual(await ready(), [plain.id, ticket.id]);
  });

  test("order: priority desc, then board order; combines with the other filters", async () => {
    const board = await boardWithLanes(api, "Order");
    const tag = await createTag(api, board.boardId, "api");
    const [todo, doing] = board.laneIds;
    const a = await newTicket(api, board.boardId, doing, "a", { priority: 2 });
    const b = await newTicket(api, board.boardId, todo, "b", { priority: 2, tagIds: [tag.id] });
    const c = await newTicket(api, board.boardId, doing, "c", { priority: 4 });
    const d = await newTicket(api, board.boardId, todo, "d needle", { priority: 1 });
    assert.deepEqual(idsOf(await listTickets(api, board.boardId, "ready=true")), [
      c.id,
      b.id,
      a.id,
      d.id,
    ]);
    assert.deepEqual(idsOf(await listTickets(api, board.boardId, "ready=false")), [
      b.id,
      d.id,
      a.id,
      c.id,
    ]);
    const ready = (query: string) => listTickets(api, board.boardId, `ready=true&${query}`);
    assert.deepEqual(idsOf(await ready(`lane_id=${doing}`)), [c.id, a.id]);
    assert.deepEqual(idsOf(await ready("tag=API")), [b.id]);
    assert.deepEqual(idsOf(await ready("q=needle")), [d.id]);
    assert.deepEqual(idsOf(await ready("archived=true")), []);
    assertError(await api.get(`/api/boards/${board.boardId}/tickets?ready=yes`), 400, /ready/);
  });
});
