import type { Db } from "./database.js";

/**
 * Rows per statement of a bulk insert. Every `run` has a fixed cost in better-sqlite3, so one run
 * of 100 rows costs a fraction of 100 one-row runs; the widest row written this way (14 values)
 * keeps a statement far below SQLite's limit of 32,766 variables.
 */
export const ROWS_PER_STATEMENT = 100;

/**
 * An INSERT of many rows in few statements. `head` is `INSERT INTO table (columns)`, `row` one
 * row's placeholders, `(?, ?, ...)`, positional only. The returned function takes the values of
 * every row in one flat array, row after row, and inserts them in that order: full chunks with a
 * statement of ROWS_PER_STATEMENT rows (prepared once), the rest with the one-row statement.
 * Values are passed as arguments (spread), not as one array: better-sqlite3 reads an array
 * element by element through V8's generic property lookup, which made binding a third slower.
 */
export function prepareBulkInsert(db: Db, head: string, row: string): (values: unknown[]) => void {
  const width = row.split("?").length - 1;
  const chunk = db.prepare(`${head} VALUES ${new Array(ROWS_PER_STATEMENT).fill(row).join(", ")}`);
  const one = db.prepare(`${head} VALUES ${row}`);
  const chunkWidth = width * ROWS_PER_STATEMENT;
  return (values) => {
    if (values.length % width !== 0) throw new Error(`bulk insert: ${width} values per row`);
    let start = 0;
    for (; start + chunkWidth <= values.length; start += chunkWidth) {
      chunk.run(...values.slice(start, start + chunkWidth));
    }
    for (; start < values.length; start += width) one.run(...values.slice(start, start + width));
  };
}

/**
 * The id SQLite would give the next row of a table whose `id` is `INTEGER PRIMARY KEY
 * AUTOINCREMENT`: one more than the largest id the table ever had (`sqlite_sequence`), so an id
 * of a deleted row never comes back. Bulk inserts write these ids explicitly (first, first + 1,
 * ...) so the ids are known without reading them back and are exactly those one-row inserts in
 * the same order would have been given; SQLite moves the sequence past them. Only valid inside
 * the writing transaction (BEGIN IMMEDIATE: no other writer until commit).
 */
export function prepareNextId(db: Db, table: string): () => number {
  const next = db
    .prepare("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0) + 1")
    .pluck();
  return () => next.get(table) as number;
}
