/**
 * `npm run bench:compare-requests -- <git-ref> [rounds] [scenario,...]`: server CPU per request
 * of another commit's build and of this tree's, alternated round by round (a fresh server each,
 * seeded with bench/dataset.ts's 5,000-ticket board through the import endpoint), for the named
 * scenarios of bench/scenarios.ts (default: create, list q=word). Prints medians and the ratio,
 * of CPU per request and of requests per second.
 */
import { checkOut, median, ROOT, removeCheckOut, spread } from "./builds.js";
import { issueBoardDocument } from "./dataset.js";
import {
  Client,
  printTable,
  runLoad,
  scenarioDurationMs,
  scenarioWarmupMs,
  startTack,
  waitForIdle,
} from "./lib.js";
import { loadScenarios } from "./scenarios.js";

async function main(): Promise<void> {
  const [ref, roundsArgument = "2", names = "create,list q=word"] = process.argv.slice(2);
  const rounds = Number(roundsArgument);
  if (!ref || !Number.isInteger(rounds) || rounds < 1) {
    throw new Error("usage: npm run bench:compare-requests -- <git-ref> [rounds] [scenario,...]");
  }
  const wanted = names.split(",");
  const document = issueBoardDocument({ tickets: 5000, comments: 12000 });
  const other = checkOut(ref);
  try {
    const builds = [
      { name: ref, root: other },
      { name: "this tree", root: ROOT },
    ];
    const cpu = new Map<string, number[]>();
    const throughput = new Map<string, number[]>();
    for (let round = 1; round <= rounds; round++) {
      for (const build of builds) {
        const tack = await startTack([], build.root, { settleMs: 500 });
        const client = new Client(tack.url, 16);
        try {
          const detail = await client.ok(
            { method: "POST", path: "/api/boards/import", body: document },
            201,
          );
          const board = {
            boardId: detail.board.id,
            laneIds: detail.lanes.map((lane: { id: number }) => lane.id),
            ticketIds: detail.tickets.map((ticket: { id: number }) => ticket.id),
          };
          await waitForIdle(tack.pid);
          for (const scenario of loadScenarios(board)) {
            if (!wanted.includes(scenario.name)) continue;
            const result = await runLoad(client, tack, scenario, {
              concurrency: scenario.concurrency ?? 10,
              durationMs: scenarioDurationMs(),
              warmupRequests: 50,
              warmupMs: scenarioWarmupMs(),
            });
            const key = `${build.name}|${scenario.name}`;
            cpu.set(key, [...(cpu.get(key) ?? []), result.serverCpuMsPerRequest ?? Number.NaN]);
            throughput.set(key, [...(throughput.get(key) ?? []), result.requestsPerSecond]);
          }
        } finally {
          client.close();
          await tack.stop();
        }
      }
      console.log(`round ${round} of ${rounds} done`);
    }
    for (const [title, figures, digits] of [
      ["server CPU ms per request", cpu, 2],
      ["requests per second", throughput, 0],
    ] as const) {
      console.log(`\n## ${title}: median (min-max) of ${rounds} rounds`);
      printTable(
        ["scenario", ref, "this tree", `${ref} / this tree`],
        wanted.map((name) => {
          const before = figures.get(`${ref}|${name}`) ?? [];
          const after = figures.get(`this tree|${name}`) ?? [];
          return [
            name,
            spread(before, digits),
            spread(after, digits),
            (median(before) / median(after)).toFixed(2),
          ];
        }),
      );
    }
  } finally {
    removeCheckOut(other);
  }
}

main().catch((error: unknown) => {
  console.error(
    `bench:compare-requests: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
