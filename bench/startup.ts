/**
 * `npm run bench -- startup [--compare <commit>] [--rounds N]`: how fast tack answers right
 * after it starts. Each round (default 4) starts a fresh server (of this tree, and of that
 * commit's build with --compare, alternated),
 * polls `GET /api/health` until it answers, then sends ten requests, one every 200 ms (the first
 * two seconds, when a UI or an agent that just started tack loads its data), and records each
 * one's latency. Then the idle RSS 3 s after the start line.
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { buildsToCompare, median, removeCheckOut, spread } from "./builds.js";
import { Client, type RequestSpec, startTack } from "./lib.js";
import { printTable } from "./report.js";

const REQUESTS = 10;
const SPACING_MS = 200;
const PATHS: RequestSpec[] = [
  { path: "/api/boards" },
  { path: "/api/meta" },
  { method: "POST", path: "/api/boards", body: { name: "first" }, expect: [201] },
];

interface Round {
  latencies: number[];
  idleRssMiB: number | null;
}

async function oneStart(root: string): Promise<Round> {
  const tack = await startTack([], root, { settleMs: 0 });
  const client = new Client(tack.url, 1);
  const started = performance.now();
  try {
    while ((await client.send({ path: "/api/health" }).catch(() => null))?.status !== 200) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const latencies: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const due = started + i * SPACING_MS;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const spec = PATHS[i % PATHS.length] as RequestSpec;
      const result = await client.send(spec);
      latencies.push(performance.now() - result.sentAt);
    }
    const settle = started + 3000 - performance.now();
    if (settle > 0) await new Promise((resolve) => setTimeout(resolve, settle));
    return { latencies, idleRssMiB: tack.memory()?.rssMiB ?? null };
  } finally {
    client.close();
    await tack.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { compare: { type: "string" }, rounds: { type: "string", default: "4" } },
  });
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be an integer >= 1");
  const checkouts: string[] = [];
  try {
    const builds = buildsToCompare(values.compare, checkouts);
    const results = new Map<string, Round[]>();
    for (let round = 1; round <= rounds; round++) {
      for (const build of builds) {
        results.set(build.name, [...(results.get(build.name) ?? []), await oneStart(build.root)]);
      }
      console.log(`round ${round} of ${rounds} done`);
    }
    console.log(
      `\n## first ${REQUESTS} requests after /api/health answers, one every ${SPACING_MS} ms: latency in ms, median (min-max) of ${rounds} rounds`,
    );
    const header = ["request", ...builds.map((build) => build.name)];
    const rows: string[][] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const spec = PATHS[i % PATHS.length] as RequestSpec;
      rows.push([
        `${i + 1}. ${spec.method ?? "GET"} ${spec.path} at ${i * SPACING_MS} ms`,
        ...builds.map((build) =>
          spread(
            (results.get(build.name) ?? []).map((r) => r.latencies[i] as number),
            1,
          ),
        ),
      ]);
    }
    const all = (name: string) => (results.get(name) ?? []).flatMap((r) => r.latencies);
    rows.push(["all: median", ...builds.map((b) => median(all(b.name)).toFixed(1))]);
    rows.push(["all: max", ...builds.map((b) => Math.max(...all(b.name)).toFixed(1))]);
    rows.push([
      "idle RSS 3 s after start, MiB",
      ...builds.map((b) =>
        spread((results.get(b.name) ?? []).map((r) => r.idleRssMiB ?? Number.NaN)),
      ),
    ]);
    printTable(header, rows);
  } finally {
    for (const checkout of checkouts) removeCheckOut(checkout);
  }
}

main().catch((error: unknown) => {
  console.error(`bench startup: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
