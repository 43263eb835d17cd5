// The swarm benchmark (bench/swarm-*.ts) in small: a 300-ticket board, four agents and the two
// UI clients for ~3 s, then the read-after-write table for a moment. Only correctness is
// asserted (every operation succeeded, no ticket held by two live claims, stream messages
// arrived and announced the writes): timings on a shared machine prove nothing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { issueBoardDocument } from "../bench/dataset.js";
import { readMemory } from "../bench/lib.js";
import { runSwarm } from "../bench/swarm-load.js";
import { readAfterWrite } from "../bench/swarm-reads.js";
import { startTestServer } from "./helpers/server.js";

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
  const { rows, doubleClaims } = await readAfterWrite(
    api.url,
    self,
    { boardId, laneId },
    { durationMs: 150, warmupMs: 0, claimCallers: 8 },
  );
  assert.equal(rows.length, 6);
  assert.equal(doubleClaims, 0);
  const rowsOf = (name: string) => rows.find((row) => row.name.startsWith(name))?.detail;
  assert.match(rowsOf("full list") ?? "", /^\d+ rows$/);
  assert.match(rowsOf("claim-next") ?? "", /claims\/s$/);
});
