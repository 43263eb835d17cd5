/**
 * `npm run bench -- swarm [flags]`: the measurements of a board that agents are
 * changing. Seeds a 10,000-ticket board (bench/dataset.ts: ~9,800 open, one lane ~12 %, a word
 * in ~3 %; 2.4 comments per ticket) once, and starts a fresh server on a copy of it per phase:
 *   1. the "read right after a write" table and claim-next with 32 concurrent callers
 *      (bench/swarm-reads.ts), each with its target;
 *   2. for each K (default 8, then 32): K agents and two UI-like clients for a fixed time
 *      (bench/swarm-load.ts).
 * Flags: --tickets 20000, --agents 8,32, --seconds 20 (measured per K), --warmup 3,
 * --reads-seconds 3, --reads-warmup 20 (the server warmed up before the read-after-write table: title
 * PATCHes, then every read form; 0: none), --alone-seconds 1 (each operation alone after the
 * swarm), --no-agent-streams,
 * --write-streams 34 (board streams held open during the read-after-write table: two UIs and 32
 * agents; 0: none), --skip-reads, --skip-swarm, --json <file> (every
 * figure of every run), and
 * --compare <commit> [--rounds N]: that commit's build (a temporary worktree, bench/builds.ts)
 * and this tree's, alternated phase by phase in one run, with ratios.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildsToCompare, removeCheckOut } from "./builds.js";
import { issueBoardDocument } from "./dataset.js";
import { Client, startTack, waitForIdle } from "./lib.js";
import { runSwarm, type SwarmResult } from "./swarm-load.js";
import { type BoardForReads, type ReadAfterWriteRow, readAfterWrite } from "./swarm-reads.js";
import {
  printComparison,
  printReadAfterWrite,
  printSwarm,
  readFigures,
  swarmFigures,
} from "./swarm-report.js";

const COMMENTS_PER_TICKET = 2.4;

interface Build {
  name: string;
  root: string;
  /** The seeded database (copied for every phase) and its board. */
  dbFile: string;
  board: BoardForReads;
}

function options() {
  const { values } = parseArgs({
    options: {
      tickets: { type: "string", default: "10000" },
      agents: { type: "string", default: "8,32" },
      seconds: { type: "string", default: "20" },
      warmup: { type: "string", default: "3" },
      "reads-seconds": { type: "string", default: "3" },
      "reads-warmup": { type: "string", default: "20" },
      "alone-seconds": { type: "string", default: "1" },
      "no-agent-streams": { type: "boolean", default: false },
      "skip-reads": { type: "boolean", default: false },
      "write-streams": { type: "string", default: "34" },
      "skip-swarm": { type: "boolean", default: false },
      compare: { type: "string" },
      rounds: { type: "string", default: "1" },
      json: { type: "string" },
    },
  });
  const number = (name: string, value: string | undefined) => {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`--${name} must be a number > 0`);
    return parsed;
  };
  const atLeastZero = (name: string, value: string | undefined) => {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} must be a number >= 0`);
    return parsed;
  };
  return {
    tickets: number("tickets", values.tickets),
    agents: String(values.agents)
      .split(",")
      .map((value) => number("agents", value)),
    durationMs: number("seconds", values.seconds) * 1000,
    warmupMs: Number(values.warmup) * 1000,
    readsMs: number("reads-seconds", values["reads-seconds"]) * 1000,
    readsWarmupMs: atLeastZero("reads-warmup", values["reads-warmup"]) * 1000,
    aloneMs: Number(values["alone-seconds"]) * 1000,
    agentStreams: !values["no-agent-streams"],
    reads: !values["skip-reads"],
    writeStreams: Number(values["write-streams"]),
    swarm: !values["skip-swarm"],
    compare: values.compare,
    rounds: number("rounds", values.rounds),
    json: values.json,
  };
}

/** Imports the board into a fresh database with `root`'s build and waits for its indexing. */
async function seed(
  root: string,
  folder: string,
  document: unknown,
): Promise<Build["board"] & { dbFile: string }> {
  const dbFile = join(folder, "seed.sqlite");
  const tack = await startTack([], root, { dbFile, settleMs: 0 });
  const client = new Client(tack.url, 1);
  try {
    const detail = await client.ok(
      { method: "POST", path: "/api/boards/import", body: document },
      201,
    );
    await waitForIdle(tack.pid);
    return { dbFile, boardId: detail.board.id, laneId: detail.lanes[0].id };
  } finally {
    client.close();
    await tack.stop();
  }
}

/** Starts `build` on a fresh copy of its seeded database, runs `work`, and stops it. */
async function withServer<T>(
  build: Build,
  work: (tack: Awaited<ReturnType<typeof startTack>>) => Promise<T>,
): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), "tack-swarm-"));
  const dbFile = join(folder, "tack.sqlite");
  for (const suffix of ["", "-wal", "-shm"]) {
    if (existsSync(build.dbFile + suffix)) copyFileSync(build.dbFile + suffix, dbFile + suffix);
  }
  const tack = await startTack([], build.root, { dbFile });
  try {
    const idle = tack.memory();
    if (idle) {
      console.log(`  ${build.name}: RSS ${idle.rssMiB.toFixed(1)} MiB after start`);
    }
    return await work(tack);
  } finally {
    await tack.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const flags = options();
  const cpu = cpus();
  console.log(
    `tack bench swarm — node ${process.version}, ${cpu.length} x ${cpu[0]?.model.trim()}, load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(" ")}, ${new Date().toISOString()}`,
  );
  const document = issueBoardDocument({
    tickets: flags.tickets,
    comments: Math.round(flags.tickets * COMMENTS_PER_TICKET),
  });
  console.log(
    `board: ${flags.tickets} tickets, ${Math.round(flags.tickets * COMMENTS_PER_TICKET)} comments (bench/dataset.ts)`,
  );
  const folder = mkdtempSync(join(tmpdir(), "tack-swarm-seed-"));
  const checkouts: string[] = [];
  try {
    const roots = buildsToCompare(flags.compare, checkouts);
    const builds: Build[] = [];
    for (const [index, entry] of roots.entries()) {
      const target = mkdtempSync(join(folder, `build-${index}-`));
      const seeded = await seed(entry.root, target, document);
      builds.push({ ...entry, dbFile: seeded.dbFile, board: seeded });
      console.log(`seeded ${entry.name}: board ${seeded.boardId}`);
    }

    const raw: unknown[] = [];
    const readRounds = builds.map(() => [] as Map<string, number>[]);
    const swarmRounds = new Map<number, Map<string, number>[][]>();
    let readDoubleClaims = 0;
    for (let round = 1; round <= flags.rounds; round++) {
      if (flags.reads) {
        for (const [index, build] of builds.entries()) {
          const { rows, doubleClaims } = await withServer(build, (tack) =>
            readAfterWrite(tack.url, tack, build.board, {
              durationMs: flags.readsMs,
              warmupMs: Math.min(flags.warmupMs, 2000),
              serverWarmupMs: flags.readsWarmupMs,
              streams: flags.writeStreams,
            }),
          );
          readDoubleClaims += doubleClaims;
          readRounds[index]?.push(readFigures(rows));
          raw.push({ round, build: build.name, phase: "read after write", rows, doubleClaims });
          if (builds.length === 1) printReadAfterWrite(rows, doubleClaims);
          else console.log(`  read after write, ${build.name}: done`);
          lastReadRows = rows;
        }
      }
      if (flags.swarm) {
        for (const agents of flags.agents) {
          const perBuild = swarmRounds.get(agents) ?? builds.map(() => []);
          swarmRounds.set(agents, perBuild);
          for (const [index, build] of builds.entries()) {
            const result: SwarmResult = await withServer(build, (tack) =>
              runSwarm(tack.url, tack, build.board.boardId, {
                agents,
                durationMs: flags.durationMs,
                warmupMs: flags.warmupMs,
                agentStreams: flags.agentStreams,
                soloMs: flags.aloneMs,
              }),
            );
            perBuild[index]?.push(swarmFigures(result));
            raw.push({ round, build: build.name, phase: `swarm K=${agents}`, result });
            if (builds.length === 1) printSwarm(result);
            else
              console.log(
                `  swarm K=${agents}, ${build.name}: ${result.loopsPerSecond.toFixed(1)} loops/s, double claims ${result.doubleClaims.length}`,
              );
          }
        }
      }
      if (builds.length > 1) console.log(`round ${round} of ${flags.rounds} done`);
    }

    if (builds.length > 1) {
      const names = builds.map((build) => build.name);
      if (flags.reads) {
        const targets = new Map(
          lastReadRows.map((row) => [`${row.name}: CPU ms`, row.targetMs] as const),
        );
        printComparison("Read right after a write, server CPU ms", names, readRounds, targets);
        console.log(
          `claim-next: ${readDoubleClaims === 0 ? "PASS, no ticket handed out twice" : `FAIL, ${readDoubleClaims} handed out twice`}`,
        );
      }
      for (const [agents, perBuild] of swarmRounds) {
        printComparison(`Swarm, K=${agents}`, names, perBuild);
      }
    }
    if (flags.json) {
      const at = new Date().toISOString();
      writeFileSync(flags.json, `${JSON.stringify({ at, flags, runs: raw }, null, 2)}\n`);
      console.log(`\nraw figures: ${flags.json}`);
    }
  } finally {
    for (const checkout of checkouts) removeCheckOut(checkout);
    rmSync(folder, { recursive: true, force: true });
  }
}

let lastReadRows: ReadAfterWriteRow[] = [];

main().catch((error: unknown) => {
  console.error(
    `bench swarm: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
