/**
 * `npm run bench -- floor [--rounds N] [--scenarios a,b]`: what the single-ticket requests
 * (create, title PATCH, comment, detail) cost when an HTTP service on tack's stack does nothing
 * but the operation (bench/floor-server.ts), next to tack itself, all on a 10,000-ticket board
 * (the swarm's: 8 lanes, 24,000 comments), 10 requests in flight for 10 s after 10 s of
 * warm-up, server CPU per request (all threads) and requests per second. The floor servers and
 * tack alternate round by round (a fresh process each, on a fresh copy of a database seeded
 * once), as the machine's load drifts; medians of `--rounds` (default 3) are printed, then
 * tack's ratio to each floor.
 *
 * Floors measured: `floor` (tack's default durability, group commit; bodies rendered by tack's
 * renderer; a trigram FTS5 trigger and an activity row: the least a durable create, rename,
 * comment or detail can cost on this stack), `floor, FULL` (every commit fsyncs on the event
 * loop) and `floor, unrendered` (no Markdown rendering: what is left of HTTP, validation, the
 * statements, a commit and the answer).
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "./builds.js";
import { issueBoardDocument } from "./dataset.js";
import {
  Client,
  type RequestSpec,
  readMemory,
  seedDatabase,
  startLine,
  startTack,
  waitForIdle,
} from "./lib.js";
import { runLoad } from "./load-loop.js";
import { printTable, scenarioDurationMs, scenarioWarmupMs } from "./report.js";
import { loadScenarios } from "./scenarios.js";

const SCENARIOS = ["create", "PATCH title", "POST comment", "ticket detail"] as const;
type ScenarioName = (typeof SCENARIOS)[number];
const BOARD = { tickets: 10_000, comments: 24_000 };
const SQLITE_FILES = ["", "-wal", "-shm"];
/**
 * Each contender's warm-up per scenario (BENCH_WARMUP_MS overrides): V8 compiles a server's hot
 * paths on its helper threads over its first seconds, and tack has many more of them than a
 * floor server. After the benches' usual 2 s, tack's title PATCH still cost ~0.7 ms more per
 * request than from ~8 s on, where its cost is flat (docs/performance.md, "The floors").
 */
const WARMUP_MS = 10_000;
/**
 * Each contender's measured time per scenario (BENCH_DURATION_MS overrides). Both sides do
 * periodic work a short window samples unevenly: the floor's search index merges inside some of
 * its commits and its log is checkpointed every 1,000 pages; tack merges every 16th segment. With
 * the benches' usual 3 s, three runs with one PATCH path put it at 1.47, 1.48 and 1.73 times the
 * floor, the floor alone moving by 13 %; 10 s windows gave 1.40 and 1.44.
 */
const MEASURE_MS = 10_000;
const SERVER = fileURLToPath(new URL("./floor-server.ts", import.meta.url));

interface Server {
  pid: number;
  memory: () => ReturnType<typeof readMemory>;
  request: (name: ScenarioName, i: number) => RequestSpec;
  stop: () => Promise<void>;
  url: string;
}

const FLOORS = [
  { name: "floor", durability: "group", rendering: "render" },
  { name: "floor, FULL", durability: "full", rendering: "render" },
  { name: "floor, unrendered", durability: "group", rendering: "plain" },
] as const;

/** A database file copied into a fresh folder (with its log, if any). */
function copyDatabase(seed: string, folder: string): string {
  const file = join(folder, "db.sqlite");
  for (const suffix of SQLITE_FILES) {
    if (existsSync(seed + suffix)) copyFileSync(seed + suffix, file + suffix);
  }
  return file;
}

function runFloorServer(args: string[]) {
  return spawn(process.execPath, ["--max-semi-space-size=16", "--import", "tsx", SERVER, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Seeds a floor database (`render` or `plain` bodies) once, in `folder`. */
async function seedFloor(rendering: string, folder: string): Promise<string> {
  const file = join(folder, `floor-${rendering}.sqlite`);
  const child = runFloorServer(["seed", rendering, file, `${BOARD.tickets}`, `${BOARD.comments}`]);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  if (code !== 0) throw new Error(`seeding the floor (${rendering}) failed: exit ${code}`);
  return file;
}

/** The same requests as bench/scenarios.ts, sent to the floor server's routes. */
function floorRequest(name: ScenarioName, i: number): RequestSpec {
  const ticket = ((i * 7919) % BOARD.tickets) + 1;
  const body =
    "Steps to reproduce:\n\n1. open the board\n2. drag a ticket\n\nExpected **no** error; " +
    "see https://ci.example.com/runs/1 and `npm test`.";
  switch (name) {
    case "create":
      return {
        method: "POST",
        path: "/floor/tickets",
        body: { laneId: (i % 8) + 1, title: `Created ${i}`, bodyMarkdown: `${body} ${i}` },
        expect: [201],
      };
    case "PATCH title":
      return { method: "PATCH", path: `/floor/tickets/${ticket}`, body: { title: `Renamed ${i}` } };
    case "POST comment":
      return {
        method: "POST",
        path: `/floor/tickets/${ticket}/comments`,
        body: { bodyMarkdown: `Looked again: *still* failing (${i}).` },
        expect: [201],
      };
    case "ticket detail":
      return { path: `/floor/tickets/${ticket}` };
  }
}

async function startFloor(durability: string, rendering: string, seed: string): Promise<Server> {
  const folder = mkdtempSync(join(tmpdir(), "tack-floor-"));
  const file = copyDatabase(seed, folder);
  const child = runFloorServer([durability, rendering, file]);
  const url = await startLine(child);
  const pid = child.pid as number;
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  return {
    pid,
    url,
    memory: () => readMemory(pid),
    request: floorRequest,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** tack's board, imported once into `folder` through the built server. */
async function seedTack(folder: string) {
  const file = join(folder, "tack.sqlite");
  const detail = await seedDatabase(file, issueBoardDocument(BOARD));
  const scenarios = loadScenarios({
    boardId: detail.board.id,
    laneIds: detail.lanes.map((lane: { id: number }) => lane.id),
    ticketIds: detail.tickets.map((ticket: { id: number }) => ticket.id),
  });
  return { file, scenarios };
}

async function startTackOnBoard(seed: Awaited<ReturnType<typeof seedTack>>): Promise<Server> {
  const folder = mkdtempSync(join(tmpdir(), "tack-floor-"));
  const tack = await startTack([], undefined, {
    dbFile: copyDatabase(seed.file, folder),
    settleMs: 500,
  });
  await waitForIdle(tack.pid);
  return {
    ...tack,
    request: (name, i) => {
      const scenario = seed.scenarios.find((candidate) => candidate.name === name);
      if (!scenario) throw new Error(`no scenario ${name}`);
      return scenario.request(i);
    },
    async stop() {
      await tack.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: "string", default: "3" },
      scenarios: { type: "string", default: SCENARIOS.join(",") },
    },
  });
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be an integer >= 1");
  const scenarios = values.scenarios.split(",").map((name) => {
    const scenario = SCENARIOS.find((candidate) => candidate === name.trim());
    if (!scenario) throw new Error(`no scenario ${name}; scenarios: ${SCENARIOS.join(", ")}`);
    return scenario;
  });
  const seeds = mkdtempSync(join(tmpdir(), "tack-floor-seeds-"));
  try {
    console.log(`seeding the floors' and tack's boards (${BOARD.tickets} tickets)…`);
    const floorSeeds = {
      render: await seedFloor("render", seeds),
      plain: await seedFloor("plain", seeds),
    };
    const tackSeed = await seedTack(seeds);
    const contenders = [
      ...FLOORS.map((floor) => ({
        name: floor.name,
        start: () => startFloor(floor.durability, floor.rendering, floorSeeds[floor.rendering]),
      })),
      { name: "tack", start: () => startTackOnBoard(tackSeed) },
    ];
    const { cpu, throughput } = await measure(contenders, scenarios, rounds);
    const names = contenders.map((contender) => contender.name);
    for (const [title, figures, digits] of [
      ["server CPU ms per request", cpu, 3],
      ["requests per second", throughput, 0],
    ] as const) {
      console.log(`\n## ${title}: median of ${rounds} rounds`);
      printTable(
        ["scenario", ...names],
        scenarios.map((name) => [
          name,
          ...names.map((contender) =>
            median(figures.get(`${contender}|${name}`) ?? []).toFixed(digits),
          ),
        ]),
      );
    }
    console.log("\n## tack / floor, server CPU per request (medians)");
    printTable(
      ["scenario", ...FLOORS.map((floor) => `tack / ${floor.name}`)],
      scenarios.map((name) => [
        name,
        ...FLOORS.map((floor) =>
          (
            median(cpu.get(`tack|${name}`) ?? []) / median(cpu.get(`${floor.name}|${name}`) ?? [])
          ).toFixed(2),
        ),
      ]),
    );
  } finally {
    rmSync(seeds, { recursive: true, force: true });
  }
}

/** Each contender in turn, round by round, a fresh server each time: CPU and rate per scenario. */
async function measure(
  contenders: Array<{ name: string; start: () => Promise<Server> }>,
  scenarios: ScenarioName[],
  rounds: number,
) {
  const cpu = new Map<string, number[]>();
  const throughput = new Map<string, number[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const contender of contenders) {
      const server = await contender.start();
      const client = new Client(server.url, 16);
      try {
        for (const name of scenarios) {
          const result = await runLoad(
            client,
            server,
            { name, request: (i) => server.request(name, i) },
            {
              concurrency: 10,
              durationMs: scenarioDurationMs(MEASURE_MS),
              warmupRequests: 200,
              warmupMs: scenarioWarmupMs(WARMUP_MS),
            },
          );
          if (result.errors > 0) throw new Error(`${contender.name} ${name}: ${result.firstError}`);
          const key = `${contender.name}|${name}`;
          cpu.set(key, [...(cpu.get(key) ?? []), result.serverCpuMsPerRequest ?? Number.NaN]);
          throughput.set(key, [...(throughput.get(key) ?? []), result.requestsPerSecond]);
        }
      } finally {
        client.close();
        await server.stop();
      }
    }
    console.log(`round ${round} of ${rounds} done`);
  }
  return { cpu, throughput };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
