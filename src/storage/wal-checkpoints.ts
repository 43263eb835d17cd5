import type { Worker } from "node:worker_threads";
import { siblingModule, startModuleWorker } from "../worker-threads.js";
import type { CheckpointReport, CheckpointRequest } from "./checkpoint-worker.js";
import type { Db } from "./database.js";

/** Wait after a commit before checkpointing, so a burst of commits shares one checkpoint. */
const DELAY_MS = 1000;
/** SQLite's default: checkpoint on the connection that commits once the log has this many pages. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/**
 * While the thread checkpoints, the server's connection still does once the log reaches this
 * many pages (~400 MiB), as a bound. The log restarts from its beginning only at a write that
 * finds it wholly copied, and under writes without a pause the thread's checkpoint always ends
 * behind the newest commit; the connection's own checkpoint, run between two of its writes,
 * catches up (little is left to copy by then) and lets the log restart. A 20,000-ticket import
 * writes ~50,000 pages, well below.
 */
export const BOUND_AUTOCHECKPOINT_PAGES = 100_000;

export interface WalCheckpoints {
  /** After each commit: a checkpoint will follow shortly (one for a burst of commits). */
  committed(): void;
  /** Stops the thread; call before closing the database. */
  stop(): Promise<void>;
}

/**
 * Checkpoints on a thread of their own. By default SQLite checkpoints inside the commit that
 * grows the log past 1,000 pages, so that one request also copies every page of the log into the
 * database file and syncs it: 190-540 ms after a 5,000-ticket import, a few milliseconds now and
 * then on ordinary writes (docs/performance.md). Durability does not depend on checkpoints: a
 * commit is synced in the log before it is answered.
 *
 * The thread starts with the first commit (an idle server runs none). If it cannot start or a
 * checkpoint fails, the connection goes back to checkpointing itself at SQLite's default.
 */
export function walCheckpointsOffThread(
  db: Db,
  file: string,
  boundPages = BOUND_AUTOCHECKPOINT_PAGES,
): WalCheckpoints {
  if (file === ":memory:") return { committed() {}, stop: async () => {} };
  db.pragma(`wal_autocheckpoint = ${boundPages}`);
  let worker: Worker | undefined;
  let exited: Promise<void> | undefined;
  let running = false;
  let wanted = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  function fallBack(): void {
    stopped = true;
    if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  }

  function start(): Worker {
    const thread = startModuleWorker(siblingModule(import.meta.url, "checkpoint-worker"), {
      workerData: file,
    });
    thread.unref();
    exited = new Promise((resolve) => thread.once("exit", () => resolve()));
    thread.on("message", (report: CheckpointReport) => {
      running = false;
      if ("failed" in report) fallBack();
      else if (wanted) schedule();
    });
    thread.on("error", fallBack);
    return thread;
  }

  function schedule(): void {
    wanted = false;
    timer = setTimeout(() => {
      timer = undefined;
      if (stopped) return;
      worker ??= start();
      running = true;
      worker.postMessage("checkpoint" satisfies CheckpointRequest);
    }, DELAY_MS);
    timer.unref();
  }

  return {
    committed() {
      if (stopped) return;
      if (running || timer) wanted = true;
      else schedule();
    },
    async stop() {
      if (timer) clearTimeout(timer);
      if (!stopped) fallBack();
      // Held by the wait below: unref'd, the thread would let the process end before its exit.
      worker?.ref();
      worker?.postMessage("close" satisfies CheckpointRequest);
      await exited;
    },
  };
}
