// The thread that copies committed pages from the write-ahead log into the database file
// (wal-checkpoints.ts says why it is not the main thread). It holds its own connection and only
// ever checkpoints: no reads or writes of its own.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

export type CheckpointRequest = "checkpoint" | "close";
export type CheckpointReport = { done: true } | { failed: string };

const db = new Database(workerData as string);
// The pages a checkpoint copies are synced before the log may be reused: FULL, as the server's.
db.pragma("synchronous = FULL");
db.pragma("busy_timeout = 5000");

parentPort?.on("message", (request: CheckpointRequest) => {
  if (request === "close") {
    db.close();
    parentPort?.close();
    return;
  }
  let report: CheckpointReport;
  try {
    // PASSIVE: copies what no reader still needs, without waiting for or blocking writers.
    db.pragma("wal_checkpoint(PASSIVE)");
    report = { done: true };
  } catch (error) {
    report = { failed: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(report);
});
