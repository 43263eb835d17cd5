/**
 * `npm run bench -- idle`: the idle-board measurements, each with its target and PASS/FAIL. Seeds a
 * 5,000-ticket board (12,000 comments, ~1 KB Markdown bodies: bench/dataset.ts) through the
 * import endpoint of a fresh server, runs every scenario of bench/scenarios.ts against it (10
 * requests in flight, BENCH_DURATION_MS each, default 3 s), fans one change out to 100 board
 * streams, then imports 20,000 tickets + 50,000 comments into another fresh server. Prints
 * req/s, p50/p99, server CPU per request (all threads, user + system, from /proc) and RSS;
 * writes the raw figures to bench/results.json (not committed: a run's figures belong in its note).
 */
import { writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { issueBoardDocument } from "./dataset.js";
import { Client, cpuMs, startTack, type TackProcess, waitForIdle } from "./lib.js";
import { type LoadResult, percentile, runLoad } from "./load-loop.js";
import { printTable, scenarioDurationMs, scenarioWarmupMs } from "./report.js";
import { type BoardFixture, loadScenarios } from "./scenarios.js";

const RESULTS = fileURLToPath(new URL("./results.json", import.meta.url));
const STREAM_CLIENTS = 100;
const STREAM_WRITES = 60;

interface Row {
  scenario: string;
  requestsPerSecond: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  cpuMsPerRequest: number | null;
  rssMiB: number | null;
  /** What is compared with the target, its unit, and the target. */
  measure: "cpu ms/req" | "wall ms" | "RSS MiB" | null;
  value: number | null;
  target: number | null;
  raw?: unknown;
}

const verdict = (row: Row) =>
  row.target === null || row.value === null ? "-" : row.value <= row.target ? "PASS" : "FAIL";

async function timedImport(tack: TackProcess, document: unknown, label: string, target: number) {
  const client = new Client(tack.url, 1);
  const before = cpuMs(tack.pid);
  const result = await client.okResult(
    { method: "POST", path: "/api/boards/import", body: document },
    201,
  );
  // The import's wall time ends with the answer's last byte: what the client then spends
  // parsing 32 MB of JSON (on the same two cores) is recorded apart, as clientParseMs.
  const wallMs = result.lastByteAt - result.sentAt;
  const clientParseMs = performance.now() - result.lastByteAt;
  const cpu = (cpuMs(tack.pid) ?? 0) - (before ?? 0);
  client.close();
  const memory = tack.memory();
  const row: Row = {
    scenario: label,
    requestsPerSecond: null,
    p50Ms: wallMs,
    p99Ms: null,
    cpuMsPerRequest: cpu,
    rssMiB: memory?.rssMiB ?? null,
    measure: "wall ms",
    value: wallMs,
    target,
    raw: {
      wallMs,
      toFirstByteMs: result.firstByteAt - result.sentAt,
      clientParseMs,
      serverCpuMs: cpu,
      memory,
    },
  };
  return { row, body: result.body };
}

/** A row that measures resident memory only. */
function memoryRow(scenario: string, rssMiB: number | null, target: number): Row {
  return {
    scenario,
    requestsPerSecond: null,
    p50Ms: null,
    p99Ms: null,
    cpuMsPerRequest: null,
    rssMiB,
    measure: "RSS MiB",
    value: rssMiB,
    target,
  };
}

function loadRow(result: LoadResult, target: number | null): Row {
  return {
    scenario: result.name,
    requestsPerSecond: result.requestsPerSecond,
    p50Ms: result.latencyMs.p50,
    p99Ms: result.latencyMs.p99,
    cpuMsPerRequest: result.serverCpuMsPerRequest,
    rssMiB: result.maxRssMiB,
    measure: target === null ? null : "cpu ms/req",
    value: result.serverCpuMsPerRequest,
    target,
    raw: result,
  };
}

/** Opens one board stream; resolves once `: connected` arrived. Calls onMessage per data line. */
function openStream(url: string, boardId: number, onMessage: () => void): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/api/boards/${boardId}/events`, (response) => {
      // A refused stream (429 past the server's stream limits) fails the bench instead of
      // leaving it waiting for a connection that never comes.
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`board stream answered ${response.statusCode}`));
        return;
      }
      response.setEncoding("utf8");
      let connected = false;
      let buffer = "";
      response.on("data", (chunk: string) => {
        buffer += chunk;
        const lines = buffer.split("\n");
        buffer = lines.pop() ?? "";
        for (const line of lines) {
          if (!connected && line.startsWith(": connected")) {
            connected = true;
            resolve(response);
          }
          if (line.startsWith("data:")) onMessage();
        }
      });
      response.on("error", () => {});
    });
    req.on("error", reject);
    req.end();
  });
}

/** One PATCH at a time; per write, the time until all 100 streams have its message. */
async function streamFanOut(tack: TackProcess, board: BoardFixture): Promise<Row> {
  let received = 0;
  let waiting: { count: number; done: () => void } | null = null;
  const onMessage = () => {
    received++;
    if (waiting && received >= waiting.count) waiting.done();
  };
  const streams: IncomingMessage[] = [];
  for (let i = 0; i < STREAM_CLIENTS; i++) {
    streams.push(await openStream(tack.url, board.boardId, onMessage));
  }
  const client = new Client(tack.url, 1);
  const latencies: number[] = [];
  const before = cpuMs(tack.pid);
  const started = performance.now();
  for (let i = 0; i < STREAM_WRITES; i++) {
    const target = received + STREAM_CLIENTS;
    const sent = performance.now();
    // Bounded, so a lost message shows as a slow write instead of hanging the bench.
    const all = new Promise<void>((resolve) => {
      waiting = { count: target, done: resolve };
      setTimeout(resolve, 10_000).unref();
    });
    await client.ok({
      method: "PATCH",
      path: `/api/tickets/${board.ticketIds[i]}`,
      // A new title every time: a PATCH that changes nothing announces nothing.
      body: { title: `fan-out ${i} ${Date.now()}` },
    });
    await all;
    waiting = null;
    latencies.push(performance.now() - sent);
  }
  const duration = performance.now() - started;
  const cpu = ((cpuMs(tack.pid) ?? 0) - (before ?? 0)) / STREAM_WRITES;
  client.close();
  for (const stream of streams) stream.destroy();
  latencies.sort((a, b) => a - b);
  return {
    scenario: `SSE fan-out to ${STREAM_CLIENTS} (write → all received)`,
    requestsPerSecond: (STREAM_WRITES / duration) * 1000,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    cpuMsPerRequest: cpu,
    rssMiB: tack.memory()?.rssMiB ?? null,
    measure: null,
    value: null,
    target: null,
    raw: { latencies },
  };
}

async function main(): Promise<void> {
  const cpu = cpus();
  const machine = `node ${process.version}, ${cpu.length} x ${cpu[0]?.model.trim() ?? "cpu"}, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")}`;
  console.log(`tack bench idle — ${machine}, ${new Date().toISOString()}`);
  const rows: Row[] = [];

  // Idle memory of a fresh server, as a user starts it.
  const tack = await startTack([], undefined, { settleMs: 3000 });
  const idle = tack.memory();
  rows.push(memoryRow("RSS idle after start", idle?.rssMiB ?? null, 100));

  try {
    const small = issueBoardDocument({ tickets: 5000, comments: 12000 });
    console.log(
      `5,000 tickets + 12,000 comments: ${(JSON.stringify(small).length / 2 ** 20).toFixed(1)} MiB`,
    );
    const seeded = await timedImport(tack, small, "import 5,000 (first of the process)", 700);
    rows.push(seeded.row);
    const again = await timedImport(tack, small, "import 5,000 (second)", 700);
    rows.push(again.row);
    const detail = seeded.body;
    const board: BoardFixture = {
      boardId: detail.board.id,
      laneIds: detail.lanes.map((lane: { id: number }) => lane.id),
      ticketIds: detail.tickets.map((ticket: { id: number }) => ticket.id),
    };
    await waitForIdle(tack.pid);
    const client = new Client(tack.url, 16);
    for (const scenario of loadScenarios(board)) {
      const result = await runLoad(client, tack, scenario, {
        concurrency: scenario.concurrency ?? 10,
        durationMs: scenarioDurationMs(),
        warmupRequests: scenario.concurrency === 2 ? 4 : 50,
        warmupMs: scenarioWarmupMs(),
      });
      rows.push(loadRow(result, scenario.cpuTargetMs));
      console.log(`  ${scenario.name}: done`);
    }
    client.close();
    rows.push(await streamFanOut(tack, board));
    const peak = tack.memory()?.peakRssMiB ?? null;
    rows.push(memoryRow("RSS peak over the 5,000 run", peak, 300));
  } finally {
    await tack.stop();
  }

  const large = await startTack([], undefined, { settleMs: 1000 });
  try {
    const document = issueBoardDocument({ tickets: 20000, comments: 50000 });
    console.log(
      `20,000 tickets + 50,000 comments: ${(JSON.stringify(document).length / 2 ** 20).toFixed(1)} MiB`,
    );
    const imported = await timedImport(large, document, "import 20,000 + 50,000 comments", 3000);
    rows.push(imported.row);
    const peak = large.memory()?.peakRssMiB ?? null;
    rows.push(memoryRow("RSS peak, 20,000 import", peak, 600));
  } finally {
    await large.stop();
  }

  const number = (value: number | null, digits = 2) =>
    value === null ? "" : value.toFixed(digits);
  console.log("");
  printTable(
    ["scenario", "req/s", "p50 ms", "p99 ms", "CPU ms/req", "RSS MiB", "measured", "target", ""],
    rows.map((row) => [
      row.scenario,
      number(row.requestsPerSecond, 0),
      number(row.p50Ms, 1),
      number(row.p99Ms, 1),
      number(row.cpuMsPerRequest),
      number(row.rssMiB, 0),
      row.measure === null ? "" : `${number(row.value)} ${row.measure}`,
      row.target === null ? "" : `≤ ${row.target}`,
      verdict(row),
    ]),
  );
  writeFileSync(
    RESULTS,
    `${JSON.stringify(
      {
        machine,
        at: new Date().toISOString(),
        scenarioDurationMs: scenarioDurationMs(),
        rows: rows.map((row) => ({ ...row, verdict: verdict(row) })),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nraw figures: bench/results.json`);
}

main().catch((error: unknown) => {
  console.error(
    `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
