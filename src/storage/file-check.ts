import { existsSync } from "node:fs";
import Database from "better-sqlite3";

/** What a check of a database file found: `ok`, or SQLite's first finding. */
export type FileCheck = { ok: true } | { ok: false; finding: string };

/**
 * SQLite's `quick_check` of a database file, on a read-only connection: every page of every
 * table and index is read and its structure checked (a damaged ticket page, index page or
 * schema page is found), without comparing indexes against their tables' rows as
 * `integrity_check` does. Its cost grows with the file (docs/operations.md, "A damaged file").
 *
 * Nothing is written to the file or its log: the connection is read-only, never checkpoints,
 * and a read-only connection closing does not fold or remove the log. (SQLite may build its
 * index of the log in `<file>-shm`, a scratch file it rebuilds at every start anyway.)
 * A file that does not exist passes: there is nothing to check before it is created.
 */
export function checkDatabaseFile(file: string): FileCheck {
  if (file === ":memory:" || !existsSync(file)) return { ok: true };
  return inspectDatabaseFile(file).check;
}

export interface FileInspection {
  check: FileCheck;
  /** `user_version`, when the file could be read that far. */
  schemaVersion: number | undefined;
}

/** The check above and the schema version, read on one read-only connection (`tack doctor`). */
export function inspectDatabaseFile(file: string): FileInspection {
  let db: Database.Database | undefined;
  let schemaVersion: number | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    schemaVersion = db.pragma("user_version", { simple: true }) as number;
    // Reads go through a memory map: the check reads every page once.
    db.pragma("mmap_size = 268435456");
    const findings = db.pragma("quick_check(20)", { simple: false }) as Array<{
      quick_check: string;
    }>;
    const first = findings[0]?.quick_check ?? "no answer";
    if (findings.length === 1 && first === "ok") return { check: { ok: true }, schemaVersion };
    const more = findings.length > 1 ? ` (and ${findings.length - 1} more findings)` : "";
    return { check: { ok: false, finding: `${oneLine(first)}${more}` }, schemaVersion };
  } catch (error) {
    // A damaged schema or header fails before the check can run.
    const message = error instanceof Error ? error.message : String(error);
    return { check: { ok: false, finding: oneLine(message) }, schemaVersion };
  } finally {
    db?.close();
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
