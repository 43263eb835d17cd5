/**
 * `npm run bench -- <name> [flags]`: the one entry point of bench/. With no name it lists the
 * benchmarks, one line each; bench/README.md says what each measures, its targets and when to
 * use it. The runner builds this tree first (`npm run build`: the benchmarks run the built
 * server, `dist/`, as users run it), then runs the benchmark's script in a child process with
 * the flags that follow its name. Its own flags, taken out before the benchmark sees the rest:
 *
 *   --no-build            dist/ is current: do not build first
 *   --profile             a V8 CPU profile (`node --cpu-prof`) of this tree's servers, or of
 *                         the benchmark's own process where it starts no server; the files go
 *                         to bench/profiles/ and their summaries are printed at the end
 *                         (bench/profile-summary.ts)
 *   --profile-filter RE   the summaries' inclusive list keeps only functions matching RE
 *
 * Comparing builds is one flag wherever it makes sense: `--compare <commit> [--rounds N]`
 * checks that commit out into a temporary git worktree, builds it (bench/builds.ts), and
 * alternates it with this tree round by round in one run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PROFILE_DIR_VARIABLE } from "./lib.js";
import { summarizeProfile } from "./profile-summary.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const PROFILES = fileURLToPath(new URL("./profiles/", import.meta.url));

interface Benchmark {
  name: string;
  /** The script next to this file. */
  file: string;
  /** One line for the listing. */
  summary: string;
  /** Whether it runs the built server (dist/): built first, profiled as a child process. */
  server: boolean;
  /** Whether it takes `--compare <commit> [--rounds N]`. */
  compares: boolean;
}

const BENCHMARKS: Benchmark[] = [
  {
    name: "idle",
    file: "suite.ts",
    summary:
      "the idle-board table: a 5,000-ticket board at rest: each request, imports, memory; targets",
    server: true,
    compares: false,
  },
  {
    name: "requests",
    file: "requests.ts",
    summary: "server CPU and req/s of chosen scenarios of the idle board (--scenarios a,b)",
    server: true,
    compares: true,
  },
  {
    name: "swarm",
    file: "swarm.ts",
    summary: "reads right after a write, claim-next, K agents and two UIs on a 10,000-ticket board",
    server: true,
    compares: true,
  },
  {
    name: "wal",
    file: "wal-size.ts",
    summary: "how large the write-ahead log grows during imports and steady writes, and after",
    server: true,
    compares: false,
  },
  {
    name: "live",
    file: "live-profile.ts",
    summary:
      "one operation in a loop on the swarm's board with streams open: server CPU per operation by thread",
    server: true,
    compares: false,
  },
  {
    name: "transfer",
    file: "transfer.ts",
    summary: "import of a rich and a modest 5,000-ticket board, and fresh exports: time and CPU",
    server: true,
    compares: true,
  },
  {
    name: "huge",
    file: "huge.ts",
    summary: "huge boards (10,000, 20,000, 100,000 tickets): import, memory, lists, search, export",
    server: true,
    compares: false,
  },
  {
    name: "startup",
    file: "startup.ts",
    summary: "the first ten requests after a server starts, and its idle RSS",
    server: true,
    compares: true,
  },
  {
    name: "floor",
    file: "write-floor.ts",
    summary: "create, rename, comment and detail on tack against a server doing only the operation",
    server: true,
    compares: false,
  },
  {
    name: "neighbours",
    file: "neighbours.ts",
    summary:
      "the change notes' cost per write in process: a ticket with 1,000 children, 3 neighbours, a comment",
    server: true,
    compares: true,
  },
  {
    name: "http-floor",
    file: "http-floor.ts",
    summary: "server CPU of the cheapest answers (health, a cached ticket, the board list)",
    server: true,
    compares: false,
  },
  {
    name: "commit-floor",
    file: "fsync-floor.ts",
    summary: "one SQLite commit on this disk with each synchronous setting, without tack",
    server: false,
    compares: false,
  },
  {
    name: "boards",
    file: "boards.ts",
    summary: "board, lane and tag endpoints under load: the reads of a UI refresh, small writes",
    server: true,
    compares: false,
  },
  {
    name: "insights",
    file: "insights.ts",
    summary: "GET insights on 20,000 tickets with 100,000 activity entries",
    server: true,
    compares: true,
  },
  {
    name: "insights-view",
    file: "insights-view.ts",
    summary: "the web UI's Insights view drawing that board in Chromium",
    server: true,
    compares: false,
  },
  {
    name: "first-card",
    file: "first-card.ts",
    summary:
      "the web UI opening a 10,000/20,000/100,000-ticket board in Chromium: first card, scrolled lane",
    server: true,
    compares: true,
  },
  {
    name: "mcp",
    file: "mcp-ready.ts",
    summary: "`ready` through /mcp against the API's ready list, on 1,000 tickets",
    server: true,
    compares: true,
  },
  {
    name: "ask-waiters",
    file: "ask-waiters.ts",
    summary:
      "server CPU and RSS while callers wait on asks ([callers] [seconds] [one]), and waking them",
    server: true,
    compares: false,
  },
  {
    name: "inbox-poll",
    file: "inbox-poll.ts",
    summary:
      "the web UI inbox's polling: GET /api/asks answered 200 against 304 ([asks] [requests])",
    server: true,
    compares: false,
  },
  {
    name: "markdown",
    file: "markdown-render.ts",
    summary: "CPU per ticket body rendered to sanitized HTML, in process",
    server: false,
    compares: true,
  },
  {
    name: "profile",
    file: "profile-summary.ts",
    summary: "summarize a .cpuprofile: <file> [regex] or <file> --tree <regex> [depth] [min ms]",
    server: false,
    compares: false,
  },
];

function list(): void {
  console.log("usage: npm run bench -- <name> [flags]   (bench/README.md)\n");
  const width = Math.max(...BENCHMARKS.map((benchmark) => benchmark.name.length));
  for (const benchmark of BENCHMARKS) {
    const compare = benchmark.compares ? " [--compare <commit>]" : "";
    console.log(`  ${benchmark.name.padEnd(width)}  ${benchmark.summary}${compare}`);
  }
  console.log("\nrunner flags: --no-build, --profile [--profile-filter <regex>] (bench/main.ts)");
}

/** Splits the runner's own flags from the benchmark's. */
function runnerFlags(args: string[]) {
  const rest: string[] = [];
  let build = true;
  let profile = false;
  let filter: RegExp | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--no-build") build = false;
    else if (arg === "--profile") profile = true;
    else if (arg === "--profile-filter") {
      const value = args[++i];
      if (value === undefined) throw new Error("--profile-filter needs a regular expression");
      filter = new RegExp(value);
    } else rest.push(arg);
  }
  return { rest, build, profile, filter };
}

function main(): number {
  const [name, ...args] = process.argv.slice(2);
  if (name === undefined || name === "--help" || name === "-h") {
    list();
    return 0;
  }
  const benchmark = BENCHMARKS.find((candidate) => candidate.name === name);
  if (!benchmark) {
    console.error(`bench: no benchmark named ${name}\n`);
    list();
    return 2;
  }
  const flags = runnerFlags(args);
  if (flags.build && benchmark.server) {
    const built = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
    if (built.status !== 0) return built.status ?? 1;
  }
  const env = { ...process.env };
  const nodeArgs = ["--import", "tsx"];
  const before = new Set<string>();
  if (flags.profile) {
    mkdirSync(PROFILES, { recursive: true });
    for (const file of readdirSync(PROFILES)) before.add(file);
    if (benchmark.server) env[PROFILE_DIR_VARIABLE] = PROFILES;
    else nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${PROFILES}`);
  }
  const run = spawnSync(
    process.execPath,
    [...nodeArgs, join("bench", benchmark.file), ...flags.rest],
    { cwd: ROOT, env, stdio: "inherit" },
  );
  if (flags.profile && existsSync(PROFILES)) {
    for (const file of readdirSync(PROFILES).filter((entry) => !before.has(entry))) {
      console.log(`\nprofile: bench/profiles/${file}`);
      console.log(summarizeProfile(join(PROFILES, file), flags.filter));
    }
  }
  if (run.error) throw run.error;
  return run.status ?? 1;
}

process.exitCode = main();
