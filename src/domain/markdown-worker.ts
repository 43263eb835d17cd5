// Worker-thread entry of the Markdown render pool (markdown-pool.ts): renders each batch it is
// sent with the same pipeline the main thread uses, and sends the HTML back in order.

import { parentPort } from "node:worker_threads";
import { renderMarkdownMany } from "./markdown.js";

export interface RenderRequest {
  batch: number;
  sources: string[];
}

export interface RenderResponse {
  batch: number;
  html: string[];
}

parentPort?.on("message", ({ batch, sources }: RenderRequest) => {
  const response: RenderResponse = { batch, html: renderMarkdownMany(sources) };
  parentPort?.postMessage(response);
});
