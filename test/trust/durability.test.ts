import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { runDurabilityRounds } from "./durability-rounds.js";

/**
 * SIGKILL under a mixed write load, then restart: nothing acknowledged is lost, nothing is
 * half-applied. A few rounds here; `npm run test:durability` runs 50 or more
 * (DURABILITY_ROUNDS, DURABILITY_SEED).
 */
const rounds = Number(process.env.DURABILITY_ROUNDS ?? 5);
const seed = Number(process.env.DURABILITY_SEED ?? 20261124);
const folder = mkdtempSync(join(tmpdir(), "tack-durability-"));
after(() => rmSync(folder, { recursive: true, force: true }));

test(`${rounds} SIGKILL/restart rounds under a mixed write load lose no acknowledged write (seed ${seed})`, async () => {
  const report = await runDurabilityRounds({
    dbFile: join(folder, "tack.sqlite"),
    rounds,
    seed,
    log: rounds > 5 ? (line) => console.log(line) : undefined,
  });
  console.log(JSON.stringify(report));
  assert.equal(report.rounds, rounds);
  assert.ok(report.acknowledgedWrites >= rounds * 15);
});
