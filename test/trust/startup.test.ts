import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { startCli } from "../helpers/cli.js";

/**
 * Nothing blocks the event loop at start-up (docs/performance.md): tack once warmed its Markdown
 * render threads half a second after its start line, rendering 2,000 sample bodies on every
 * thread, main thread included, and every request of the next two seconds waited behind it.
 * Render threads now start when an import needs them. A preloaded hook reports each worker
 * thread the process starts, so this needs no timing assertion.
 */

const folder = mkdtempSync(join(tmpdir(), "tack-startup-"));
after(() => rmSync(folder, { recursive: true, force: true }));
const HOOK = new URL("../fixtures/report-worker-starts.mjs", import.meta.url).href;
const WORKER_STARTED = /test-hook: worker thread started/;
const YOUNG_HOOK = new URL("../fixtures/report-young-generation.mjs", import.meta.url).href;
const YOUNG_GENERATION = /test-hook: young generation (-?\d+) bytes/;

test("tack serve starts no render thread at boot, only when an import needs one, and gives back start-up's young generation", async () => {
  const tack = await startCli(["--port", "0", "--db", join(folder, "tack.sqlite")], {}, [
    "--import",
    HOOK,
    "--import",
    YOUNG_HOOK,
  ]);
  try {
    // Start-up gives back the young generation it grew (startup-memory.ts): without that, V8
    // keeps it at 32 MiB committed (~16 MiB resident) until its memory reducer runs, ~15 s on.
    for (let i = 0; i < 100 && !YOUNG_GENERATION.test(tack.output.stderr); i++) await sleep(20);
    const young = Number(YOUNG_GENERATION.exec(tack.output.stderr)?.[1]);
    assert.ok(young > 0 && young <= 8 * 1024 * 1024, `young generation at start: ${young} bytes`);
    for (let i = 0; i < 10; i++) {
      const response = await fetch(`${tack.url}/api/boards`);
      assert.equal(response.status, 200);
    }
    // Past the moment the old warm-up began (500 ms after the start line), with room to spare.
    await sleep(1500);
    assert.doesNotMatch(tack.output.stderr, WORKER_STARTED, "no thread before any work");

    // An import with enough distinct bodies to be rendered in parallel: now the thread starts,
    // which also proves the hook sees the threads tack starts.
    const tickets = Array.from({ length: 1000 }, (_, index) => ({
      id: index + 1,
      laneId: 1,
      title: `ticket ${index}`,
      bodyMarkdown: `**body** ${index}`,
    }));
    const imported = await fetch(`${tack.url}/api/boards/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ board: { name: "big" }, lanes: [{ id: 1, name: "todo" }], tickets }),
    });
    assert.equal(imported.status, 201);
    assert.match(tack.output.stderr, WORKER_STARTED);
  } finally {
    await tack.stop();
  }
});
