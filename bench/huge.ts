/**
 * `npm run bench -- huge [--sizes 10000,20000,100000] [--rounds N]`: huge boards.
 * For each size, the board of bench/dataset.ts (issueBoardDocument, with 2.5 comments per ticket
 * on average: 202 MB of JSON at 100,000 tickets) is written to bench/results/ once, ticket by
 * ticket, then a fresh server:
 *
 * - imports it, the body streamed from the file (`tack board import FILE` does the same):
 *   wall time to the answer's last byte, server CPU, the longest a `GET /api/health` sent every
 *   50 ms meanwhile waited (how long the import's one write transaction held every other
 *   request) and how many of those waits passed 1 s (any other stretch that held the server),
 *   peak RSS (VmHWM);
 * - waits until the search index has caught up (no ticket pending, read from the database)
 *   and the server is idle, then reads idle RSS;
 * - the board's first full list (the server builds its kept list: every ticket's summary), then
 *   `--rounds` times (default 3): a title PATCH, then the board's full list; a PATCH, then a
 *   search (`q=` a word in ~3% of the tickets): the list's and the search's server CPU;
 * - exports the board after a write: size, wall time, server CPU, the RSS just before it and the
 *   export's own peak RSS (VmHWM set back before it), and the peak RSS of everything before it.
 *
 * Medians over the rounds; one server per size, sizes one after another.
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { median } from "./builds.js";
import { issueBoardHead, issueBoardTickets, RARE_WORD } from "./dataset.js";
import { cpuMs, startTack, waitForIdle } from "./lib.js";
import { printTable } from "./report.js";

const RESULTS = fileURLToPath(new URL("./results/", import.meta.url));

function options() {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "10000,20000,100000" },
      rounds: { type: "string", default: "3" },
    },
  });
  const sizes = values.sizes.split(",").map(Number);
  const rounds = Number(values.rounds);
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) {
    throw new Error("--sizes: ticket counts separated by commas");
  }
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be an integer >= 1");
  return { sizes, rounds };
}

/** The document of `tickets` tickets, written once (ticket by ticket) and kept for later runs. */
async function documentFile(tickets: number): Promise<string> {
  mkdirSync(RESULTS, { recursive: true });
  const file = join(RESULTS, `huge-${tickets}.json`);
  if (existsSync(file)) return file;
  const shape = { tickets, comments: Math.round(tickets * 2.5) };
  const partial = `${file}.partial`;
  const out = createWriteStream(partial);
  const write = (text: string) =>
    out.write(text)
      ? Promise.resolve()
      : new Promise<void>((resolve) => out.once("drain", () => resolve()));
  const head = JSON.stringify(issueBoardHead(shape));
  await write(`${head.slice(0, -1)},"tickets":[`);
  let first = true;
  for (const ticket of issueBoardTickets(shape)) {
    await write((first ? "" : ",") + JSON.stringify(ticket));
    first = false;
  }
  await write("]}");
  await new Promise<void>((resolve) => out.end(() => resolve()));
  renameSync(partial, file);
  return file;
}

/** POSTs the file as the import's body; resolves with the status and bytes of the answer. */
function importFile(url: string, file: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const sending = request(`${url}/api/boards/import`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": statSync(file).size },
    });
    sending.on("response", (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on("error", reject);
    });
    sending.on("error", reject);
    createReadStream(file).pipe(sending);
  });
}

/**
 * Resolves once the server's search index has caught up with the import (no ticket pending),
 * read from the database on a read-only connection of its own. Waiting for an idle server alone
 * was not enough: the indexer can start a second or two after the import's answer ends, so the
 * reads measured next raced with it (a list or a search after a write then counted indexing
 * steps of ~1 s of CPU a second).
 */
async function searchIndexed(dbFile: string, maxMs = 900_000): Promise<void> {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const pending = db.prepare("SELECT EXISTS (SELECT 1 FROM ticket_search_pending)").pluck();
    const deadline = performance.now() + maxMs;
    while (pending.get() === 1) {
      if (performance.now() > deadline) throw new Error("the search index did not catch up");
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    db.close();
  }
}

/** A wait this long counts as the server held (the probe's `held`). */
const HELD_MS = 1000;

/**
 * Sends GET /api/health every 50 ms until stopped; the longest wait for an answer (ms), and how
 * many waits lasted HELD_MS or more.
 */
function probeHealth(url: string): { stop(): Promise<{ longest: number; held: number }> } {
  let longest = 0;
  let held = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const began = performance.now();
      // A kept-alive connection the server closed meanwhile is not a wait: try again.
      const answered = await fetch(`${url}/api/health`).then(
        (answer) => answer.arrayBuffer().then(() => true),
        () => false,
      );
      const waited = performance.now() - began;
      if (answered) longest = Math.max(longest, waited);
      if (answered && waited >= HELD_MS) held += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { longest, held };
    },
  };
}

async function call(url: string, method: string, path: string, body?: unknown) {
  const answer = await fetch(url + path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = (await answer.arrayBuffer()).byteLength;
  if (answer.status >= 400) throw new Error(`${method} ${path}: ${answer.status}`);
  return bytes;
}

/** Server CPU and wall time of one request. */
async function measured(pid: number, url: string, path: string) {
  const cpu = cpuMs(pid) ?? Number.NaN;
  const began = performance.now();
  const bytes = await call(url, "GET", path);
  return { cpuMs: (cpuMs(pid) ?? Number.NaN) - cpu, ms: performance.now() - began, bytes };
}

const MiB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function oneSize(tickets: number, rounds: number): Promise<string[]> {
  const file = await documentFile(tickets);
  const tack = await startTack();
  try {
    const startRss = tack.memory()?.rssMiB ?? Number.NaN;
    const cpuBefore = cpuMs(tack.pid) ?? Number.NaN;
    const probe = probeHealth(tack.url);
    const began = performance.now();
    const imported = await importFile(tack.url, file);
    const importMs = performance.now() - began;
    const blocked = await probe.stop();
    if (imported.status !== 201) throw new Error(`import of ${tickets}: ${imported.status}`);
    const importCpu = (cpuMs(tack.pid) ?? Number.NaN) - cpuBefore;
    const importPeak = tack.memory()?.peakRssMiB ?? Number.NaN;
    await searchIndexed(tack.dbFile);
    await waitForIdle(tack.pid, 600_000);
    const idleRss = tack.memory()?.rssMiB ?? Number.NaN;

    // A fresh database: the board is 1, its tickets 1..n.
    const list = "/api/boards/1/tickets";
    // The server's first list of the board builds its kept list (every ticket's summary
    // serialized, src/kept-answers): measured apart, the rounds then read lists after writes.
    const firstList = (await measured(tack.pid, tack.url, list)).cpuMs;
    const lists: number[] = [];
    const searches: number[] = [];
    let listBytes = 0;
    for (let round = 0; round < rounds; round++) {
      const id = 1 + ((round * 7919) % tickets);
      await call(tack.url, "PATCH", `/api/tickets/${id}`, { title: `list round ${round}` });
      const full = await measured(tack.pid, tack.url, list);
      lists.push(full.cpuMs);
      listBytes = full.bytes;
      await call(tack.url, "PATCH", `/api/tickets/${id}`, { title: `search round ${round}` });
      searches.push((await measured(tack.pid, tack.url, `${list}?q=${RARE_WORD}`)).cpuMs);
    }
    console.log(
      `${tickets} tickets: first list ${firstList} ms CPU; after a write, list ${lists.join(", ")}` +
        ` and search ${searches.join(", ")} ms CPU`,
    );
    await call(tack.url, "PATCH", "/api/tickets/1", { title: "before the export" });
    const endPeak = tack.memory()?.peakRssMiB ?? Number.NaN;
    const beforeExport = tack.memory()?.rssMiB ?? Number.NaN;
    // The export's own peak: VmHWM set back to the current RSS first (Linux, clear_refs 5).
    writeFileSync(`/proc/${tack.pid}/clear_refs`, "5");
    const exported = await measured(tack.pid, tack.url, "/api/boards/1/export");
    const exportPeak = tack.memory()?.peakRssMiB ?? Number.NaN;
    return [
      tickets.toLocaleString("en-US"),
      MiB(statSync(file).size),
      (importMs / 1000).toFixed(1),
      (importCpu / 1000).toFixed(1),
      `${blocked.longest.toFixed(0)} / ${blocked.held}`,
      MiB(imported.bytes),
      `${startRss.toFixed(0)} / ${importPeak.toFixed(0)} / ${idleRss.toFixed(0)}`,
      firstList.toFixed(0),
      `${median(lists).toFixed(0)} (${MiB(listBytes)} MiB)`,
      median(searches).toFixed(1),
      MiB(exported.bytes),
      (exported.ms / 1000).toFixed(1),
      (exported.cpuMs / 1000).toFixed(1),
      `${beforeExport.toFixed(0)} / ${exportPeak.toFixed(0)} (+${(exportPeak - beforeExport).toFixed(0)})`,
      endPeak.toFixed(0),
    ];
  } finally {
    await tack.stop();
  }
}

async function main(): Promise<void> {
  const { sizes, rounds } = options();
  const rows: string[][] = [];
  for (const size of sizes) {
    rows.push(await oneSize(size, rounds));
    console.log(`${size} tickets done`);
  }
  console.log(`\n## The huge board: one server per size, medians of ${rounds} round(s)`);
  printTable(
    [
      "tickets",
      "document MiB",
      "import s",
      "import CPU s",
      `longest health wait ms / waits >= ${HELD_MS} ms`,
      "answer MiB",
      "RSS MiB start / import peak / idle",
      "first list CPU ms",
      "list after write CPU ms",
      "search after write CPU ms",
      "export MiB",
      "export s",
      "export CPU s",
      "RSS MiB before the export / its peak (+ added)",
      "peak RSS MiB before the export",
    ],
    rows,
  );
}

main().catch((error: unknown) => {
  console.error(`bench huge: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
