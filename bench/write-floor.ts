/**
 * `npm run bench -- floor [--rounds N]`: what issue #11's single-ticket scenarios cost when an HTTP service on
 * tack's stack does nothing but the operation (bench/floor-server.ts), next to tack itself, all
 * on the same 5,000-ticket board, 10 requests in flight, server CPU per request (all threads)
 * and requests per second. The floor servers and tack alternate round by round (a fresh
 * process each), as the machine's load drifts; medians of `--rounds` (default 3) are printed.
 *
 * Floors measured: `floor` (group commit, bodies rendered by tack's renderer: the least a
 * durable create, rename, comment or detail can cost on this stack), `floor, FULL` (every
 * commit fsyncs on the event loop) and `floor, unrendered` (no Markdown rendering: what is left
 * of HTTP, validation, two statements, a commit and the answer).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "./builds.js";
import { issueBoardDocument } from "./dataset.js";
import {
  Client,
  printTable,
  type RequestSpec,
  readMemory,
  runLoad,
  scenarioDurationMs,
  scenarioWarmupMs,
  startLine,
  startTack,
  waitForIdle,
} from "./lib.js";
import { loadScenarios } from "./scenarios.js";

const SCENARIOS = ["create", "PATCH title", "POST comment", "ticket detail"] as const;
type ScenarioName = (typeof SCENARIOS)[number];

interface Server {
  pid: number;
  memory: () => ReturnType<typeof readMemory>;
  request: (name: ScenarioName, i: number) => RequestSpec;
  stop: () => Promise<void>;
  url: string;
}

const FLOORS = [
  { name: "floor", args: ["group", "render"] },
  { name: "floor, FULL", args: ["full", "render"] },
  { name: "floor, unrendered", args: ["group", "plain"] },
] as const;

/** The same requests as bench/scenarios.ts, sent to the floor server's routes. */
function floorRequest(name: ScenarioName, i: number): RequestSpec {
  const ticket = ((i * 7919) % 5000) + 1;
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

async function startFloor(args: readonly string[]): Promise<Server> {
  const folder = mkdtempSync(join(tmpdir(), "tack-floor-"));
  const child = spawn(
    process.execPath,
    [
      "--max-semi-space-size=16",
      "--import",
      "tsx",
      fileURLToPath(new URL("./floor-server.ts", import.meta.url)),
      ...args,
      join(folder, "floor.sqlite"),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
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

async function startTackOnBoard(): Promise<Server> {
  const tack = await startTack([], undefined, { settleMs: 500 });
  const client = new Client(tack.url, 1);
  const detail = await client.ok(
    {
      method: "POST",
      path: "/api/boards/import",
      body: issueBoardDocument({ tickets: 5000, comments: 12000 }),
    },
    201,
  );
  client.close();
  const scenarios = loadScenarios({
    boardId: detail.board.id,
    laneIds: detail.lanes.map((lane: { id: number }) => lane.id),
    ticketIds: detail.tickets.map((ticket: { id: number }) => ticket.id),
  });
  await waitForIdle(tack.pid);
  return {
    ...tack,
    request: (name, i) => {
      const scenario = scenarios.find((candidate) => candidate.name === name);
      if (!scenario) throw new Error(`no scenario ${name}`);
      return scenario.request(i);
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" } } });
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be an integer >= 1");
  const contenders = [
    ...FLOORS.map((floor) => ({ name: floor.name, start: () => startFloor(floor.args) })),
    { name: "tack", start: startTackOnBoard },
  ];
  const cpu = new Map<string, number[]>();
  const throughput = new Map<string, number[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const contender of contenders) {
      const server = await contender.start();
      const client = new Client(server.url, 16);
      try {
        for (const name of SCENARIOS) {
          const result = await runLoad(
            client,
            server,
            { name, request: (i) => server.request(name, i) },
            {
              concurrency: 10,
              durationMs: scenarioDurationMs(),
              warmupRequests: 200,
              warmupMs: scenarioWarmupMs(),
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
  const names = contenders.map((contender) => contender.name);
  for (const [title, figures, digits] of [
    ["server CPU ms per request", cpu, 3],
    ["requests per second", throughput, 0],
  ] as const) {
    console.log(`\n## ${title}: median of ${rounds} rounds`);
    printTable(
      ["scenario", ...names],
      SCENARIOS.map((name) => [
        name,
        ...names.map((contender) =>
          median(figures.get(`${contender}|${name}`) ?? []).toFixed(digits),
        ),
      ]),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
