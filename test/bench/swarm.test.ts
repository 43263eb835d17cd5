// The swarm benchmark (bench/swarm-*.ts) in small: a 300-ticket board, four agents and the two
// UI clients for ~3 s, then the read-after-write table for a moment. Only correctness is
// asserted (every operation succeeded, no ticket held by two live claims, stream messages
// arrived and announced the writes): timings on a shared machine prove nothing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { issueBoardDocument, RARE_WORD } from "../../bench/dataset.js";
import { readMemory } from "../../bench/lib.js";
import { overlappingClaims } from "../../bench/swarm-claims.js";
import { StreamDelays } from "../../bench/swarm-delays.js";
import { runSwarm } from "../../bench/swarm-load.js";
import { readAfterWrite } from "../../bench/swarm-reads.js";
import { startTestServer } from "../helpers/server.js";

const api = await startTestServer();
const self = { pid: process.pid, memory: () => readMemory(process.pid) };
const imported = await api.post(
  "/api/boards/import",
  issueBoardDocument({ tickets: 300, comments: 100 }),
);
assert.equal(imported.status, 201);
const boardId: number = imported.body.board.id;
const laneId: number = imported.body.lanes[0].id;

test("the swarm runs its loop without errors or double claims, and the UIs hear every write", async () => {
  const result = await runSwarm(api.url, self, boardId, {
    agents: 4,
    durationMs: 3000,
    warmupMs: 0,
    soloMs: 100,
  });
  // Whole-run counts: what the measured window holds depends on the machine's speed.
  const names = result.operations.filter((row) => row.wholeRun > 0).map((row) => row.name);
  for (const name of [
    "ready",
    "claim-next",
    "comment",
    "ticket event",
    "resolve",
    "ui: board shell",
  ]) {
    assert.ok(names.includes(name), `${name} ran`);
  }
  for (const row of result.operations) {
    assert.equal(row.errors, 0, `${row.name}: ${row.firstError}`);
  }
  assert.ok(result.loopsWholeRun > 0, "agents finished loops");
  assert.ok(result.claims > 0);
  assert.deepEqual(result.doubleClaims, []);
  assert.ok(result.auditedTickets > 0, "the claimed tickets' activity was audited");
  const alone = result.alone.map((cost) => cost.name);
  for (const name of [
    "ready",
    "claim-next",
    "comment",
    "ticket event",
    "resolve",
    "ui: full list",
  ]) {
    assert.ok(alone.includes(name), `${name} ran alone`);
  }
  assert.ok(result.streamMessages.ui > 0, "the UI clients received stream messages");
  assert.ok(result.streamMessages.agents > 0, "the agents received stream messages");
  assert.ok(result.streamDelayMs.samples > 0, "writes were matched with their messages");
  assert.equal(result.streamDelayMs.unannounced, 0, "every write was announced");

  // Every claim ended: the swarm resolved or released each ticket it took.
  const claimed = await api.get(`/api/boards/${boardId}/tickets?archived=all`);
  assert.equal(
    claimed.body.tickets.filter((ticket: { claim?: unknown }) => ticket.claim).length,
    0,
  );
});

test("the read-after-write table measures every row, and claim-next hands nothing out twice", async () => {
  // The swarm above may have resolved every ticket the table would pick (an open one in the lane
  // with the rare word): give it one of its own.
  const fresh = await api.post(`/api/boards/${boardId}/tickets`, {
    title: `A ${RARE_WORD} of our own`,
    laneId,
  });
  assert.equal(fresh.status, 201);
  const { rows, doubleClaims } = await readAfterWrite(
    api.url,
    self,
    { boardId, laneId },
    // A short server warm-up too: its PATCHes and every read form must answer 200.
    { durationMs: 150, warmupMs: 0, serverWarmupMs: 100, claimCallers: 8 },
  );
  assert.equal(rows.length, 6);
  assert.equal(doubleClaims, 0);
  const rowsOf = (name: string) => rows.find((row) => row.name.startsWith(name))?.detail;
  assert.match(rowsOf("full list") ?? "", /^\d+ rows$/);
  assert.match(rowsOf("claim-next") ?? "", /claims\/s$/);
});

test("the claim audit flags a claim taken while another actor's was not released", () => {
  const claimed = (id: number, actor: string) => ({
    id,
    action: "ticket_claimed",
    details: { actor },
  });
  const released = (id: number, actor: string) => ({
    id,
    action: "ticket_released",
    details: { actor },
  });
  const comment = (id: number) => ({ id, action: "comment_added", details: {} });
  // Newest first, as the API answers: the audit orders by id.
  const fine = [claimed(5, "b"), released(4, "a"), comment(3), claimed(2, "a")];
  assert.deepEqual(overlappingClaims(7, fine), []);
  const twice = [released(5, "b"), claimed(4, "b"), comment(3), claimed(2, "a")];
  assert.deepEqual(overlappingClaims(7, twice), ["ticket 7: claimed by b while a held it"]);
});

test("stream delays pair each write with the message about its ticket", () => {
  const delays = new StreamDelays(1);
  delays.written(1, 0, 10); // answered at 10 ms...
  delays.received(0, [1], 15); // ...announced at 15 ms
  delays.written(2, 20, 30);
  delays.written(2, 31, 40); // two writes of ticket 2, one coalesced message
  delays.received(0, [2, 3], 50); // ticket 3: a message that credits no write
  delays.written(4, 60, 70);
  delays.received(0, null, 75); // no ticketIds: everything
  delays.received(0, [5], 80); // the message overtook its answer
  delays.written(5, 78, 82);
  delays.written(6, 90, 95); // never announced
  const summary = delays.summary();
  assert.equal(summary.samples, 5);
  assert.equal(summary.unannounced, 1);
  assert.equal(summary.max, 20);
  assert.equal(summary.p50, 5);
});
