import { PassThrough } from "node:stream";

/** A log stream for `startServer`'s dependencies that keeps every line written to it. */
export function capturedLog(): { stream: PassThrough; text: () => string } {
  const chunks: string[] = [];
  const stream = new PassThrough();
  stream.setEncoding("utf8").on("data", (chunk: string) => chunks.push(chunk));
  return { stream, text: () => chunks.join("") };
}
