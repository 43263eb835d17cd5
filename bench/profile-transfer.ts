/**
 * `node --import tsx bench/profile-transfer.ts <export|import> [rounds] [tickets]`: a CPU profile
 * of the server during whole-board exports (each after a comment, so none is answered from the
 * cache) or imports of a board of `tickets` (default 5,000). Seeds the board on an unprofiled
 * server, restarts tack on that database under `node --cpu-prof`, prints wall and server CPU per
 * round and the summary; the .cpuprofile stays in bench/profiles/ for a flame graph.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { issueBoardDocument } from "./dataset.js";
import { Client, cpuMs, seedDatabase, startTack } from "./lib.js";
import { summarizeProfile } from "./profile-summary.js";

const PROFILES = fileURLToPath(new URL("./profiles/", import.meta.url));

async function main(): Promise<void> {
  const [mode = "export", roundsArgument = "5", ticketsArgument = "5000"] = process.argv.slice(2);
  if (mode !== "export" && mode !== "import") {
    throw new Error("usage: <export|import> [rounds] [tickets]");
  }
  const rounds = Number(roundsArgument);
  const tickets = Number(ticketsArgument);
  // The bench's shape: 2.4 comments per ticket (5,000 + 12,000; 20,000 + 50,000 is 2.5).
  const document = issueBoardDocument({ tickets, comments: Math.round(tickets * 2.4) });
  const folder = mkdtempSync(join(tmpdir(), "tack-profile-"));
  const dbFile = join(folder, "tack.sqlite");
  try {
    const detail = await seedDatabase(dbFile, document);
    mkdirSync(PROFILES, { recursive: true });
    const before = new Set(readdirSync(PROFILES));
    const tack = await startTack([], undefined, {
      dbFile,
      settleMs: 3000,
      nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${PROFILES}`],
    });
    const client = new Client(tack.url, 1);
    const ticketId = detail.tickets[0].id as number;
    for (let round = 1; round <= rounds; round++) {
      if (mode === "export") {
        await client.ok(
          {
            method: "POST",
            path: `/api/tickets/${ticketId}/comments`,
            body: { bodyMarkdown: `round ${round}` },
          },
          201,
        );
      }
      const cpu = cpuMs(tack.pid) ?? 0;
      const started = performance.now();
      if (mode === "export") {
        await client.ok({ method: "GET", path: `/api/boards/${detail.board.id}/export` }, 200);
      } else {
        await client.ok({ method: "POST", path: "/api/boards/import", body: document }, 201);
      }
      const wall = performance.now() - started;
      const used = (cpuMs(tack.pid) ?? 0) - cpu;
      console.log(`${mode} ${round}: ${wall.toFixed(0)} ms wall, ${used.toFixed(0)} ms server CPU`);
    }
    client.close();
    await tack.stop();
    for (const file of readdirSync(PROFILES).filter((name) => !before.has(name))) {
      console.log(`\nprofile: bench/profiles/${file}`);
      console.log(summarizeProfile(join(PROFILES, file), undefined, 40));
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
