import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { siblingModule, startModuleWorker } from "../worker-threads.js";
import type { BackupSchedule } from "./backup-schedule.js";
import type { BackupJob, BackupOutcome } from "./backup-worker.js";

/**
 * `tack serve --backup-dir D --backup-every I [--backup-keep N]`: every interval, a consistent copy
 * of the database is written to D as `tack-<UTC time>.sqlite`, taken on a worker thread, and all
 * but the newest N such files are deleted. Other files in D are never touched. A backup still
 * running when the next one is due makes that one skip. A failure (a full disk, say) is reported
 * on stderr and retried every minute (or every interval, if shorter) until a backup is written,
 * which is reported too; a run of failures with the same message prints one line. A failed backup
 * leaves no file: it is written under a temporary `.partial` name and removed, and such files left
 * by a process that died while writing one are removed before the next backup.
 */
export interface RollingBackups {
  /** Takes one backup now (the timer calls this). Resolves to the file written, if any. */
  runOnce(): Promise<string | undefined>;
  /** Stops the timer and waits for a backup in progress. */
  stop(): Promise<void>;
}

const BACKUP_NAME = /^tack-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.sqlite$/;
/** A backup's temporary file (storage/backup.ts), with the writing process's id. */
const PARTIAL_NAME =
  /^\.tack-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.sqlite\.(\d+)-\d+-[a-z0-9]+\.partial$/;
/** Longest wait before a failed backup is tried again. */
const RETRY_MS = 60_000;

export function backupFileName(at: Date): string {
  return `tack-${at.toISOString().replace(/:/g, "-")}.sqlite`;
}

export function startRollingBackups(
  schedule: BackupSchedule,
  dbFile: string,
  report: (line: string) => void = (line) => console.error(line),
  /** Wait before a failed backup is tried again (tests shorten it). */
  retryAfterMs = Math.min(schedule.everyMs, RETRY_MS),
): RollingBackups {
  let running: Promise<string | undefined> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;
  /** The message of the last failure reported, and how many failed since the last success. */
  let lastFailure: string | undefined;
  let failures = 0;
  const retryMs = retryAfterMs;

  const failed = (message: string) => {
    failures++;
    if (message !== lastFailure) {
      report(`tack: backup failed: ${message}; retrying every ${describeInterval(retryMs)}`);
      lastFailure = message;
    }
    if (!retry && !stopped) {
      retry = setTimeout(() => {
        retry = undefined;
        void runOnce();
      }, retryMs);
      retry.unref();
    }
  };

  const runOnce = (): Promise<string | undefined> => {
    if (running) return Promise.resolve(undefined);
    running = (async () => {
      try {
        mkdirSync(schedule.dir, { recursive: true });
        removeAbandonedPartials(schedule.dir);
        const target = join(schedule.dir, backupFileName(new Date()));
        const outcome = await backupOffThread({ source: dbFile, target });
        if (!outcome.ok) {
          // Each attempt names its own file: the same failure is the same message without it.
          failed(outcome.message.split(target).join(schedule.dir));
          return undefined;
        }
        if (failures > 0) {
          report(`tack: backup written to ${target} after ${failures} failed attempts`);
        }
        failures = 0;
        lastFailure = undefined;
        pruneOldBackups(schedule.dir, schedule.keep);
        return target;
      } catch (error) {
        failed(error instanceof Error ? error.message : String(error));
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
      stopped = true;
      clearInterval(timer);
      if (retry) clearTimeout(retry);
      await running;
    },
  };
}

function describeInterval(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return ms < 1000 ? `${ms}ms` : `${Math.round(ms / 1000)}s`;
}

/**
 * Removes backups' temporary files left in `dir` by a process that is gone (killed while writing
 * one): they hold disk space and are no backups. Those of live processes are being written.
 */
export function removeAbandonedPartials(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = Number(PARTIAL_NAME.exec(name)?.[1]);
    if (pid > 0 && !isAlive(pid)) rmSync(join(dir, name), { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/** The newest rolling backup in `dir` and when it was taken (from its name), if any. */
export function newestBackup(dir: string): { file: string; takenAt: Date } | undefined {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => BACKUP_NAME.test(name));
  } catch {
    return undefined;
  }
  const newest = names.sort().at(-1);
  if (!newest) return undefined;
  const stamp = newest
    .slice("tack-".length, -".sqlite".length)
    .replace(/T(\d{2})-(\d{2})-(\d{2})/, "T$1:$2:$3");
  return { file: join(dir, newest), takenAt: new Date(stamp) };
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
