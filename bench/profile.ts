/**
 * `npm run bench:profile -- <scenario> [requests]`: a CPU profile of one scenario. Seeds the
 * 5,000-ticket board (bench/dataset.ts) through the import endpoint, restarts tack on that
 * database under `node --cpu-prof`, sends the scenario's requests (10 in flight), stops tack and
 * prints the profile's summary (bench/profile-summary.ts). The .cpuprofile file stays in
 * bench/profiles/ for a flame graph (Chrome DevTools, speedscope).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { issueBoardDocument } from "./dataset.js";
import { Client, runLoad, seedDatabase, startTack } from "./lib.js";
import { summarizeProfile } from "./profile-summary.js";
import { type BoardFixture, loadScenarios } from "./scenarios.js";

const PROFILES = fileURLToPath(new URL("./profiles/", import.meta.url));

async function main(): Promise<void> {
  const [name, countArgument = "2000"] = process.argv.slice(2);
  const folder = mkdtempSync(join(tmpdir(), "tack-profile-"));
  const dbFile = join(folder, "tack.sqlite");
  try {
    const detail = await seedDatabase(
      dbFile,
      issueBoardDocument({ tickets: 5000, comments: 12000 }),
    );
    const fixture: BoardFixture = {
      boardId: detail.board.id,
      laneIds: detail.lanes.map((lane: { id: number }) => lane.id),
      ticketIds: detail.tickets.map((ticket: { id: number }) => ticket.id),
    };
    const scenario = loadScenarios(fixture).find((candidate) => candidate.name === name);
    if (!scenario) {
      const names = loadScenarios(fixture).map((candidate) => candidate.name);
      throw new Error(`unknown scenario ${name}; known: ${names.join(", ")}`);
    }
    mkdirSync(PROFILES, { recursive: true });
    const before = new Set(readdirSync(PROFILES));
    const tack = await startTack([], undefined, {
      dbFile,
      settleMs: 500,
      nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${PROFILES}`],
    });
    const client = new Client(tack.url, 16);
    const result = await runLoad(client, tack, scenario, {
      concurrency: 10,
      durationMs: 60_000,
      maxRequests: Number(countArgument),
      warmupRequests: 200,
    });
    client.close();
    await tack.stop();
    console.log(
      `${name}: ${result.requests} requests, ${result.errors} errors, server CPU ${result.serverCpuMsPerRequest?.toFixed(2)} ms/request${result.firstError ? `, first error ${result.firstError}` : ""}`,
    );
    const written = readdirSync(PROFILES).filter((file) => !before.has(file));
    for (const file of written) {
      console.log(`\nprofile: bench/profiles/${file}`);
      console.log(summarizeProfile(join(PROFILES, file)));
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(
    `bench:profile: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
