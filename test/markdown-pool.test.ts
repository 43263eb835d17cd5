import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { renderMarkdownMany } from "../src/domain/markdown.js";
import { MarkdownRenderPool, type RenderJob } from "../src/domain/markdown-pool.js";

// A board import renders its bodies on worker threads and the main thread at once
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

/** Waits (workers start in the background) until the job's threads have taken `count` batches. */
async function untilTaken(job: RenderJob, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (job.batchesTaken() < count) {
    assert.ok(Date.now() < deadline, `workers took ${job.batchesTaken()} of ${count} batches`);
    await sleep(5);
  }
}

test("a large set is shared with workers and renders exactly as the main thread would", async () => {
  const sources = bodies(3000);
  const shared = pool({ workerCount: 2 });
  const job = shared.start(sources);
  // A worker takes its next batch only after sending the last one: once the two workers have
  // taken three batches, at least one batch is theirs to collect; the main thread takes the rest.
  await untilTaken(job, 3);
  const html = job.finish();
  assert.deepEqual(html, renderMarkdownMany(sources));
  assert.ok(shared.batches.workers > 0, "workers rendered none of the batches");
  assert.ok(shared.batches.mainThread > 0, "the main thread rendered none of the batches");
  // The workers are kept: a second job gives the same answer again.
  const again = shared.start(sources.slice().reverse());
  await sleep(50);
  assert.deepEqual(again.finish(), html.slice().reverse());
  assert.throws(() => again.finish(), /already finished/);
});

test("a job finished at once is rendered by the main thread, without waiting", () => {
  const eager = pool({ workerCount: 2 });
  const sources = bodies(1000);
  assert.deepEqual(eager.start(sources).finish(), renderMarkdownMany(sources));
});

test("a small set is rendered on the main thread alone", () => {
  const small = pool({ workerCount: 2 });
  const sources = bodies(50);
  assert.deepEqual(small.start(sources).finish(), renderMarkdownMany(sources));
  assert.deepEqual(small.batches, { mainThread: 0, workers: 0 });
});

test("a cancelled job hands out no more batches and leaves the workers to the next", async () => {
  const cancelling = pool({ workerCount: 2 });
  const first = cancelling.start(bodies(3000));
  await untilTaken(first, 1);
  first.cancel();
  assert.throws(() => first.finish(), /already finished/);
  const sources = bodies(2000).reverse();
  const next = cancelling.start(sources);
  await untilTaken(next, 3);
  assert.deepEqual(next.finish(), renderMarkdownMany(sources));
});

for (const fixture of ["exiting-render-worker.mjs", "throwing-render-worker.mjs"]) {
  test(`workers that fail (${fixture}) leave their batches to the main thread`, async () => {
    const failing = pool({
      workerCount: 2,
      workerEntry: new URL(`./fixtures/${fixture}`, import.meta.url),
    });
    const sources = bodies(2000);
    const expected = renderMarkdownMany(sources);
    const job = failing.start(sources);
    await untilTaken(job, 2); // each worker took a batch before failing
    assert.deepEqual(job.finish(), expected);
    assert.equal(failing.batches.workers, 0);
    // Failed workers are replaced at the next job, which fails over the same way.
    await sleep(100);
    const next = failing.start(sources);
    await untilTaken(next, 2);
    assert.deepEqual(next.finish(), expected);
  });
}

test("a process exits on its own after a warm-up and a parallel render (idle workers hold nothing)", async () => {
  const script = `
    const { markdownRenderPool } = await import(${JSON.stringify(new URL("../src/domain/markdown-pool.ts", import.meta.url).href)});
    markdownRenderPool.warmUp();
    const job = markdownRenderPool.start(Array.from({ length: 1000 }, (_, i) => "**b** " + i));
    while (job.batchesTaken() < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    const html = job.finish();
    console.log(html.length, markdownRenderPool.batches.workers > 0);
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "--eval", script],
    { timeout: 60_000 },
  );
  assert.equal(stdout.trim(), "1000 true");
});
