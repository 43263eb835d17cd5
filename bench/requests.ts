/**
 * `npm run bench -- requests [--scenarios a,b] [--compare <commit>] [--rounds N]`: server CPU
 * per request and requests per second of the named scenarios of bench/scenarios.ts (default:
 * all of them, in their order), each on a fresh server seeded with bench/dataset.ts's
 * 5,000-ticket board through the import endpoint, 10 requests in flight, BENCH_WARMUP_MS
 * unmeasured then BENCH_DURATION_MS measured. With --compare, that commit's build and this
 * tree's alternate round by round (a fresh server each), and the tables give each build's
 * median (min-max) and the ratio. Rounds default to 2 with --compare, 1 without.
 */
import { parseArgs } from "node:util";
import { type BuildRoot, buildsToCompare, median, removeCheckOut, spread } from "./builds.js";
import { issueBoardDocument } from "./dataset.js";
import { Client, startTack, waitForIdle } from "./lib.js";
import { runLoad } from "./load-loop.js";
import { printTable, scenarioDurationMs, scenarioWarmupMs } from "./report.js";
import { loadScenarios } from "./scenarios.js";

function options() {
  const { values } = parseArgs({
    options: {
      scenarios: { type: "string" },
      compare: { type: "string" },
      rounds: { type: "string" },
    },
  });
  const rounds = Number(values.rounds ?? (values.compare ? 2 : 1));
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be an integer >= 1");
  const known = loadScenarios({ boardId: 1, laneIds: [1], ticketIds: [1] }).map((s) => s.name);
  const wanted = values.scenarios ? values.scenarios.split(",").map((name) => name.trim()) : known;
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new Error(`unknown scenario ${unknown.join(", ")}; known: ${known.join(", ")}`);
  }
  return { wanted, rounds, compare: values.compare };
}

async function oneRound(
  build: BuildRoot,
  document: unknown,
  wanted: string[],
  record: (build: string, scenario: string, cpu: number, perSecond: number) => void,
): Promise<void> {
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
      if (result.errors > 0) {
        console.log(
          `  ${build.name}, ${scenario.name}: ${result.errors} errors (${result.firstError})`,
        );
      }
      record(
        build.name,
        scenario.name,
        result.serverCpuMsPerRequest ?? Number.NaN,
        result.requestsPerSecond,
      );
    }
  } finally {
    client.close();
    await tack.stop();
  }
}

async function main(): Promise<void> {
  const { wanted, rounds, compare } = options();
  const document = issueBoardDocument({ tickets: 5000, comments: 12000 });
  const checkouts: string[] = [];
  try {
    const builds = buildsToCompare(compare, checkouts);
    const cpu = new Map<string, number[]>();
    const throughput = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, key: string, value: number) =>
      map.set(key, [...(map.get(key) ?? []), value]);
    for (let round = 1; round <= rounds; round++) {
      for (const build of builds) {
        await oneRound(build, document, wanted, (name, scenario, cpuMs, perSecond) => {
          add(cpu, `${name}|${scenario}`, cpuMs);
          add(throughput, `${name}|${scenario}`, perSecond);
        });
      }
      console.log(`round ${round} of ${rounds} done`);
    }
    const names = builds.map((build) => build.name);
    for (const [title, figures, digits] of [
      ["server CPU ms per request", cpu, 2],
      ["requests per second", throughput, 0],
    ] as const) {
      console.log(`\n## ${title}: median (min-max) of ${rounds} round(s)`);
      const ratio = names.length === 2 ? [`${names[0]} / ${names[1]}`] : [];
      printTable(
        ["scenario", ...names, ...ratio],
        wanted.map((scenario) => {
          const perBuild = names.map((name) => figures.get(`${name}|${scenario}`) ?? []);
          const [before = [], after = []] = perBuild;
          return [
            scenario,
            ...perBuild.map((values) => spread(values, digits)),
            ...(ratio.length > 0 ? [(median(before) / median(after)).toFixed(2)] : []),
          ];
        }),
      );
    }
  } finally {
    for (const checkout of checkouts) removeCheckOut(checkout);
  }
}

main().catch((error: unknown) => {
  console.error(`bench requests: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
