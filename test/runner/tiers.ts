import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// Which test files `npm test` and `npm run test:quick` run, and how (test/README.md, "Tiers").
// Files of the in-process folders run several to a process (test/runner/worker.ts imports each
// as a suite of its own); the others, and the files named in OWN_PROCESS, one to a process.

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Folders whose tests start no process but the test's own (servers run in it). */
export const IN_PROCESS_FOLDERS = [
  "domain",
  "kept-answers",
  "storage",
  "http",
  "json",
  "providers",
  "bench",
  "api",
];

/**
 * Folders whose files each run in a process of their own: they start `tack` processes, MCP
 * servers, Chromium, or (trust/) kill, fill and damage what a server runs on, and runner/ starts
 * the runner itself.
 */
export const OWN_PROCESS_FOLDERS = ["cli", "mcp", "ui", "trust", "runner"];

/**
 * Files of the in-process folders that still get a process of their own, for the reason given:
 * what they change or measure is the whole process's.
 */
export const OWN_PROCESS: ReadonlyMap<string, string> = new Map([]);

/**
 * Files of the in-process folders that run in `npm test` only: each costs about twice the CPU
 * time of a typical file of its folder or more (test/README.md, "Tiers"), for the reason given.
 */
export const FULL_ONLY: ReadonlyMap<string, string> = new Map([
  ["api/live-lists-random-writes.test.ts", "thousands of requests comparing two servers' answers"],
  ["api/openapi-client.test.ts", "runs tsc over a generated client"],
  ["api/board-import-large.test.ts", "5,000 tickets checked, 237 imported and read back"],
  ["api/export-stream.test.ts", "a 33 MiB board exported while a client holds the answer"],
  ["api/ids-never-reused.test.ts", "two servers for each kind of resource, one a restart"],
  ["api/remote-credentials.test.ts", "six servers and fake forges"],
  ["api/access-tokens.test.ts", "six servers, one for each test"],
  ["api/tickets-bulk-move.test.ts", "19 tests of bulk writes and their stream messages"],
  ["api/limits.test.ts", "each limit also through the CLI's processes and the MCP tools"],
  ["api/tickets-in-the-loop.test.ts", "two servers, one answering from the database anew"],
  [
    "storage/search-index-random.test.ts",
    "hundreds of random searches against a scan, at each stage",
  ],
  ["storage/flow-histories.test.ts", "a randomized history compared with a rebuild"],
  ["storage/wal-checkpoints.test.ts", "logs grown past 16 and 32 MiB"],
  ["storage/migrations.test.ts", "databases of earlier schemas brought over"],
  ["domain/markdown-pool.test.ts", "worker threads and a process, each loading the source anew"],
  ["domain/markdown-real-documents.test.ts", "400 documents, each also run through cmark-gfm"],
  ["bench/swarm.test.ts", "the swarm benchmark's agents, for seconds"],
]);

export interface TestPlan {
  /** Files run several to a process. */
  grouped: string[];
  /** Files run one to a process. */
  alone: string[];
}

/** Every `*.test.ts` under test/, as paths from the repository's root, sorted. */
export function allTestFiles(): string[] {
  return readdirSync(join(ROOT, "test"), { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".test.ts"))
    .map((path) => `test/${path.split("\\").join("/")}`)
    .sort();
}

/**
 * The files of a tier and how each runs. Throws when a list names a file that does not exist or
 * a test file is in a folder no list knows: a file must never silently drop out of `npm test`.
 */
export function planTier(tier: "full" | "quick"): TestPlan {
  for (const [name, list] of [
    ["FULL_ONLY", FULL_ONLY],
    ["OWN_PROCESS", OWN_PROCESS],
  ] as const) {
    for (const file of list.keys()) {
      if (!existsSync(join(ROOT, "test", file))) {
        throw new Error(`test/runner/tiers.ts: test/${file} does not exist; update ${name}`);
      }
    }
  }
  const plan: TestPlan = { grouped: [], alone: [] };
  for (const path of allTestFiles()) {
    const inTest = path.slice("test/".length);
    const folder = inTest.split("/")[0] ?? "";
    if (IN_PROCESS_FOLDERS.includes(folder)) {
      if (tier === "quick" && FULL_ONLY.has(inTest)) continue;
      (OWN_PROCESS.has(inTest) ? plan.alone : plan.grouped).push(path);
    } else if (OWN_PROCESS_FOLDERS.includes(folder)) {
      if (tier === "full") plan.alone.push(path);
    } else {
      throw new Error(
        `${path} is in no tier: add its folder to IN_PROCESS_FOLDERS or OWN_PROCESS_FOLDERS ` +
          "of test/runner/tiers.ts",
      );
    }
  }
  return plan;
}
