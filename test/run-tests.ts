import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Counts, WorkerMessage } from "./runner/messages.js";
import { FULL_ONLY, planTier, ROOT } from "./runner/tiers.js";
import { WorkerProcess } from "./runner/worker-process.js";

// `npm test` and `npm run test:quick` (test/README.md, "Tiers"). Files of the in-process folders
// run several to a process, the others one to a process (test/runner/tiers.ts); `--jobs`
// processes run at a time, each taking the next file when it is done with one, longest (as
// last measured here) first. Each file's report is printed whole when it ends, under its name.
//
//   node --import tsx test/run-tests.ts [--quick] [--jobs=N] [--alone | --together]
//        [--shuffle[=SEED]] [--file-timeout=SECONDS] [--exit-grace=SECONDS]
//        [FILE ...] [node options, e.g. --test-name-pattern=...]
//
// FILE arguments run those files only, in the order given. `--alone` runs every file in a
// process of its own, as `node --test` would, `--together` every file in shared processes;
// `--shuffle` runs them in a random order (these find files that depend on what ran before them
// in the same process). A file still running after its timeout (default 600 s) is killed with its
// process, and named; so is a process still alive its exit grace (15 s) after its last file.

interface Options {
  tier: "full" | "quick";
  jobs: number;
  fileTimeoutMs: number;
  alone: boolean;
  together: boolean;
  exitGraceMs: number;
  shuffleSeed: number | undefined;
  files: string[];
  nodeArgs: string[];
}

const DURATIONS = join(ROOT, "node_modules", ".cache", "tack-tests", "durations.json");

function parseOptions(argv: string[]): Options {
  const options: Options = {
    tier: "full",
    jobs: Number(process.env.TACK_TEST_JOBS ?? 2),
    fileTimeoutMs: 600_000,
    alone: false,
    together: false,
    exitGraceMs: 15_000,
    shuffleSeed: undefined,
    files: [],
    nodeArgs: [],
  };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    const [name, value] = arg.split(/=(.*)/s) as [string, string | undefined];
    const number = () => {
      const text = value ?? argv[++index];
      const parsed = Number(text);
      if (!(parsed > 0)) throw new Error(`${name} needs a positive number, not ${text}`);
      return parsed;
    };
    if (name === "--quick") options.tier = "quick";
    else if (name === "--jobs") options.jobs = Math.floor(number());
    else if (name === "--file-timeout") options.fileTimeoutMs = number() * 1000;
    else if (name === "--exit-grace") options.exitGraceMs = number() * 1000;
    else if (name === "--alone") options.alone = true;
    else if (name === "--together") options.together = true;
    else if (name === "--shuffle") options.shuffleSeed = value ? Number(value) : Date.now() % 1e6;
    else if (name.startsWith("--test-reporter")) {
      throw new Error(`${name}: the runner prints each file's report itself (spec)`);
    } else if (name.startsWith("-")) options.nodeArgs.push(arg);
    else options.files.push(arg.replace(/^\.\//, ""));
  }
  return options;
}

/** Each file's last wall time here, in seconds: the longest go first. */
function readDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

function writeDurations(durations: Record<string, number>): void {
  try {
    mkdirSync(join(DURATIONS, ".."), { recursive: true });
    // Written aside and renamed: node_modules may be hard links to a shared copy.
    writeFileSync(`${DURATIONS}.${process.pid}`, JSON.stringify(durations, null, 1));
    renameSync(`${DURATIONS}.${process.pid}`, DURATIONS);
  } catch {
    // Only the order of a later run depends on it.
  }
}

/** A small seeded generator (mulberry32): a shuffled run can be repeated with its seed. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(next() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

interface FileOutcome {
  output: string;
  startedAt?: number;
  seconds?: number;
  counts?: Counts;
  ok?: boolean;
  failures: string[];
  /** Why the file has no complete report (its process was killed or ended early). */
  problem?: string;
}

const ZERO: Counts = { tests: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 };

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const plan = planTier(options.tier);
  const known = new Set([...plan.grouped, ...planTier("full").grouped]);
  let grouped = plan.grouped;
  let alone = plan.alone;
  if (options.files.length > 0) {
    grouped = options.files.filter((file) => known.has(file));
    alone = options.files.filter((file) => !known.has(file));
  }
  if (options.alone) {
    alone = [...alone, ...grouped];
    grouped = [];
  } else if (options.together) {
    grouped = [...alone, ...grouped];
    alone = [];
  }
  const runsAlone = new Set(alone);
  const durations = readDurations();
  // Longest first. A file never measured here goes before those measured, since it may be long:
  // first one that runs alone (a process of its own to start), then one the quick tier leaves out.
  const expected = (file: string) =>
    durations[file] ??
    1e9 + (runsAlone.has(file) ? 2 : FULL_ONLY.has(file.slice("test/".length)) ? 1 : 0);
  const byDuration = (a: string, b: string) => expected(b) - expected(a) || a.localeCompare(b);
  let queue =
    options.files.length > 0 ? [...options.files] : [...alone, ...grouped].sort(byDuration);
  if (options.shuffleSeed !== undefined) {
    queue = shuffled(queue, options.shuffleSeed);
    console.log(`ℹ shuffled with --shuffle=${options.shuffleSeed}`);
  }
  const outcomes = new Map<string, FileOutcome>();
  const outcome = (file: string) => {
    const found = outcomes.get(file) ?? { output: "", failures: [] };
    outcomes.set(file, found);
    return found;
  };
  const diagnostics: string[] = [];
  const processProblems: string[] = [];
  const workers = new Set<WorkerProcess>();
  const started = Date.now();

  const onMessage = (message: WorkerMessage) => {
    if (message.type === "start") outcome(message.file).startedAt = Date.now();
    else if (message.type === "output") outcome(message.file).output += message.text;
    else if (message.type === "result") {
      const found = outcome(message.file);
      Object.assign(found, message);
      found.seconds = (Date.now() - (found.startedAt ?? started)) / 1000;
      process.stdout.write(found.output);
    } else if (message.type === "diagnostic") {
      diagnostics.push(message.text);
      process.stdout.write(`✖ ${message.text}\n`);
    }
  };

  /**
   * Runs `file` in `worker`, or in a process of its own when `worker` is undefined. Resolves
   * true when `worker` is still there for the next file.
   */
  const runFile = async (file: string, worker: WorkerProcess | undefined) => {
    const running = worker ?? new WorkerProcess(options.nodeArgs, file, onMessage);
    workers.add(running);
    const timeout = setTimeout(() => {
      running.kill(`still running after ${options.fileTimeoutMs / 1000} s (--file-timeout)`);
    }, options.fileTimeoutMs);
    try {
      if (worker && (await worker.run(file))) return true;
      const ending = await running.ended;
      workers.delete(running);
      const found = outcome(file);
      if (found.counts === undefined) {
        // What the file's report holds so far says where it stopped.
        process.stdout.write(found.output);
        found.problem = ending.killedBecause
          ? `killed: ${ending.killedBecause}`
          : `its process ended (${ending.signal ?? `exit code ${ending.code}`}) before the file's report`;
      } else if (!worker && ending.code !== 0 && found.ok) {
        // node:test's exit code counts what the report may not show (an error after a test ended).
        found.problem = `its process ended with exit code ${ending.code}`;
      }
      if (found.problem) process.stdout.write(`✖ ${file}: ${found.problem}\n`);
      return false;
    } finally {
      clearTimeout(timeout);
    }
  };

  const slot = async () => {
    let grouped: WorkerProcess | undefined;
    let ran: string[] = [];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if (runsAlone.has(file)) {
        await runFile(file, undefined);
        continue;
      }
      grouped ??= new WorkerProcess(options.nodeArgs, undefined, onMessage);
      ran.push(file);
      if (!(await runFile(file, grouped))) {
        grouped = undefined;
        ran = [];
      }
    }
    if (grouped) await stopGrouped(grouped, ran);
  };

  const stopGrouped = async (worker: WorkerProcess, ran: string[]) => {
    worker.stop();
    const timer = setTimeout(
      () =>
        worker.kill(
          `still alive ${options.exitGraceMs / 1000} s after its last file, ` +
            `with open: ${worker.lingering.join(", ") || "(not known)"}`,
        ),
      options.exitGraceMs,
    );
    const ending = await worker.ended;
    clearTimeout(timer);
    workers.delete(worker);
    // A failed test ends its process with exit code 1: only an exit code nothing explains counts.
    const explained = ran.some((file) => !outcome(file).ok);
    if (ending.killedBecause || (ending.code !== 0 && !explained)) {
      const why = ending.killedBecause
        ? `killed: ${ending.killedBecause}`
        : `ended with exit code ${ending.code}`;
      processProblems.push(`the process that ran ${ran.join(", ")}: ${why}`);
    }
  };

  const stopAll = () => {
    for (const worker of workers) worker.kill("the runner was stopped");
    process.exit(130);
  };
  process.once("SIGINT", stopAll);
  process.once("SIGTERM", stopAll);

  const files = queue.length;
  await Promise.all(Array.from({ length: Math.max(1, options.jobs) }, slot));

  const totals = { ...ZERO };
  const failing: string[] = [];
  for (const [file, found] of outcomes) {
    for (const key of Object.keys(totals) as (keyof Counts)[]) {
      totals[key] += found.counts?.[key] ?? 0;
    }
    if (found.seconds !== undefined && found.counts) durations[file] = found.seconds;
    if (found.problem) failing.push(`${file}: ${found.problem}`);
    for (const name of found.failures) failing.push(`${file} > ${name}`);
  }
  writeDurations(durations);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `ℹ files ${files}, tests ${totals.tests}, pass ${totals.passed}, fail ${totals.failed}, ` +
      `cancelled ${totals.cancelled}, skipped ${totals.skipped}, todo ${totals.todo}, ${seconds} s`,
  );
  const problems = [...failing, ...processProblems, ...diagnostics];
  if (problems.length > 0) {
    console.log("\n✖ failing:");
    for (const problem of problems) console.log(`  ${problem}`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(2);
  },
);
