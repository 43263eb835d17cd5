// Rendering thousands of bodies at once (a board import) on more than one core. Rendering is
// pure CPU work on strings, so it splits cleanly: the distinct sources are cut into batches,
// and the main thread and a few worker threads (markdown-worker.ts) take batches from one queue
// until it is empty. The main thread renders too, so nothing waits for a worker to start, and it
// yields between batches so other requests are answered meanwhile.
//
// Workers are started on first use, kept for later imports, and unref'd while idle so they never
// keep the process alive. A worker that fails is dropped; its batch is rendered on the main thread.

import { availableParallelism } from "node:os";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import { renderMarkdownMany } from "./markdown.js";
import type { RenderRequest, RenderResponse } from "./markdown-worker.js";

/** Bodies per message: large enough that messaging is cheap, small enough to share the work. */
const BATCH_SIZE = 200;
/** Below this many distinct bodies, starting or messaging workers costs more than it saves. */
const PARALLEL_FROM = 2 * BATCH_SIZE;

export interface RenderPoolOptions {
  /** Worker threads besides the main thread. Default: one per core beyond the first, at most 3. */
  workerCount?: number;
  /** The worker script; tests swap in failing ones. Default: markdown-worker beside this file. */
  workerEntry?: URL;
}

export class MarkdownRenderPool {
  private readonly workerCount: number;
  private readonly workerEntry: URL;
  private workers: RenderWorker[] = [];
  /** Batches rendered by each side since the pool was made, to show the work is shared. */
  readonly batches = { mainThread: 0, workers: 0 };

  constructor(options: RenderPoolOptions = {}) {
    this.workerCount = options.workerCount ?? Math.max(1, Math.min(3, availableParallelism() - 1));
    this.workerEntry = options.workerEntry ?? defaultWorkerEntry();
  }

  /** Renders every source (in order, each distinct one once), using workers for large sets. */
  async render(sources: readonly string[]): Promise<string[]> {
    const distinct = [...new Set(sources)].filter((source) => source !== "");
    if (distinct.length < PARALLEL_FROM || this.workerCount === 0) {
      return renderMarkdownMany(sources);
    }

    const queue: string[][] = [];
    for (let start = 0; start < distinct.length; start += BATCH_SIZE) {
      queue.push(distinct.slice(start, start + BATCH_SIZE));
    }
    const html = new Map<string, string>([["", ""]]);
    const store = (batch: string[], rendered: string[]) => {
      for (const [index, source] of batch.entries()) html.set(source, rendered[index] as string);
    };

    let next = 0;
    const onMainThread = async () => {
      while (next < queue.length) {
        const batch = queue[next++] as string[];
        store(batch, renderMarkdownMany(batch));
        this.batches.mainThread++;
        await yieldToEventLoop();
      }
    };
    const onWorker = async (worker: RenderWorker) => {
      while (next < queue.length) {
        const batch = queue[next++] as string[];
        const rendered = await worker.render(batch);
        if (rendered === null) {
          store(batch, renderMarkdownMany(batch)); // the worker failed: do it here
          this.batches.mainThread++;
        } else {
          store(batch, rendered);
          this.batches.workers++;
        }
      }
    };
    // Two batches in flight per worker: a worker's answer is only read when the main thread
    // yields, between two of its own batches, so with one the worker would idle meanwhile.
    const workers = this.liveWorkers();
    await Promise.all([onMainThread(), ...workers.map(onWorker), ...workers.map(onWorker)]);
    return sources.map((source) => html.get(source) as string);
  }

  /**
   * Starts the workers and has every thread render a small sample in the background, so the
   * first large import does not pay for starting threads and for compiling the renderer's hot
   * paths (about a quarter of a cold 5,000-ticket import; docs/performance.md). For `tack serve`.
   */
  warmUp(): void {
    const sample = warmUpSample();
    for (const worker of this.liveWorkers()) void worker.render(sample);
    setImmediate(() => renderMarkdownMany(sample));
  }

  /** Stops the workers (tests; a server process just exits, the workers being unref'd). */
  async close(): Promise<void> {
    const stopping = this.workers.map((worker) => worker.terminate());
    this.workers = [];
    await Promise.all(stopping);
  }

  private liveWorkers(): RenderWorker[] {
    this.workers = this.workers.filter((worker) => !worker.failed);
    while (this.workers.length < this.workerCount) {
      this.workers.push(new RenderWorker(this.workerEntry));
    }
    return this.workers;
  }
}

/** One worker thread and the batches it has been sent, answered in order. */
class RenderWorker {
  private readonly thread: Worker;
  private readonly pending = new Map<number, (html: string[] | null) => void>();
  private nextBatch = 0;
  failed = false;

  constructor(entry: URL) {
    this.thread = startThread(entry);
    this.thread.on("message", ({ batch, html }: RenderResponse) => {
      this.pending.get(batch)?.(html);
      this.pending.delete(batch);
      if (this.pending.size === 0) this.thread.unref();
    });
    const fail = () => {
      this.failed = true;
      for (const resolve of this.pending.values()) resolve(null);
      this.pending.clear();
    };
    this.thread.on("error", fail);
    this.thread.on("exit", fail);
    // Idle workers must not keep the process alive; busy ones must (see render). Unref after the
    // listeners: adding a "message" listener refs the worker again.
    this.thread.unref();
  }

  /** The batch's HTML, or null when this worker failed (the caller renders it itself). */
  render(sources: string[]): Promise<string[] | null> {
    if (this.failed) return Promise.resolve(null);
    const batch = this.nextBatch++;
    if (this.pending.size === 0) this.thread.ref();
    return new Promise((resolve) => {
      this.pending.set(batch, resolve);
      const request: RenderRequest = { batch, sources };
      this.thread.postMessage(request);
    });
  }

  async terminate(): Promise<void> {
    this.failed = true;
    await this.thread.terminate();
  }
}

/** Bodies that go through every construct the renderer handles: headings, lists, links, code... */
function warmUpSample(): string[] {
  return Array.from(
    { length: 300 },
    (_, index) =>
      `## Note ${index}\n\nSeen on **main** since #${index}, _again_; see https://example.com/${index} ` +
      `and [the log](https://ci.example.com/runs/${index} "run").\n\n- [ ] reproduce\n- [x] ` +
      `collect \`logs\`\n\n> quoted ${index}\n\n| a | b |\n|:-|-:|\n| ${index} | ~~x~~ |\n\n` +
      `\`\`\`sh\nnpm test -- --grep ${index}\n\`\`\``,
  );
}

function startThread(entry: URL): Worker {
  if (!entry.pathname.endsWith(".ts")) return new Worker(entry);
  // Running from TypeScript source (tests, tsx): Node 20 does not carry the parent's
  // `--import tsx` into a worker, so the worker registers tsx itself before loading its entry.
  const load = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(load, { eval: true });
}

/** The worker's file beside this one: .js when built, .ts when run from source (tests, tsx). */
function defaultWorkerEntry(): URL {
  const extension = import.meta.url.endsWith(".ts") ? "ts" : "js";
  return new URL(`./markdown-worker.${extension}`, import.meta.url);
}

/** The process's pool, used by board imports. */
export const markdownRenderPool = new MarkdownRenderPool();
