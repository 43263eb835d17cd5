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
