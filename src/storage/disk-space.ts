import { statfsSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Error codes that mean the disk (or the user's quota on it) has no room for a write. */
const FULL_CODES = new Set(["SQLITE_FULL", "ENOSPC", "EDQUOT"]);

/**
 * True when `error`, or an error it wraps (`cause`), says the disk is full: SQLite's SQLITE_FULL
 * (its unix layer turns ENOSPC into it), or Node's ENOSPC and EDQUOT from a file operation or a
 * sync of the log (storage/group-commit.ts).
 */
export function isDiskFull(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && FULL_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Bytes an unprivileged writer may still use on the disk holding `path`; undefined if unknown. */
export function freeBytes(path: string): number | undefined {
  try {
    const stats = statfsSync(path);
    return Number(stats.bavail) * Number(stats.bsize);
  } catch {
    return undefined;
  }
}

/** The folder holding a database file, where its log and companions live too. */
export function databaseFolder(dbFile: string): string {
  return dirname(resolve(dbFile));
}

/** `12.3 MiB`, `512 KiB`, `0 bytes`: sizes in messages for people. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Math.floor(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}
