import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, getTicket, idsOf, listTickets, newTicket } from "../helpers/tickets.js";

// What asks do to their tickets (docs/api.md, "Asks"): `openAsks`, the version, the ready queue
// and claim-next, the list's ETag; on the kept lists (the default server) and on a server that
// builds every list anew.

const api = await startTestServer();
const fresh = await startTestServer({ freshLists: true });

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
