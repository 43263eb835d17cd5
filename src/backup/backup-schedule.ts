import { StartupError } from "../storage/database.js";

/** Rolling backups of `tack serve`: where, how often, how many are kept. */
export interface BackupSchedule {
  dir: string;
  everyMs: number;
  keep: number;
}

/** The serve flags (merged with their environment variables by the CLI). */
export interface BackupFlags {
  backupDir?: string;
  backupEvery?: string;
  backupKeep: string;
}

export const DEFAULT_BACKUP_KEEP = 10;

const DAY_MS = 86_400_000;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS };
/** A week at most (Node timers hold at most 2^31-1 ms, 24.8 days). */
const MAX_INTERVAL_MS = 7 * DAY_MS;

/** Off unless both a folder and an interval are given; one without the other is a mistake. */
export function resolveBackupSchedule(flags: BackupFlags): BackupSchedule | undefined {
  const dir = flags.backupDir?.trim();
  const every = flags.backupEvery?.trim();
  if (!dir && !every) return undefined;
  if (!dir) throw new StartupError("--backup-every needs --backup-dir");
  if (!every) throw new StartupError("--backup-dir needs --backup-every");
  const match = /^(\d{1,7})(s|m|h|d)$/.exec(every);
  const everyMs = match ? Number(match[1]) * (UNIT_MS[match[2] as string] as number) : Number.NaN;
  if (!(everyMs >= 1000 && everyMs <= MAX_INTERVAL_MS)) {
    throw new StartupError(
      `invalid backup interval ${every}: expected a number and a unit (s, m, h, d) from 1s to 7d, e.g. 30m`,
    );
  }
  const keep = Number(flags.backupKeep);
  if (!/^\d+$/.test(flags.backupKeep) || keep < 1 || keep > 10_000) {
    throw new StartupError(`invalid --backup-keep ${flags.backupKeep}: expected 1 to 10000`);
  }
  return { dir, everyMs, keep };
}
