import type { Worker } from "node:worker_threads";
import { siblingModule, startModuleWorker } from "../worker-threads.js";
import type {
  CheckpointReport,
  CheckpointRequest,
  CheckpointWorkerData,
} from "./checkpoint-worker.js";
import type { Db } from "./database.js";

/** Wait after a commit before checkpointing, so a burst of commits shares one checkpoint. */
export const CHECKPOINT_DELAY_MS = 1000;
/** SQLite's default: checkpoint on the connection that commits once the log has this many pages. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/**
 * While the thread checkpoints, the server's connection still does once the log reaches this
 * many pages (~400 MiB), as a last bound. A 20,000-ticket import writes ~50,000 pages in one
 * commit, well below: a lower bound would copy such a log on the request's thread.
 */
export const BOUND_AUTOCHECKPOINT_PAGES = 100_000;
/**
 * The log restarts from its beginning only at a write that finds it wholly copied. A pass of the
 * thread (checkpoint-worker.ts) copies the log as it was when the pass began: under writes
 * without a pause, a commit lands during nearly every pass, so the log is never wholly copied
 * and never restarts, though each report says nothing is left. So when the log holds this many
 * pages (8 MiB at 4 KiB), the server's connection copies what is left itself, whatever the
 * report said, between two requests (no commit can come in between), and the next write
 * restarts the log. Nothing left to copy costs no sync.
 */
export const CATCH_UP_ON_CONNECTION_PAGES = 2048;
/**
 * The log's file is cut back to this size when it restarts (`journal_size_limit`): a log that
 * grew in one large commit (an import) does not keep its size under the writes that follow.
 * Under steady writes the log restarts below it, so the file is reused, not cut and regrown.
 */
export const LOG_SIZE_LIMIT_BYTES = 32 * 1024 * 1024;
/** Once writes pause, a log file larger than this is emptied (docs/operations.md, "Disk space"). */
export const SETTLED_LOG_BYTES = 16 * 1024 * 1024;

export interface WalCheckpoints {
  /** After each commit: a checkpoint will follow shortly (one for a burst of commits). */
  committed(): void;
  /** Stops the thread; call before closing the database. */
  stop(): Promise<void>;
}

/**
 * A full disk (SQLITE_FULL, or an I/O error while the file grows) fails a checkpoint until space
 * is freed: the thread keeps going, and the next commit asks again.
 */
function isDiskFull(code: string | undefined): boolean {
  return code === "SQLITE_FULL" || (code?.startsWith("SQLITE_IOERR") ?? false);
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
  db.pragma(`journal_size_limit = ${LOG_SIZE_LIMIT_BYTES}`);
  let worker: Worker | undefined;
  let exited: Promise<void> | undefined;
  let running = false;
  let wanted = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  /** A settle was sent since the last commit. */
  let settling = false;

  function fallBack(): void {
    stopped = true;
    if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  }

  function catchUp(): void {
    try {
      if (db.open && !db.inTransaction) db.pragma("wal_checkpoint(PASSIVE)");
    } catch {
      // A full disk: the next checkpoint tries again.
    }
  }

  function start(): Worker {
    const thread = startModuleWorker(siblingModule(import.meta.url, "checkpoint-worker"), {
      workerData: { file, settledLogBytes: SETTLED_LOG_BYTES } satisfies CheckpointWorkerData,
    });
    thread.unref();
    exited = new Promise((resolve) => thread.once("exit", () => resolve()));
    thread.on("message", (report: CheckpointReport) => {
      running = false;
      if ("failed" in report) {
        if (!isDiskFull(report.code)) fallBack();
        else if (wanted) schedule();
        return;
      }
      const large = report.logPages >= CATCH_UP_ON_CONNECTION_PAGES;
      if (large) catchUp();
      // A log that grew this large since its last restart is written fast: the next checkpoint
      // follows at once, or the log would grow by a second of such writes each time.
      if (wanted) schedule(large ? 0 : CHECKPOINT_DELAY_MS);
      else if (!settling) {
        // No commit since this checkpoint was asked for, a second or more ago: the burst is
        // over. One settle per pause (the next commit allows another).
        settling = true;
        running = true;
        thread.postMessage("settle" satisfies CheckpointRequest);
      }
    });
    thread.on("error", fallBack);
    return thread;
  }

  function schedule(delayMs = CHECKPOINT_DELAY_MS): void {
    wanted = false;
    timer = setTimeout(() => {
      timer = undefined;
      if (stopped) return;
      worker ??= start();
      running = true;
      worker.postMessage("checkpoint" satisfies CheckpointRequest);
    }, delayMs);
    timer.unref();
  }

  return {
    committed() {
      if (stopped) return;
      settling = false;
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
