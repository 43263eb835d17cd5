import { resolve } from "node:path";
import { StartupError } from "../storage/database.js";
import { checkDatabaseFile } from "../storage/file-check.js";
import { newestBackup } from "./rolling-backups.js";

/**
 * `tack serve` checks its database file before anything opens it for writing (no migration, no
 * log replayed into it, no checkpoint): a file that fails is refused with exit 1 and one line
 * naming the file, the finding and the backup to restore, and is left byte for byte as it was.
 * `--skip-check` skips this for an operator who knows the file (docs/operations.md).
 */
export function refuseDamagedDatabase(dbFile: string, backupDir: string | undefined): void {
  const check = checkDatabaseFile(dbFile);
  if (check.ok) return;
  const file = resolve(dbFile);
  throw new StartupError(
    `database ${file} failed its start-up check (quick_check: ${check.finding}); it was left as it is. ${restoreAdvice(file, backupDir)} (or start with --skip-check to serve it as it is)`,
  );
}

/** Which backup to put back, and the command that does it. */
export function restoreAdvice(file: string, backupDir: string | undefined): string {
  const newest = backupDir ? newestBackup(backupDir) : undefined;
  if (newest) {
    return `Newest rolling backup: ${newest.file} (taken ${describeAge(Date.now() - newest.takenAt.getTime())} ago); restore it with: tack restore ${quote(newest.file)} --db ${quote(file)} --force`;
  }
  const where = backupDir
    ? `No rolling backup in ${resolve(backupDir)}`
    : "No rolling backup folder given (--backup-dir)";
  return `${where}; restore a backup of yours with: tack restore <backup file> --db ${quote(file)} --force`;
}

/** `45 s`, `12 min`, `5 h`, `3 days`. */
export function describeAge(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

/** A path as a shell word (quoted when it holds anything but plain characters). */
function quote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
