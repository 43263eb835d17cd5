/**
 * `npm run bench -- wal [flags]`: how large the SQLite write-ahead log (`<db>-wal`) grows, sampled every
 * 100 ms (docs/operations.md "Disk space"):
 *   1. a board import of each size of --imports (default 10000,20000; bench/dataset.ts with 2.4
 *      comments per ticket) into a fresh server: the largest size while it runs, the size when
 *      it is answered and --settle seconds later;
 *   2. on the 10,000-ticket server (the first import): --seconds (default 40) of sequential
 *      title PATCHes, each followed by a read (the full list, one lane, a search, the ticket),
 *      with --streams (default 4) board streams attached: the largest size, the largest in the
 *      second half, and the size --settle seconds after the writes stop.
 * Flags: --imports 10000,20000, --seconds 40, --settle 15, --streams 4.
 */
import { statSync } from "node:fs";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { issueBoardDocument, RARE_WORD } from "./dataset.js";
import { Client, startTack, type TackProcess } from "./lib.js";
import { printTable } from "./report.js";
import { type BoardStream, openBoardStream } from "./swarm-http.js";

const MiB = 1024 * 1024;
const SAMPLE_MS = 100;

interface Sampler {
  /** Largest size seen since the last `reset()`. */
  max(): number;
  reset(): void;
  now(): number;
  stop(): void;
}

function sampleLog(dbFile: string): Sampler {
  const size = () => {
    try {
      return statSync(`${dbFile}-wal`).size;
    } catch {
      return 0;
    }
  };
  let max = size();
  const timer = setInterval(() => {
    max = Math.max(max, size());
  }, SAMPLE_MS);
  return {
    max: () => Math.max(max, size()),
    reset: () => {
      max = size();
    },
    now: size,
    stop: () => clearInterval(timer),
  };
}

const mib = (bytes: number) => (bytes / MiB).toFixed(1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function importPhase(
  tickets: number,
  settleMs: number,
  rows: (string | number)[][],
): Promise<{ tack: TackProcess; boardId: number; laneId: number; log: Sampler }> {
  const document = issueBoardDocument({ tickets, comments: Math.round(tickets * 2.4) });
  const tack = await startTack([], undefined, { settleMs: 500 });
  const log = sampleLog(tack.dbFile);
  const client = new Client(tack.url, 1);
  const started = performance.now();
  const detail = await client.ok(
    { method: "POST", path: "/api/boards/import", body: document },
    201,
  );
  const seconds = (performance.now() - started) / 1000;
  const atAnswer = log.now();
  const during = log.max();
  await sleep(settleMs);
  rows.push([
    `import ${tickets} tickets (${seconds.toFixed(1)} s)`,
    mib(during),
    mib(atAnswer),
    mib(log.now()),
    mib(statSync(tack.dbFile).size),
  ]);
  client.close();
  return { tack, boardId: detail.board.id, laneId: detail.lanes[0].id, log };
}

async function steadyPhase(
  server: Awaited<ReturnType<typeof importPhase>>,
  flags: { seconds: number; settleMs: number; streams: number },
  rows: (string | number)[][],
): Promise<void> {
  const { tack, boardId, laneId, log } = server;
  const client = new Client(tack.url, 4);
  const streams: BoardStream[] = [];
  try {
    for (let i = 0; i < flags.streams; i++) {
      streams.push(await openBoardStream(tack.url, boardId, () => {}));
    }
    const list = `/api/boards/${boardId}/tickets`;
    const listed = await client.ok({ path: `${list}?lane_id=${laneId}` });
    const ids = (listed.tickets as { id: number }[]).slice(0, 200).map((ticket) => ticket.id);
    const reads = [list, `${list}?lane_id=${laneId}`, `${list}?q=${RARE_WORD}`];
    log.reset();
    let secondHalf = 0;
    let writes = 0;
    const started = performance.now();
    const half = started + (flags.seconds * 1000) / 2;
    while (performance.now() - started < flags.seconds * 1000) {
      const id = ids[writes % ids.length] as number;
      const patched = await client.call(
        "PATCH",
        `/api/tickets/${id}`,
        { title: `Steady ${writes}` },
        false,
      );
      if (patched.status !== 200) throw new Error(`PATCH answered ${patched.status}`);
      writes++;
      const path = writes % 4 === 3 ? `/api/tickets/${id}` : (reads[writes % 4] as string);
      const read = await client.call("GET", path, undefined, false);
      if (read.status !== 200) throw new Error(`GET ${path} answered ${read.status}`);
      if (performance.now() > half) secondHalf = Math.max(secondHalf, log.now());
    }
    const during = log.max();
    const atStop = log.now();
    await sleep(flags.settleMs);
    rows.push([
      `${flags.seconds} s of PATCH + read, ${flags.streams} streams (${writes} writes)`,
      `${mib(during)} (2nd half ${mib(secondHalf)})`,
      mib(atStop),
      mib(log.now()),
      mib(statSync(tack.dbFile).size),
    ]);
  } finally {
    for (const stream of streams) stream.close();
    client.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      imports: { type: "string", default: "10000,20000" },
      seconds: { type: "string", default: "40" },
      settle: { type: "string", default: "15" },
      streams: { type: "string", default: "4" },
    },
  });
  const sizes = String(values.imports).split(",").map(Number);
  const flags = {
    seconds: Number(values.seconds),
    settleMs: Number(values.settle) * 1000,
    streams: Number(values.streams),
  };
  console.log(
    `tack bench wal — node ${process.version}, load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(" ")}, ${new Date().toISOString()}`,
  );
  const rows: (string | number)[][] = [];
  for (const [index, tickets] of sizes.entries()) {
    const server = await importPhase(tickets, flags.settleMs, rows);
    try {
      if (index === 0 && flags.seconds > 0) await steadyPhase(server, flags, rows);
    } finally {
      server.log.stop();
      await server.tack.stop();
    }
  }
  printTable(
    ["phase", "log max MiB", "at end MiB", `${flags.settleMs / 1000} s later MiB`, "database MiB"],
    rows,
  );
}

main().catch((error: unknown) => {
  console.error(
    `bench wal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
