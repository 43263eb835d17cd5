import Database from "better-sqlite3";
import { type MigrationContext, migrations } from "../../src/storage/migrations/index.js";

/** What migrations get here: no stored Markdown exists while they run, so neither is used. */
const NO_STORED_MARKDOWN: MigrationContext = {
  renderMarkdown: (markdown) => markdown,
  countChecklist: () => ({ done: 0, total: 0 }),
};

/**
 * Creates `file` as an earlier tack left it: the first `version` migrations applied, and
 * `user_version` saying so. The next start runs each later migration exactly once, as an upgrade
 * does (rewinding `user_version` on a current database would run migrations a second time).
 * `rows` is SQL that fills it in that version's schema. No stored Markdown exists yet while the
 * migrations run, so the renderer they get is never used.
 */
export function databaseAtVersion(file: string, version: number, rows = ""): void {
  const db = new Database(file);
  try {
    for (const migration of migrations.slice(0, version)) {
      if (typeof migration === "string") db.exec(migration);
      else migration(db, NO_STORED_MARKDOWN);
    }
    db.pragma(`user_version = ${version}`);
    db.exec(rows);
  } finally {
    db.close();
  }
}

/**
 * Takes from a current database what the migrations after the first `version` created: their
 * tables, indexes and triggers, and the columns they added to older tables (rows in them go
 * too). A test that rewinds `user_version` to fake an older database calls this first, so the
 * upgrade runs each later migration once, as on a database that never had them.
 */
export function undoMigrationsAfter(db: Database.Database, version: number): void {
  const reference = new Database(":memory:");
  try {
    for (const migration of migrations.slice(0, version)) {
      if (typeof migration === "string") reference.exec(migration);
      else migration(reference, NO_STORED_MARKDOWN);
    }
    const objects = (of: Database.Database) =>
      of
        .prepare("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")
        .all() as Array<{ type: string; name: string }>;
    const known = new Set(objects(reference).map(({ name }) => name));
    const added = objects(db).filter(({ name }) => !known.has(name));
    for (const type of ["trigger", "index", "table"]) {
      for (const object of added.filter((each) => each.type === type)) {
        db.exec(`DROP ${type.toUpperCase()} IF EXISTS "${object.name}"`);
      }
    }
    const columns = (of: Database.Database, table: string) =>
      (of.pragma(`table_info("${table}")`) as Array<{ name: string }>).map(({ name }) => name);
    for (const { type, name } of objects(reference)) {
      if (type !== "table") continue;
      const kept = new Set(columns(reference, name));
      for (const column of columns(db, name).filter((each) => !kept.has(each))) {
        db.exec(`ALTER TABLE "${name}" DROP COLUMN "${column}"`);
      }
    }
    db.pragma(`user_version = ${version}`);
  } finally {
    reference.close();
  }
}
