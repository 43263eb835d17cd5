// The thread that copies committed pages from the write-ahead log into the database file
// (wal-checkpoints.ts says why it is not the main thread). It holds its own connection and only
// ever checkpoints: no reads or writes of its own.
import { statSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

export interface CheckpointWorkerData {
  file: string;
  /** A settled log larger than this is truncated to nothing. */
  settledLogBytes: number;
}

/**
 * "checkpoint": copy what the log holds; "settle": writes have paused, give the log's disk space
 * back if it grew past the settled bound; "close": end the thread.
 */
export type CheckpointRequest = "checkpoint" | "settle" | "close";
export type CheckpointReport =
  | { done: true; logPages: number }
  | { failed: string; code: string | undefined };

/**
 * Passes after the first while the log holds commits written during the previous pass. Each
 * copies only those (a few pages under steady writes) and is quick, so one usually ends with
 * the log wholly copied: only then does the next write restart the log from its beginning.
 */
const CATCH_UP_PASSES = 4;

const { file, settledLogBytes } = workerData as CheckpointWorkerData;
const db = new Database(file);
// The pages a checkpoint copies are synced before the log may be reused: FULL, as the server's.
db.pragma("synchronous = FULL");
// Never waits for a lock: a checkpoint that finds the server writing gives up at once (PASSIVE
// never waits anyway; TRUNCATE would otherwise hold the server's next write while it waits).
db.pragma("busy_timeout = 0");

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

function checkpoint(mode: "PASSIVE" | "TRUNCATE"): CheckpointRow {
  return (db.pragma(`wal_checkpoint(${mode})`) as CheckpointRow[])[0] as CheckpointRow;
}

function logBytes(): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

parentPort?.on("message", (request: CheckpointRequest) => {
  if (request === "close") {
    db.close();
    parentPort?.close();
    return;
  }
  let report: CheckpointReport;
  try {
    if (request === "settle") {
      // TRUNCATE: copies anything left, then, with no reader or writer in the log, empties the
      // file. Busy (a write came meanwhile) leaves it as it is: that write asks for another
      // checkpoint, and its pause for another settle.
      if (logBytes() > settledLogBytes) checkpoint("TRUNCATE");
      report = { done: true, logPages: 0 };
    } else {
      // PASSIVE: copies what no reader still needs, without waiting for or blocking writers.
      let row = checkpoint("PASSIVE");
      for (let pass = 0; pass < CATCH_UP_PASSES && row.log > row.checkpointed; pass++) {
        row = checkpoint("PASSIVE");
      }
      // Not what is left to copy: commits made during the last pass are not in its count
      // (wal-checkpoints.ts, CATCH_UP_ON_CONNECTION_PAGES).
      report = { done: true, logPages: row.log };
    }
  } catch (error) {
    report = {
      failed: error instanceof Error ? error.message : String(error),
      code: (error as { code?: string }).code,
    };
  }
  parentPort?.postMessage(report);
});
