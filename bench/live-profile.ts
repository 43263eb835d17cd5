/**
 * `npm run bench -- live <mode> [seconds] [flags]`: server CPU per operation on a 10,000-ticket
 * board (bench/dataset.ts) with board streams open, as the swarm measures it, split by thread;
 * with the runner's --profile, a V8 CPU profile of the server as well (bench/main.ts).
 *
 * The board is seeded once into a cached file in the OS temp dir, named by the dataset and the
 * schema version (a seed from before a migration is not reused: the server would migrate it at
 * every start); each run serves a copy of it, deleted afterwards.
 *
 * Modes (one loop, for `seconds`, default 5):
 *   patch           title PATCHes, one per ticket in flight (--concurrency tickets of lane 2)
 *   claim           32 callers looping claim-next (stops early when the board has nothing left)
 *   lane|full|ready|q  a title PATCH then a ticket list read (lane_id=1, the whole board,
 *                   ready=true, q=<rare word>), one pair at a time; CPU per pair
 * Flags (environment variable in brackets):
 *   --streams N       board streams held open, default 34 (two UIs and 32 agents) [STREAMS]
 *   --concurrency N   PATCHes in flight in patch mode, default 1 [CONC]
 *   --warmup S        seconds of title PATCHes before measuring, default 0 [WARM]; runs shorter
 *                     than ~8-10 s are dominated by JIT warm-up without it
 *   --node-args "..." extra node options for the server, e.g. "--max-semi-space-size=32" [NODEARGS]
 * Prints the server's CPU per operation, split into its main thread and the other threads (V8's
 * GC helpers, libuv's pool) from /proc/<pid>/task: Linux only. Needs the build in dist/.
 */
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { migrations } from "../src/storage/migrations/index.js";
import { issueBoardDocument, RARE_WORD } from "./dataset.js";
import { Client, cpuMs, seedDatabase, startTack, type TackProcess } from "./lib.js";
import { type BoardStream, openBoardStream } from "./swarm-http.js";

const TICKETS = 10_000;
const COMMENTS = 24_000;
const CLAIM_CALLERS = 32;
const SQLITE_FILES = ["", "-wal", "-shm"];
// A fresh database gets the imported board and lanes ids 1, 2, ...
const LIST = "/api/boards/1/tickets";
const READS: Record<string, string> = {
  lane: `${LIST}?lane_id=1`,
  full: LIST,
  ready: `${LIST}?ready=true`,
  q: `${LIST}?q=${RARE_WORD}`,
};
const MODES = ["patch", "claim", ...Object.keys(READS)];

function options() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      streams: { type: "string", default: process.env.STREAMS ?? "34" },
      concurrency: { type: "string", default: process.env.CONC ?? "1" },
      warmup: { type: "string", default: process.env.WARM ?? "0" },
      "node-args": { type: "string", default: process.env.NODEARGS ?? "" },
    },
  });
  const [mode = "patch", seconds = "5"] = positionals;
  if (!MODES.includes(mode)) throw new Error(`mode must be one of ${MODES.join(", ")}`);
  const number = (name: string, value: string, min: number) => {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < min)
      throw new Error(`${name} must be a number >= ${min}`);
    return parsed;
  };
  return {
    mode,
    seconds: number("seconds", seconds, 0.1),
    streams: number("--streams", values.streams, 0),
    concurrency: number("--concurrency", values.concurrency, 1),
    warmupSeconds: number("--warmup", values.warmup, 0),
    nodeArgs: values["node-args"].split(" ").filter((word) => word !== ""),
  };
}

/** The cached seed, imported by this build on first use; its name changes with the schema. */
async function seedFile(): Promise<string> {
  const file = join(
    tmpdir(),
    `tack-live-profile-${TICKETS}t-${COMMENTS}c-schema${migrations.length}.sqlite`,
  );
  if (existsSync(file)) return file;
  console.log(`seeding ${file} (once: ${TICKETS} tickets, ${COMMENTS} comments)`);
  // Seeded under another name and renamed when complete, so an interrupted seed is not reused.
  const partial = `${file}.partial-${process.pid}`;
  try {
    await seedDatabase(partial, issueBoardDocument({ tickets: TICKETS, comments: COMMENTS }));
    for (const suffix of SQLITE_FILES.slice(1)) {
      if (existsSync(partial + suffix)) renameSync(partial + suffix, file + suffix);
    }
    renameSync(partial, file);
  } finally {
    for (const suffix of SQLITE_FILES) rmSync(partial + suffix, { force: true });
  }
  return file;
}

/** CPU ms of each thread of a process (key `name#tid`), from /proc/<pid>/task/<tid>/stat. */
function threadCpu(pid: number): Map<string, number> {
  const byThread = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      // utime and stime, fields 14 and 15, in USER_HZ (100 per second) ticks.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      byThread.set(`${name}#${tid}`, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byThread;
}

let edits = 0;
/** Renames a ticket (a new title each time, so every PATCH is a real change). */
function patchTitle(client: Client, id: number) {
  return client.call("PATCH", `/api/tickets/${id}`, { title: `t ${edits++} ${RARE_WORD}` });
}

/** Runs the mode's loop until `until` (performance.now()); resolves with the operations done. */
async function runLoop(
  client: Client,
  mode: string,
  until: number,
  concurrency: number,
  readTicket: number,
): Promise<number> {
  let done = 0;
  if (mode === "patch") {
    const lane = await client.call("GET", `${LIST}?lane_id=2`);
    const ids: number[] = lane.body.tickets.slice(0, concurrency).map((t: any) => t.id);
    await Promise.all(
      ids.map(async (id) => {
        while (performance.now() < until) {
          await patchTitle(client, id);
          done++;
        }
      }),
    );
  } else if (mode === "claim") {
    const callers = Array.from({ length: CLAIM_CALLERS }, async (_, caller) => {
      while (performance.now() < until) {
        const body = { actor: `c${caller}`, leaseSeconds: 3600 };
        const answer = await client.call("POST", "/api/boards/1/claim-next", body);
        if (answer.status === 204) break;
        done++;
      }
    });
    await Promise.all(callers);
  } else {
    while (performance.now() < until) {
      await patchTitle(client, readTicket);
      await client.call("GET", READS[mode] as string, undefined, false);
      done++;
    }
  }
  return done;
}

async function main(): Promise<void> {
  const flags = options();
  const seed = await seedFile();
  const folder = mkdtempSync(join(tmpdir(), "tack-live-profile-"));
  // The copy is ~86 MB: gone after the run, and on Ctrl-C too (the server gets the SIGINT).
  process.once("SIGINT", () => {
    rmSync(folder, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    const dbFile = join(folder, "tack.sqlite");
    for (const suffix of SQLITE_FILES) {
      if (existsSync(seed + suffix)) copyFileSync(seed + suffix, dbFile + suffix);
    }
    const tack = await startTack([], undefined, { dbFile, nodeArgs: flags.nodeArgs });
    try {
      await measure(tack, flags);
    } finally {
      await tack.stop();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Opens the streams, warms up, runs the mode's loop and prints the server's CPU per operation. */
async function measure(tack: TackProcess, flags: ReturnType<typeof options>): Promise<void> {
  const client = new Client(tack.url, 64);
  const streams: BoardStream[] = [];
  try {
    for (let i = 0; i < flags.streams; i++) {
      streams.push(await openBoardStream(tack.url, 1, () => {}));
    }
    // An open ticket with the rare word: the one the read modes (and the warm-up) rename.
    const pick = await client.call("GET", `${LIST}?ready=true&q=${RARE_WORD}`);
    const readTicket: number = pick.body.tickets[0].id;
    const warm = performance.now() + flags.warmupSeconds * 1000;
    while (performance.now() < warm) await patchTitle(client, readTicket);
    const threadsBefore = threadCpu(tack.pid);
    const cpuBefore = cpuMs(tack.pid) as number;
    const until = performance.now() + flags.seconds * 1000;
    const ops = Math.max(
      await runLoop(client, flags.mode, until, flags.concurrency, readTicket),
      1,
    );
    const cpu = (cpuMs(tack.pid) as number) - cpuBefore;
    const perThread = [...threadCpu(tack.pid)]
      .map(([thread, ms]) => [thread, ms - (threadsBefore.get(thread) ?? 0)] as const)
      .filter(([, ms]) => ms > 0);
    const mainThread = perThread.find(([thread]) => thread.endsWith(`#${tack.pid}`))?.[1] ?? 0;
    const perOp = (ms: number) => (ms / ops).toFixed(3);
    const what = flags.mode in READS ? "PATCH + read pairs" : `${flags.mode} requests`;
    console.log(
      `${flags.mode}: ${ops} ${what} in ${flags.seconds} s, ${flags.streams} streams; server CPU ${perOp(cpu)} ms/op (main thread ${perOp(mainThread)}, other threads ${perOp(cpu - mainThread)})`,
    );
    console.log(`per thread, ms/op: ${perThread.map(([t, ms]) => `${t}=${perOp(ms)}`).join(" ")}`);
  } finally {
    for (const stream of streams) stream.close();
    client.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    `bench live: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
