import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { siblingModule, startModuleWorker } from "../worker-threads.js";
import type { BackupSchedule } from "./backup-schedule.js";
import type { BackupJob, BackupOutcome } from "./backup-worker.js";

/**
 * `tack serve --backup-dir D --backup-every I [--backup-keep N]`: every interval, a consistent copy
 * of the database is written to D as `tack-<UTC time>.sqlite`, taken on a worker thread, and all
 * but the newest N such files are deleted. Other files in D are never touched. A backup still
 * running when the next one is due makes that one skip; a failure is reported on stderr and the
 * schedule goes on.
 */
export interface RollingBackups {
  /** Takes one backup now (the timer calls this). Resolves to the file written, if any. */
  runOnce(): Promise<string | undefined>;
  /** Stops the timer and waits for a backup in progress. */
  stop(): Promise<void>;
}

const BACKUP_NAME = /^tack-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.sqlite$/;

export function backupFileName(at: Date): string {
  return `tack-${at.toISOString().replace(/:/g, "-")}.sqlite`;
}

export function startRollingBackups(
  schedule: BackupSchedule,
  dbFile: string,
  report: (line: string) => void = (line) => console.error(line),
): RollingBackups {
  let running: Promise<string | undefined> | undefined;

  const runOnce = (): Promise<string | undefined> => {
    if (running) return Promise.resolve(undefined);
    running = (async () => {
      try {
        mkdirSync(schedule.dir, { recursive: true });
        const target = join(schedule.dir, backupFileName(new Date()));
        const outcome = await backupOffThread({ source: dbFile, target });
        if (!outcome.ok) {
          report(`tack: backup failed: ${outcome.message}`);
          return undefined;
        }
        pruneOldBackups(schedule.dir, schedule.keep);
        return target;
      } catch (error) {
        report(`tack: backup failed: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const timer = setInterval(() => void runOnce(), schedule.everyMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/** Deletes all but the newest `keep` backups (names sort by time). */
export function pruneOldBackups(dir: string, keep: number): void {
  const backups = readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort();
  for (const name of backups.slice(0, Math.max(0, backups.length - keep))) {
    rmSync(join(dir, name), { force: true });
  }
}

function backupOffThread(job: BackupJob): Promise<BackupOutcome> {
  return new Promise((resolve, reject) => {
    const worker = startModuleWorker(workerEntry(), { workerData: job });
    worker.once("message", (outcome: BackupOutcome) => resolve(outcome));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`backup thread exited with code ${code}`));
    });
  });
}

function workerEntry(): URL {
  return siblingModule(import.meta.url, "backup-worker");
}
