// One backup off the main thread: VACUUM INTO is synchronous and reads the whole database, so the
// server's rolling backups run it here and keep answering requests meanwhile.
import { parentPort, workerData } from "node:worker_threads";
import { backupDatabase } from "../storage/backup.js";

export interface BackupJob {
  source: string;
  target: string;
}

export type BackupOutcome = { ok: true; bytes: number } | { ok: false; message: string };

const job = workerData as BackupJob;
let outcome: BackupOutcome;
try {
  outcome = { ok: true, bytes: backupDatabase(job.source, job.target).bytes };
} catch (error) {
  outcome = { ok: false, message: error instanceof Error ? error.message : String(error) };
}
parentPort?.postMessage(outcome);
