import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// `npm run test:quick`: the test files of the in-process layers, minus the slow ones listed
// below, run as `npm test` runs every file (node --test, two at a time). `npm test` still runs
// every file; test/README.md says which folder holds what and which tier it is in. Arguments
// are passed to node before the files (e.g. `npm run test:quick -- --test-reporter=dot`).

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Folders whose tests start no process but the test's own (servers run in it). */
const QUICK_FOLDERS = [
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
 * Files of those folders that run in `npm test` only: each costs about twice the CPU time of a
 * typical file of its folder or more (test/README.md, "Tiers"), for the reason given.
 */
const FULL_ONLY: ReadonlyMap<string, string> = new Map([
  ["api/live-lists-random-writes.test.ts", "thousands of requests comparing two servers' answers"],
  ["api/openapi-client.test.ts", "runs tsc over a generated client"],
  ["api/board-import-large.test.ts", "5,000 tickets checked, 237 imported and read back"],
  ["api/export-stream.test.ts", "a 33 MiB board exported while a client holds the answer"],
  ["api/ids-never-reused.test.ts", "two servers for each kind of resource, one a restart"],
  ["api/trash.test.ts", "20 tests deleting, restoring and erasing every kind of object"],
  ["api/remote-credentials.test.ts", "six servers and fake forges"],
  ["api/access-tokens.test.ts", "six servers, one for each test"],
  ["api/tickets-bulk-move.test.ts", "19 tests of bulk writes and their stream messages"],
  ["api/limits.test.ts", "each limit also through the CLI's processes and the MCP tools"],
  ["api/tickets-in-the-loop.test.ts", "two servers, one answering from the database anew"],
  ["storage/search-index.test.ts", "hundreds of random searches against a scan, at each stage"],
  ["storage/flow-histories.test.ts", "a randomized history compared with a rebuild"],
  ["storage/wal-checkpoints.test.ts", "logs grown past 16 and 32 MiB"],
  ["storage/migrations.test.ts", "databases of earlier schemas brought over"],
  ["domain/markdown-pool.test.ts", "worker threads and a process, each loading the source anew"],
  ["domain/markdown-real-documents.test.ts", "400 documents, each also run through cmark-gfm"],
  ["bench/swarm.test.ts", "the swarm benchmark's agents, for seconds"],
]);

for (const file of FULL_ONLY.keys()) {
  // A renamed or removed file must leave this list too, or the tier would silently grow.
  if (!existsSync(join(ROOT, "test", file))) {
    console.error(`test/quick-tier.ts: test/${file} does not exist; update FULL_ONLY`);
    process.exit(2);
  }
}

const files = QUICK_FOLDERS.flatMap((folder) =>
  readdirSync(join(ROOT, "test", folder))
    .filter((name) => name.endsWith(".test.ts") && !FULL_ONLY.has(`${folder}/${name}`))
    .map((name) => `test/${folder}/${name}`),
).sort();

const run = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-concurrency=2", ...process.argv.slice(2), ...files],
  { cwd: ROOT, stdio: "inherit" },
);
process.exit(run.status ?? 1);
