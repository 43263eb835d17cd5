// Worker-thread entry of the Markdown render pool (markdown-pool.ts). For a render job it takes
// batches from the job's shared counter until none are left, renders each with the same pipeline
// the main thread uses, and sends the HTML back on the job's port, in order within the batch.

import { type MessagePort, parentPort } from "node:worker_threads";
import { renderMarkdownMany } from "./markdown.js";

export interface RenderJobMessage {
  kind: "render";
  /** The job's distinct sources; batch b is sources[b * batchSize, (b + 1) * batchSize). */
  sources: readonly string[];
  batchSize: number;
  /** Shared with every thread of the job: [0] is the next batch to take. */
  claims: Int32Array;
  results: MessagePort;
}

export type WorkerMessage = RenderJobMessage;

export interface RenderedBatch {
  batch: number;
  html: string[];
}

parentPort?.on("message", (message: WorkerMessage) => {
  const { sources, batchSize, claims, results } = message;
  const batchCount = Math.ceil(sources.length / batchSize);
  for (
    let batch = Atomics.add(claims, 0, 1);
    batch < batchCount;
    batch = Atomics.add(claims, 0, 1)
  ) {
    const rendered: RenderedBatch = {
      batch,
      html: renderMarkdownMany(sources.slice(batch * batchSize, (batch + 1) * batchSize)),
    };
    results.postMessage(rendered);
  }
  results.close();
});
