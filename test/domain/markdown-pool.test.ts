import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, test } from "node:test";
import { promisify } from "node:util";
import { renderMarkdownMany } from "../../src/domain/markdown.js";
import { MarkdownRenderPool } from "../../src/domain/markdown-pool.js";

// A board import renders its bodies on the main thread and worker threads at once
// (src/domain/markdown-pool.ts). Whatever thread renders a body, the result must be what the
// main thread alone would give, in the caller's order, repeats and empty bodies included.

/** Distinct bodies using every construct the pipeline handles, some repeated, some empty. */
function bodies(count: number): string[] {
  const list: string[] = [];
  for (let index = 0; index < count; index++) {
    list.push(
      `## Item ${index}\n\nSee https://example.com/${index} and <b>raw</b> [x](javascript:alert(${index}))\n\n- [x] done ${index}\n\n| a |\n|--:|\n| ${index} |`,
    );
    if (index % 7 === 0) list.push(""); // empty bodies stay empty
    if (index % 5 === 0) list.push(`## Item ${index - 1}`); // a short one, often repeated
  }
  return list;
}

const pools: MarkdownRenderPool[] = [];
function pool(options: ConstructorParameters<typeof MarkdownRenderPool>[0]): MarkdownRenderPool {
  const made = new MarkdownRenderPool(options);
  pools.push(made);
  return made;
}
after(() => Promise.all(pools.map((made) => made.close())));

test("a large set is shared with workers and renders exactly as the main thread would", async () => {
  const sources = bodies(3000);
  const expected = renderMarkdownMany(sources);
  const shared = pool({ workerCount: 2 });
  // The main thread never waits for a worker, and workers start in the background (slowly from
  // TypeScript source): render until they have taken part, each answer checked.
  const deadline = Date.now() + 30_000;
  do {
    assert.deepEqual(await shared.render(sources), expected);
  } while (shared.batches.workers === 0 && Date.now() < deadline);
  assert.ok(shared.batches.workers > 0, "workers rendered none of the batches");
  assert.ok(shared.batches.mainThread > 0, "the main thread rendered none of the batches");
  // The workers are kept, and the order is the caller's.
  assert.deepEqual(await shared.render(sources.slice().reverse()), expected.slice().reverse());
});

test("a small set is rendered on the main thread alone", async () => {
  const small = pool({ workerCount: 2 });
  const sources = bodies(50);
  assert.deepEqual(await small.render(sources), renderMarkdownMany(sources));
  assert.deepEqual(small.batches, { mainThread: 0, workers: 0 });
});

for (const fixture of ["exiting-render-worker.mjs", "throwing-render-worker.mjs"]) {
  test(`workers that fail (${fixture}) leave their batches to the main thread`, async () => {
    // Each fixture takes a batch from the shared counter and then fails without answering.
    const failing = pool({
      workerCount: 2,
      workerEntry: new URL(`../fixtures/${fixture}`, import.meta.url),
    });
    const sources = bodies(2000);
    const expected = renderMarkdownMany(sources);
    assert.deepEqual(await failing.render(sources), expected);
    assert.equal(failing.batches.workers, 0);
    // Failed workers are replaced on the next call, which fails over the same way.
    assert.deepEqual(await failing.render(sources), expected);
  });
}

test("a worker that took a batch and never answers is not waited for", async () => {
  const stuck = pool({
    workerCount: 1,
    workerEntry: new URL("../fixtures/hanging-render-worker.mjs", import.meta.url),
  });
  // Enough small bodies that the worker is up and has taken a batch long before the main thread
  // runs out of them; a pool that waited for its answer would never finish.
  const sources = Array.from({ length: 20_000 }, (_, index) => `*note* ${index}`);
  assert.deepEqual(await stuck.render(sources), renderMarkdownMany(sources));
  assert.equal(stuck.batches.workers, 0);
});

test("a process exits on its own after a parallel render (idle workers hold nothing)", async () => {
  // No server here: the render must finish with the workers unref'd (nothing waits on them), and
  // once it is done, the idle workers may not keep the process alive.
  const script = `
    const { markdownRenderPool } = await import(${JSON.stringify(new URL("../../src/domain/markdown-pool.ts", import.meta.url).href)});
    const sources = Array.from({ length: 1000 }, (_, i) => "**b** " + i);
    let html = [];
    const deadline = Date.now() + 30_000;
    do html = await markdownRenderPool.render(sources);
    while (markdownRenderPool.batches.workers === 0 && Date.now() < deadline);
    console.log(html.length, markdownRenderPool.batches.workers > 0);
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "--eval", script],
    { timeout: 60_000 },
  );
  assert.equal(stdout.trim(), "1000 true");
});

test("the workers stop once no render has used them for a while, and a later render starts them again", async () => {
  const idle = pool({ workerCount: 1, idleStopMs: 200 });
  const sources = bodies(600);
  const expected = renderMarkdownMany(sources);
  assert.deepEqual(await idle.render(sources), expected);
  assert.equal(idle.workerThreads, 1, "kept right after a render");
  await waitUntil(() => idle.workerThreads === 0);
  const before = idle.batches.workers;
  // The next render starts a worker again; it may be slower to start than the main thread is to
  // finish, so render until it has taken a batch (each render gives the same HTML either way).
  const deadline = Date.now() + 30_000;
  do assert.deepEqual(await idle.render(sources), expected);
  while (idle.batches.workers === before && Date.now() < deadline);
  assert.ok(idle.batches.workers > before, "a worker rendered again");
});

/** Polls (no timing assertion: only a guard against waiting forever). */
async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, "gave up waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
