import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { Db } from "./db.js";
import { type Migration, type MigrationContext, migrations } from "./migrations/index.js";

export type { Db } from "./db.js";

/** A problem that prevents the service from starting; its message is shown to the user as is. */
export class StartupError extends Error {}

/**
 * Without a renderer, a database whose stored HTML must be rendered again cannot be upgraded;
 * `tack serve` always passes one.
 */
const NO_RENDERER: MigrationContext = {
  renderMarkdown() {
    throw new StartupError("upgrading this database needs the Markdown renderer: run tack serve");
  },
  countChecklist() {
    throw new StartupError("upgrading this database needs the Markdown parser: run tack serve");
  },
};

/**
 * Opens (creating if needed) the SQLite file, tunes it once, and brings its schema up to date.
 * Every failure becomes a StartupError with a one-line message: the CLI prints it and exits 1.
 */
export function openDatabase(file: string, context: MigrationContext = NO_RENDERER): Db {
  let db: Db;
  try {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    db = new Database(file);
  } catch (error) {
    throw new StartupError(`cannot open database ${file}: ${describeError(error)}`);
  }
  try {
    db.pragma("journal_mode = WAL");
    // FULL: a commit is on disk (the WAL is fsynced) before COMMIT returns, so what is written
    // survives a power cut or an OS crash too, not only a crash of the process (all that NORMAL
    // guarantees in WAL mode). The server replaces this with group commit (group-commit.ts):
    // NORMAL, and answers that wait for one fsync shared by concurrent writes.
    db.pragma("synchronous = FULL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    // 32 MiB of page cache: reads go through the memory map below, so the cache mostly holds
    // a transaction's dirty pages; a large import spills to the WAL beyond it instead of holding
    // 128 MiB (the size before; ~80 MiB less at the peak of a 20,000-ticket import).
    db.pragma("cache_size = -32768");
    db.pragma("mmap_size = 268435456");
    db.pragma("temp_store = MEMORY");
    migrate(db, context);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof StartupError) throw error;
    throw new StartupError(`cannot use database ${file}: ${describeError(error)}`);
  }
}

/** A cheap end-to-end check of the connection, for the health endpoint. */
export function isDatabaseUsable(db: Db): boolean {
  try {
    return db.prepare("SELECT 1 AS ok").get() !== undefined;
  } catch {
    return false;
  }
}

function migrate(db: Db, context: MigrationContext): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > migrations.length) {
    throw new StartupError(
      `database schema version ${current} is newer than this tack supports (${migrations.length}); upgrade tack`,
    );
  }
  if (current === migrations.length) return;
  // Rebuilding a table means dropping the old one, which with foreign keys on would cascade into
  // every table referring to it. The pragma has no effect inside a transaction, so it is switched
  // off around it, and the keys are checked before the migration commits.
  db.pragma("foreign_keys = OFF");
  try {
    db.transaction(() => {
      for (let version = current; version < migrations.length; version++) {
        const migration = migrations[version] as Migration;
        if (typeof migration === "string") db.exec(migration);
        else migration(db, context);
      }
      const broken = db.pragma("foreign_key_check") as unknown[];
      if (broken.length > 0) throw new Error(`migration left ${broken.length} broken references`);
      db.pragma(`user_version = ${migrations.length}`);
    }).immediate();
  } finally {
    db.pragma("foreign_keys = ON");
  }
}

/** The first line of an error's message, for one-line reports. */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? "unknown error";
}
