import Database from "better-sqlite3";
import { migrations } from "../../src/storage/migrations/index.js";

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
      else
        migration(db, {
          renderMarkdown: (markdown) => markdown,
          countChecklist: () => ({ done: 0, total: 0 }),
        });
    }
    db.pragma(`user_version = ${version}`);
    db.exec(rows);
  } finally {
    db.close();
  }
}
