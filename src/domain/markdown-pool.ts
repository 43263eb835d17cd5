// Rendering thousands of bodies at once (a board import) on more than one core. Rendering is
// pure CPU work on strings, so it splits cleanly: the distinct sources are cut into batches that
// the worker threads (markdown-worker.ts) and the main thread take from one shared counter
// (Atomics.add), so no thread waits for another to hand it work. The main thread yields between
// its batches, so other requests are answered meanwhile. The workers answer on a message port
// each, read with receiveMessageOnPort once the counter is exhausted; a batch a worker took but
// has not answered for by then (still busy, or the worker failed) is rendered on the main thread
// rather than waited for: at most one batch per worker, a few milliseconds.
//
// Workers are started on first use (the first large import), never at boot: a warm-up at start
// once rendered 2,000 sample bodies on every thread, and for two seconds after `tack serve`
// started every request waited 60-500 ms behind it (docs/performance.md). They are kept for
// later renders while renders keep coming, and stopped once none has come for IDLE_STOP_MS:
// a worker's heap holds ~140 MiB after rendering a 5,000-ticket document, which the server
// would otherwise keep for the rest of its life (docs/performance.md, "Import and export"). They
// are unref'd so they never keep the process alive. A worker that fails is replaced at the next
// render.

import { availableParallelism } from "node:os";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  type Worker,
} from "node:worker_threads";
import { siblingModule, startModuleWorker } from "../worker-threads.js";
import { renderMarkdownMany } from "./markdown.js";
import type { RenderedBatch, RenderJobMessage, WorkerMessage } from "./markdown-worker.js";

/** Bodies per batch: large enough that messaging is cheap, small enough to share the work. */
const BATCH_SIZE = 100;
/** Below this many distinct bodies, messaging workers costs more than it saves. */
const PARALLEL_FROM = 4 * BATCH_SIZE;
/** The workers stop when no render has used them for this long. */
const IDLE_STOP_MS = 10_000;

export interface RenderPoolOptions {
  /** Worker threads besides the main thread. Default: one per core beyond the first, at most 3. */
  workerCount?: number;
  /** The worker script; tests swap in failing ones. Default: markdown-worker beside this file. */
  workerEntry?: URL;
  /** Stop the workers after this long without a render (default 10 s). */
  idleStopMs?: number;
}

export class MarkdownRenderPool {
  private readonly workerCount: number;
  private readonly workerEntry: URL;
  private readonly idleStopMs: number;
  private workers: RenderWorker[] = [];
  private idleTimer: NodeJS.Timeout | undefined;
  /** Parallel renders under way; the idle countdown starts when the last one ends. */
  private running = 0;
  /** Batches rendered by each side since the pool was made, to show the work is shared. */
  readonly batches = { mainThread: 0, workers: 0 };

  constructor(options: RenderPoolOptions = {}) {
    this.workerCount = options.workerCount ?? Math.max(1, Math.min(3, availableParallelism() - 1));
    this.workerEntry = options.workerEntry ?? defaultWorkerEntry();
    this.idleStopMs = options.idleStopMs ?? IDLE_STOP_MS;
  }

  /** Renders every source (in order, each distinct one once), using workers for large sets. */
  async render(sources: readonly string[]): Promise<string[]> {
    const distinct = [...new Set(sources)].filter((source) => source !== "");
    if (distinct.length < PARALLEL_FROM || this.workerCount === 0) {
      return renderMarkdownMany(sources);
    }
    clearTimeout(this.idleTimer);
    this.running++;
    const job = new RenderJob(distinct, this.liveWorkers(), this.batches);
    try {
      const html = await job.run();
      return sources.map((source) => html.get(source) as string);
    } finally {
      if (--this.running === 0) {
        this.idleTimer = setTimeout(() => void this.close(), this.idleStopMs);
        this.idleTimer.unref();
      }
    }
  }

  /** Worker threads running now: none until a render needs them (nothing is started at boot). */
  get workerThreads(): number {
    return this.workers.filter((worker) => !worker.failed).length;
  }

  /**
   * Stops the workers (after IDLE_STOP_MS without a render, and in tests); a later render starts
   * them again.
   */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
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

/** One set of distinct sources being rendered; see the top of this file. */
class RenderJob {
  private readonly batchCount: number;
  /** [0]: the next batch to take. Every thread takes batches with Atomics.add on it. */
  private readonly claims = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  private readonly ports: MessagePort[] = [];

  constructor(
    private readonly distinct: readonly string[],
    workers: readonly RenderWorker[],
    private readonly counts: MarkdownRenderPool["batches"],
  ) {
    this.batchCount = Math.ceil(distinct.length / BATCH_SIZE);
    for (const worker of workers) {
      const { port1, port2 } = new MessageChannel();
      this.ports.push(port1);
      const message: RenderJobMessage = {
        kind: "render",
        sources: distinct,
        batchSize: BATCH_SIZE,
        claims: this.claims,
        results: port2,
      };
      worker.send(message, [port2]);
    }
  }

  /** Each distinct source's HTML. */
  async run(): Promise<Map<string, string>> {
    try {
      const done: Array<string[] | undefined> = new Array(this.batchCount);
      for (let batch = this.claim(); batch < this.batchCount; batch = this.claim()) {
        done[batch] = this.renderHere(batch);
        await yieldToEventLoop();
      }
      for (const port of this.ports) {
        for (
          let received = receiveMessageOnPort(port);
          received;
          received = receiveMessageOnPort(port)
        ) {
          const { batch, html } = received.message as RenderedBatch;
          done[batch] = html;
          this.counts.workers++;
        }
      }
      // Batches a worker took but has not answered for yet: render them rather than wait.
      for (let batch = 0; batch < this.batchCount; batch++) done[batch] ??= this.renderHere(batch);

      const html = new Map<string, string>([["", ""]]);
      this.distinct.forEach((source, index) => {
        html.set(source, done[Math.floor(index / BATCH_SIZE)]?.[index % BATCH_SIZE] as string);
      });
      return html;
    } finally {
      // No batch is handed out any more, whatever happened; the workers' late answers are dropped.
      Atomics.store(this.claims, 0, this.batchCount);
      for (const port of this.ports) port.close();
    }
  }

  private claim(): number {
    return Atomics.add(this.claims, 0, 1);
  }

  private renderHere(batch: number): string[] {
    this.counts.mainThread++;
    return renderMarkdownMany(this.distinct.slice(batch * BATCH_SIZE, (batch + 1) * BATCH_SIZE));
  }
}

/** One worker thread; failures are noticed through its events and mark it for replacement. */
class RenderWorker {
  private readonly thread: Worker;
  failed = false;

  constructor(entry: URL) {
    this.thread = startModuleWorker(entry);
    const fail = () => {
      this.failed = true;
    };
    this.thread.on("error", fail);
    this.thread.on("exit", fail);
    // The main thread never waits for a worker (it reads the ports once it has run out of
    // batches), so no worker ever needs to keep the process alive.
    this.thread.unref();
  }

  send(message: WorkerMessage, transfer: MessagePort[] = []): void {
    if (!this.failed) this.thread.postMessage(message, transfer);
  }

  async terminate(): Promise<void> {
    this.failed = true;
    await this.thread.terminate();
  }
}

/** The worker's file beside this one: .js when built, .ts when run from source (tests, tsx). */
function defaultWorkerEntry(): URL {
  return siblingModule(import.meta.url, "markdown-worker");
}

/** The process's pool, used by board imports. */
export const markdownRenderPool = new MarkdownRenderPool();
