import Database from "better-sqlite3";

/**
 * Every row of every table of a SQLite file, read through a read-only connection (safe while a
 * server has the file open: WAL readers see the last commit). For "identical" and "unchanged"
 * assertions that cover what no endpoint shows.
 */
export function dumpDatabase(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    const dump: Record<string, unknown[]> = {
      user_version: [db.pragma("user_version", { simple: true })],
    };
    for (const table of tables) {
      // Every column, in a total order (rowid where there is one, else all columns).
      const withoutRowid = db
        .prepare("SELECT 1 FROM sqlite_schema WHERE name = ? AND sql LIKE '%WITHOUT ROWID%'")
        .get(table);
      const columns = (db.pragma(`table_info("${table}")`) as { name: string }[]).map(
        (column) => `"${column.name}"`,
      );
      const order = withoutRowid ? columns.join(", ") : "rowid";
      dump[table] = db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).all();
    }
    return dump;
  } finally {
    db.close();
  }
}

/** Problems SQLite itself finds: integrity and foreign keys. Empty means none. */
export function databaseProblems(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const problems: string[] = [];
    const integrity = db.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") problems.push(`integrity: ${String(integrity)}`);
    for (const row of db.pragma("foreign_key_check") as unknown[]) {
      problems.push(`foreign key: ${JSON.stringify(row)}`);
    }
    return problems;
  } finally {
    db.close();
  }
}
