import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { CLI_ENTRY, cleanEnv, ROOT, waitForExit } from "../helpers/cli.js";
import { startTestServer } from "../helpers/server.js";
import { tack } from "./tack-process.js";

/**
 * `tack board import FILE` streams the file to the server as it reads it (src/cli/boards.ts):
 * a document far larger than the CLI's memory could hold twice imports while the process's
 * resident memory stays below the document's size; `-` streams stdin the same way.
 */
const api = await startTestServer();
const folder = mkdtempSync(join(tmpdir(), "tack-cli-import-"));
after(() => rmSync(folder, { recursive: true, force: true }));

/** 160 MiB of whitespace between the members of a small document: JSON, cheap to import. */
const PADDING = 160 * 1024 * 1024;
const file = join(folder, "padded.json");
const fd = openSync(file, "w");
writeSync(fd, '{"board":{"name":"Padded"},"lanes":[{"id":1,"name":"todo"}],');
const spaces = Buffer.alloc(1024 * 1024, " ");
for (let written = 0; written < PADDING; written += spaces.length) writeSync(fd, spaces);
writeSync(fd, '"tickets":[{"id":1,"laneId":1,"title":"one"},{"id":2,"laneId":1,"title":"two"}]}');
closeSync(fd);

/** Peak resident memory of a process in MiB, sampled until it exits. */
function peakRss(pid: number, exited: Promise<unknown>): Promise<number> {
  let peak = 0;
  let running = true;
  void exited.then(() => {
    running = false;
  });
  return new Promise((resolve) => {
    const sample = () => {
      try {
        const status = readFileSync(`/proc/${pid}/status`, "utf8");
        const hwm = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
        peak = Math.max(peak, hwm / 1024);
      } catch {
        running = false;
      }
      if (running) setTimeout(sample, 20);
      else resolve(peak);
    };
    sample();
  });
}

test("a file larger than the CLI's memory could hold twice imports, streamed", async () => {
  const child = spawn(process.execPath, [...CLI_ENTRY, "board", "import", file], {
    cwd: ROOT,
    env: cleanEnv({ TACK_URL: api.url }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exit = waitForExit(child);
  const peak = await peakRss(child.pid as number, exit);
  const result = await exit;
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^imported board \d+ "Padded": 1 lanes, 2 tickets\n$/);
  // Read whole, the file alone would be 160 MiB of Buffer and as much again as a string.
  assert.ok(peak < 150, `peak RSS ${peak.toFixed(0)} MiB`);
});

test("`tack board import -` streams stdin", async () => {
  const document = JSON.stringify({
    board: { name: "From stdin" },
    lanes: [{ id: 1, name: "todo" }],
    tickets: [{ id: 1, laneId: 1, title: "piped" }],
  });
  const imported = await tack(api.url, ["board", "import", "-", "--json"], { input: document });
  assert.equal(imported.code, 0, imported.stderr);
  const detail = JSON.parse(imported.stdout);
  assert.equal(detail.board.name, "From stdin");
  assert.deepEqual(
    detail.tickets.map((ticket: { title: string }) => ticket.title),
    ["piped"],
  );
});

/**
 * A board whose import answer (every ticket in full: its Markdown and its HTML) is ~150 MiB and
 * whose export is ~75 MiB: read whole, either would be that much text in the CLI and more.
 */
function largeAnswerDocument(): string {
  const words = "word ".repeat(37_000);
  const source = join(folder, "large-answer.json");
  const document = {
    board: { name: "Large answer" },
    lanes: [{ id: 1, name: "todo" }],
    tickets: Array.from({ length: 400 }, (_, i) => ({
      id: i + 1,
      laneId: 1,
      title: `Ticket ${i}`,
      bodyMarkdown: `${i} ${words}`,
    })),
  };
  const fd = openSync(source, "w");
  writeSync(fd, JSON.stringify(document));
  closeSync(fd);
  return source;
}

/** Runs `tack <args>` and samples its peak resident memory. */
async function tackWithPeak(args: string[]) {
  const child = spawn(process.execPath, [...CLI_ENTRY, ...args], {
    cwd: ROOT,
    env: cleanEnv({ TACK_URL: api.url }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exit = waitForExit(child);
  const peak = await peakRss(child.pid as number, exit);
  return { ...(await exit), peak };
}

test("a large import's answer and a large export are read as they arrive", async () => {
  const source = largeAnswerDocument();
  const imported = await tackWithPeak(["board", "import", source]);
  assert.equal(imported.code, 0, imported.stderr);
  const match = /^imported board (\d+) "Large answer": 1 lanes, 400 tickets\n$/.exec(
    imported.stdout,
  );
  assert.ok(match, imported.stdout);
  // The answer is ~150 MiB of JSON; read whole it was that as text and again parsed.
  assert.ok(imported.peak < 140, `import: peak RSS ${imported.peak.toFixed(0)} MiB`);

  const boardId = Number(match[1]);
  const target = join(folder, "large-export.json");
  const exported = await tackWithPeak(["board", "export", String(boardId), "-o", target]);
  assert.equal(exported.code, 0, exported.stderr);
  const fromApi = await api.get(`/api/boards/${boardId}/export`);
  const written = readFileSync(target, "utf8");
  assert.ok(written.length > 70 * 1024 * 1024, `${written.length} bytes`);
  assert.ok(written === fromApi.text, "the file holds the API's export exactly");
  assert.ok(exported.peak < 140, `export: peak RSS ${exported.peak.toFixed(0)} MiB`);
});

test("the import's summary and --json output are read from the answer's bytes", async () => {
  const document = {
    board: { name: 'Odd "name", {with} [brackets]: \\ ✓' },
    lanes: [
      { id: 1, name: "a,b" },
      { id: 2, name: '"}' },
    ],
    tags: [{ id: 1, name: "x:y", color: "#f00" }],
    tickets: [
      { id: 1, laneId: 1, title: 'one, "two"', bodyMarkdown: "[a, b] {c: d}" },
      { id: 2, laneId: 2, title: "]" },
      { id: 3, laneId: 2, title: "three" },
    ],
  };
  const human = await tack(api.url, ["board", "import", "-"], {
    input: JSON.stringify(document),
  });
  assert.equal(human.code, 0, human.stderr);
  assert.match(
    human.stdout,
    /^imported board \d+ "Odd \\?"name\\?", \{with\} \[brackets\]: \\+ ✓": 2 lanes, 3 tickets\n$/,
  );
  const quiet = await tack(api.url, ["board", "import", "-", "-q"], {
    input: JSON.stringify({ ...document, tickets: [] }),
  });
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.match(quiet.stdout, /^\d+\n$/);
  const json = await tack(api.url, ["board", "import", "-", "--json"], {
    input: JSON.stringify(document),
  });
  assert.equal(json.code, 0, json.stderr);
  const detail = JSON.parse(json.stdout);
  const read = await api.get(`/api/boards/${detail.board.id}`);
  assert.deepEqual(detail.board, read.body.board);
  assert.deepEqual(
    detail.tickets.map((ticket: { title: string }) => ticket.title),
    ['one, "two"', "]", "three"],
  );
  const empty = await tack(api.url, ["board", "import", "-"], {
    input: JSON.stringify({ ...document, tickets: [] }),
  });
  assert.match(empty.stdout, /: 2 lanes, 0 tickets\n$/);
});
