import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts a worker thread on a module of this codebase. Built, the entry is a .js file beside its
 * caller; run from TypeScript source (tests, tsx), Node 20 does not carry the parent's
 * `--import tsx` into a worker, so the worker registers tsx itself before loading the entry.
 */
export function startModuleWorker(entry: URL, options: WorkerOptions = {}): Worker {
  if (!entry.pathname.endsWith(".ts")) return new Worker(entry, options);
  const load = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(load, { ...options, eval: true });
}

/** The module `name` beside `callerUrl` (an import.meta.url), with the caller's extension. */
export function siblingModule(callerUrl: string, name: string): URL {
  const extension = callerUrl.endsWith(".ts") ? "ts" : "js";
  return new URL(`./${name}.${extension}`, callerUrl);
}
