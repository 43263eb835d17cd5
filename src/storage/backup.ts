import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import { formatBytes, freeBytes, isDiskFull } from "./disk-space.js";
import { migrations } from "./migrations/index.js";

/**
 * Copies of a tack database, taken and put back while it may be in use.
 *
 * A backup is `VACUUM INTO` from a read-only connection: one read transaction, so under WAL it
 * is a consistent snapshot of the last commit however busy the writers are, and it never blocks
 * them (the online backup API, by contrast, restarts whenever another connection writes). The
 * copy is written beside its destination under a temporary name, checked, synced, and renamed
 * into place, so a crash never leaves a half-written file under the name the user chose.
 *
 * A restore refuses, without touching anything, a file that is not a tack database or is from a
 * newer tack, an existing target without `force`, and a target that a running server has open:
 * switching the target out of WAL mode needs every other connection gone, so SQLITE_BUSY there
 * means a server is using it (and on success the target's WAL is folded in and removed, so no
 * stale WAL of the old database can be replayed onto the restored one).
 */

/** A refusal or failure, with a one-line message for the user. */
export class BackupError extends Error {}

/** Tables every tack database has since the first schema version. */
const TACK_TABLES = ["boards", "lanes", "tickets", "comments", "activity"];

export interface BackupSummary {
  file: string;
  schemaVersion: number;
  bytes: number;
}

/** Writes a consistent copy of `sourceFile` to `targetFile` (replacing it if it exists). */
export function backupDatabase(sourceFile: string, targetFile: string): BackupSummary {
  if (!existsSync(sourceFile)) throw new BackupError(`no database at ${sourceFile}`);
  if (resolve(sourceFile) === resolve(targetFile)) {
    throw new BackupError("the backup file must not be the database itself");
  }
  const source = openReadOnly(sourceFile);
  let schemaVersion: number;
  const temporary = temporaryBeside(targetFile);
  try {
    schemaVersion = checkTackDatabase(source, sourceFile);
    mkdirSync(dirname(resolve(targetFile)), { recursive: true });
    source.prepare("VACUUM INTO ?").run(temporary);
  } catch (error) {
    rmSync(temporary, { force: true });
    if (isDiskFull(error)) throw diskFullError(sourceFile, targetFile);
    throw asBackupError(error, `cannot back up ${sourceFile}`);
  } finally {
    source.close();
  }
  return putInPlace(temporary, targetFile, schemaVersion);
}

export interface RestoreOptions {
  /** Replace an existing database at the target. */
  force?: boolean;
}

/** Puts the backup `backupFile` in place as the database `targetFile`. */
export function restoreDatabase(
  backupFile: string,
  targetFile: string,
  options: RestoreOptions = {},
): BackupSummary {
  if (!existsSync(backupFile)) throw new BackupError(`no backup file at ${backupFile}`);
  if (resolve(backupFile) === resolve(targetFile)) {
    throw new BackupError("the backup file is the database itself");
  }
  const backup = openReadOnly(backupFile);
  const temporary = temporaryBeside(targetFile);
  let schemaVersion: number;
  try {
    schemaVersion = checkTackDatabase(backup, backupFile);
    if (schemaVersion > migrations.length) {
      throw new BackupError(
        `${backupFile} is from a newer tack (schema version ${schemaVersion}; this tack supports ${migrations.length})`,
      );
    }
    if (existsSync(targetFile)) {
      if (!options.force) {
        throw new BackupError(`${targetFile} already exists; pass --force to replace it`);
      }
      releaseTarget(targetFile);
    }
    mkdirSync(dirname(resolve(targetFile)), { recursive: true });
    backup.prepare("VACUUM INTO ?").run(temporary);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw asBackupError(error, `cannot restore ${backupFile}`);
  } finally {
    backup.close();
  }
  // A -shm left by the old database is only an index of its (now removed) WAL; drop it too.
  rmSync(`${targetFile}-shm`, { force: true });
  return putInPlace(temporary, targetFile, schemaVersion);
}

/** The schema version of a tack database; anything else is refused. */
function checkTackDatabase(db: Database.Database, file: string): number {
  let tables: Set<string>;
  try {
    tables = new Set(
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[],
    );
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_NOTADB") {
      throw new BackupError(`${file} is not a tack database (not a SQLite file)`);
    }
    throw error;
  }
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version < 1 || TACK_TABLES.some((table) => !tables.has(table))) {
    throw new BackupError(`${file} is not a tack database`);
  }
  const check = db.pragma("quick_check", { simple: true });
  if (check !== "ok") throw new BackupError(`${file} is damaged (integrity check: ${check})`);
  return version;
}

/**
 * Makes sure no server has the existing target open, and folds its WAL into it so that nothing
 * of the old database remains beside the file that replaces it.
 */
function releaseTarget(targetFile: string): void {
  let target: Database.Database;
  try {
    target = new Database(targetFile, { fileMustExist: true, timeout: 0 });
  } catch {
    return; // not openable at all: nothing can be using it as a database
  }
  try {
    target.pragma("journal_mode = DELETE");
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
      throw new BackupError(
        `${targetFile} is in use by a running tack server; stop it before restoring`,
      );
    }
    if (code.startsWith("SQLITE_CORRUPT")) {
      // A file damaged where the switch reads it (its schema): no server can be using it, as
      // none starts on it. Its log belongs to the damaged file and must not be replayed onto the
      // restored one.
      target.close();
      rmSync(`${targetFile}-wal`, { force: true });
      return;
    }
    if (code !== "SQLITE_NOTADB") throw error;
  } finally {
    if (target.open) target.close();
  }
}

function openReadOnly(file: string): Database.Database {
  try {
    return new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
  } catch (error) {
    throw asBackupError(error, `cannot open ${file}`);
  }
}

/** Checks the written copy, syncs it, and renames it over the target (atomic on one file system). */
function putInPlace(temporary: string, targetFile: string, schemaVersion: number): BackupSummary {
  try {
    const copy = new Database(temporary, { readonly: true, fileMustExist: true });
    try {
      checkTackDatabase(copy, temporary);
    } finally {
      copy.close();
    }
    // VACUUM INTO does not sync what it writes; a backup must survive a power cut too.
    syncFile(temporary);
    renameSync(temporary, targetFile);
    syncFile(dirname(resolve(targetFile)));
  } catch (error) {
    rmSync(temporary, { force: true });
    if (isDiskFull(error)) throw diskFullError(temporary, targetFile);
    throw asBackupError(error, `cannot write ${targetFile}`);
  }
  return { file: targetFile, schemaVersion, bytes: statSync(targetFile).size };
}

/** A name beside `file` (same folder, so the final rename stays on one file system). */
function temporaryBeside(file: string): string {
  const unique = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  return join(dirname(resolve(file)), `.${basename(file)}.${unique}.partial`);
}

function syncFile(path: string): void {
  const descriptor = openSync(path, "r");
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** Where the disk is full, how much is free there, and about how much the copy needs. */
function diskFullError(sourceFile: string, targetFile: string): BackupError {
  const folder = dirname(resolve(targetFile));
  const free = freeBytes(folder);
  let needed = "";
  try {
    // The copy holds what the file and its log hold, at most (a copy has no free pages).
    const wal = existsSync(`${sourceFile}-wal`) ? statSync(`${sourceFile}-wal`).size : 0;
    needed = `, up to ${formatBytes(statSync(sourceFile).size + wal)} needed`;
  } catch {
    // the size is only a hint
  }
  const space = free === undefined ? "" : ` (${formatBytes(free)} free${needed})`;
  return new BackupError(`cannot write ${targetFile}: the disk holding ${folder} is full${space}`);
}

function asBackupError(error: unknown, context: string): BackupError {
  if (error instanceof BackupError) return error;
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return new BackupError(`${context}: ${message}`);
}
