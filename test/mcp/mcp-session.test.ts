import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { call, connectMcp, ok } from "./mcp-connection.js";

// A realistic agent session over MCP against a real server: plan, pick, claim, work, conflict,
// finish. Two agents share the board to show claims and versions doing their job.

const api = await startTestServer();
const { board, lanes } = (await api.post("/api/boards", { name: "Agents" })).body;
await api.post(`/api/boards/${board.id}/tags`, { name: "backend" });

test("an agent's session: prime, plan, claim next, comment, log, stale update refused, resolve, release", async () => {
  const agent = await connectMcp(api.url, "agent-1");
  const rival = await connectMcp(api.url, "agent-2");

  // The instructions an MCP client puts in the system prompt are the prime text.
  const primed = await ok(agent, "prime");
  assert.equal(agent.getInstructions(), primed.text);
  assert.match(primed.text, /you are "agent-1"/);

  // Plan: three tickets; the urgent one is blocked by the setup ticket.
  const planned = await ok(agent, "create_tickets", {
    tickets: [
      { title: "Set up the database", priority: 2, tags: ["backend"] },
      { title: "Write the migration", priority: 4 },
      { title: "Bad tag", tags: ["nope"] },
    ],
  });
  assert.equal(planned.succeeded, 2);
  assert.equal(planned.results[2].ok, false);
  assert.match(planned.results[2].error, /no tag named "nope"/);
  const [setupId, migrationId] = planned.results.map((result: { id: number }) => result.id);
  await ok(agent, "link_tickets", { ticketId: setupId, relation: "blocks", otherId: migrationId });

  // Ready: only the setup ticket (the migration is blocked), in compact rows with paging.
  const ready = await ok(agent, "ready");
  assert.equal(ready.total, 1);
  assert.equal(ready.hasMore, false);
  assert.deepEqual(ready.tickets[0], {
    id: setupId,
    title: "Set up the database",
    lane: lanes[0].name,
    priority: 2,
    tags: ["backend"],
    resolved: false,
    archived: false,
    blockerIds: [],
    parentId: null,
    claimedBy: null,
    version: ready.tickets[0].version,
  });

  // Claim the next ready ticket; the rival finds nothing left and cannot take it.
  const claimed = await ok(agent, "claim_next");
  assert.equal(claimed.ticket.id, setupId);
  assert.equal(claimed.ticket.claim.actor, "agent-1");
  assert.deepEqual(await ok(rival, "claim_next"), { ticket: null });
  const taken = await call(rival, "claim", { ticketId: setupId });
  assert.equal(taken.isError, true);
  assert.equal(taken.data.error.code, "claimed");
  assert.match(taken.text, /ticket is claimed by agent-1 until/);

  // Work: a comment and an event, then a renewal.
  await ok(agent, "comment", { ticketId: setupId, body: "Using SQLite with WAL." });
  const event = await ok(agent, "log_event", {
    ticketId: setupId,
    kind: "test_result",
    title: "schema tests pass",
    data: { passed: 12 },
  });
  assert.equal(event.source, "agent-1");
  const renewed = await ok(agent, "renew_claim", { ticketId: setupId, leaseSeconds: 1800 });
  assert.equal(renewed.claim.actor, "agent-1");

  // A stale version is refused as a tool error, and nothing is written.
  const current = await ok(agent, "get_ticket", { ticketId: setupId });
  await ok(rival, "update_ticket", { ticketId: setupId, priority: 3 });
  const stale = await call(agent, "update_ticket", {
    ticketId: setupId,
    expectedVersion: current.version,
    title: "Set up SQLite",
  });
  assert.equal(stale.isError, true);
  assert.equal(stale.data.error.code, "version_conflict");
  assert.match(stale.text, /Fix: read the ticket again/);
  const after = await ok(agent, "get_ticket", { ticketId: setupId });
  assert.equal(after.title, "Set up the database");
  const retitled = await ok(agent, "update_ticket", {
    ticketId: setupId,
    expectedVersion: after.version,
    title: "Set up SQLite",
  });
  assert.equal(retitled.version, after.version + 1);

  // Finish: release with outcome done resolves it; the migration becomes ready.
  const released = await ok(agent, "release", {
    ticketId: setupId,
    outcome: "done",
    note: "Done.",
  });
  assert.equal(released.isResolved, true);
  assert.equal(released.claim, null);
  const next = await ok(rival, "ready");
  assert.deepEqual(
    next.tickets.map((row: { id: number }) => row.id),
    [migrationId],
  );

  // The trail: comments, events and activity in one history, newest first.
  const history = await ok(agent, "ticket_history", { ticketId: setupId, limit: 50 });
  const types = new Set(history.entries.map((entry: { type: string }) => entry.type));
  assert.deepEqual([...types].sort(), ["activity", "comment", "event"]);
  assert.ok(history.entries.some((entry: { text: string }) => entry.text === "Done."));
  await agent.close();
  await rival.close();
});

test("search_tickets pages with total and hasMore", async () => {
  const agent = await connectMcp(api.url, "pager");
  const created = await ok(agent, "create_tickets", {
    tickets: Array.from({ length: 5 }, (_, index) => ({ title: `Paged ${index}` })),
  });
  assert.equal(created.succeeded, 5);
  const first = await ok(agent, "search_tickets", { query: "Paged", limit: 2 });
  assert.deepEqual(
    [first.total, first.offset, first.hasMore, first.tickets.length],
    [5, 0, true, 2],
  );
  const last = await ok(agent, "search_tickets", { query: "Paged", limit: 2, offset: 4 });
  assert.deepEqual([last.total, last.hasMore, last.tickets[0].title], [5, false, "Paged 4"]);
  const bulk = await ok(agent, "bulk_update", {
    ticketIds: created.results.map((result: { id: number }) => result.id),
    action: "archive",
  });
  assert.ok(bulk.tickets.every((row: { archived: boolean }) => row.archived));
  await agent.close();
});
