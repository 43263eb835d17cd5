import type { Worker } from "node:worker_threads";
import { siblingModule, startModuleWorker } from "../worker-threads.js";
import type { CheckpointReport, CheckpointRequest } from "./checkpoint-worker.js";
import type { Db } from "./database.js";

/** Wait after a commit before checkpointing, so a burst of commits shares one checkpoint. */
const DELAY_MS = 1000;
/** SQLite's default: checkpoint on the connection that commits once the log has this many pages. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

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
 * checkpoint fails, the connection goes back to checkpointing itself.
 */
export function walCheckpointsOffThread(db: Db, file: string): WalCheckpoints {
  if (file === ":memory:") return { committed() {}, stop: async () => {} };
  db.pragma("wal_autocheckpoint = 0");
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
