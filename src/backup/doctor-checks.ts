import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { databaseFolder, formatBytes, freeBytes } from "../storage/disk-space.js";
import { inspectDatabaseFile } from "../storage/file-check.js";
import { migrations } from "../storage/migrations/index.js";
import { LOG_SIZE_LIMIT_BYTES } from "../storage/wal-checkpoints.js";
import { resolveBackupSchedule } from "./backup-schedule.js";
import { newestBackup } from "./rolling-backups.js";
import { describeAge } from "./startup-check.js";

/**
 * `tack doctor`: what an operator checks on a database file, read-only, also while a server
 * runs (docs/operations.md, "Checking a database"): its integrity (the start-up check), its
 * schema version, the size of its write-ahead log, the free space beside it, and the newest
 * rolling backup and its age. One line per check; exit 1 when one fails.
 */

/** Free space below this beside the database fails: the log's bound under writes, twice. */
export const MIN_FREE_BYTES = 2 * LOG_SIZE_LIMIT_BYTES;

export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface DoctorOptions {
  db: string;
  backupDir?: string;
  /** `--backup-every`: a newest backup older than twice this fails. */
  backupEvery?: string;
}

export function doctorChecks(options: DoctorOptions): DoctorCheck[] {
  const file = resolve(options.db);
  const checks: DoctorCheck[] = [];
  if (!existsSync(file)) {
    return [{ name: "database", ok: false, detail: `no database at ${file}` }];
  }
  const started = performance.now();
  const inspection = inspectDatabaseFile(file);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  checks.push({
    name: "integrity",
    ok: inspection.check.ok,
    detail: inspection.check.ok
      ? `quick_check ok (${seconds} s, ${formatBytes(statSync(file).size)})`
      : `quick_check: ${inspection.check.finding}`,
  });
  const version = inspection.schemaVersion;
  checks.push({
    name: "schema",
    ok: version !== undefined && version <= migrations.length,
    detail:
      version === undefined
        ? "unreadable"
        : version > migrations.length
          ? `version ${version}, newer than this tack (${migrations.length}): upgrade tack`
          : version < migrations.length
            ? `version ${version}; tack serve upgrades it to ${migrations.length}`
            : `version ${version} (current)`,
  });
  const log = existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0;
  checks.push({
    name: "log",
    ok: log <= LOG_SIZE_LIMIT_BYTES,
    detail: `${formatBytes(log)} in ${file}-wal (at most ${formatBytes(LOG_SIZE_LIMIT_BYTES)} under writes)`,
  });
  const folder = databaseFolder(file);
  const free = freeBytes(folder);
  checks.push({
    name: "free space",
    ok: free !== undefined && free >= MIN_FREE_BYTES,
    detail:
      free === undefined
        ? `unknown in ${folder}`
        : `${formatBytes(free)} in ${folder} (tack wants at least ${formatBytes(MIN_FREE_BYTES)})`,
  });
  checks.push(backupCheck(options));
  return checks;
}

function backupCheck(options: DoctorOptions): DoctorCheck {
  const name = "newest backup";
  if (!options.backupDir) {
    return { name, ok: true, detail: "no rolling backups asked for (--backup-dir)" };
  }
  const dir = resolve(options.backupDir);
  const newest = newestBackup(dir);
  if (!newest) return { name, ok: false, detail: `none in ${dir}` };
  const age = Date.now() - newest.takenAt.getTime();
  let everyMs: number | undefined;
  if (options.backupEvery) {
    everyMs = resolveBackupSchedule({
      backupDir: dir,
      backupEvery: options.backupEvery,
      backupKeep: "1",
    })?.everyMs;
  }
  const stale = everyMs !== undefined && age > 2 * everyMs;
  return {
    name,
    ok: !stale,
    detail: `${newest.file}, ${describeAge(age)} old${stale ? ` (expected one every ${options.backupEvery})` : ""}`,
  };
}

/** The command's output: one line per check. */
export function formatChecks(checks: DoctorCheck[]): string {
  const width = Math.max(...checks.map((check) => check.name.length));
  return checks
    .map((check) => `${check.ok ? "ok  " : "FAIL"}  ${check.name.padEnd(width)}  ${check.detail}`)
    .join("\n");
}
