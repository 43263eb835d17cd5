import type { Db } from "../db.js";

/**
 * Tables whose `id` names a resource a client can hold on to. Without AUTOINCREMENT, SQLite hands
 * the highest id out again once its row is deleted, so a client's late DELETE of a comment it had
 * already removed could delete somebody else's new comment. With AUTOINCREMENT, SQLite records
 * the largest id a table ever had in `sqlite_sequence` and never goes below it.
 */
const TABLES_WITH_IDS = [
  "boards",
  "lanes",
  "tags",
  "tickets",
  "comments",
  "activity",
  "ticket_events",
  "external_references",
] as const;

/**
 * Rebuilds each table with `id INTEGER PRIMARY KEY AUTOINCREMENT`, keeping every row and id
 * (the 12-step table rebuild of SQLite's ALTER TABLE documentation; the migration runner turns
 * foreign keys off around it and checks them before commit). The new definition is the old one
 * with AUTOINCREMENT added, so nothing else about the table changes; its indexes are recreated
 * from their stored definitions.
 *
 * The sequence starts at the largest id still present; ids deleted above it before this
 * migration are not known and may be given once more. For tickets, activity keeps the ids of
 * deleted tickets, so their sequence starts above those too.
 */
export function idsNeverReused(db: Db): void {
  for (const table of TABLES_WITH_IDS) {
    const definition = db
      .prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?")
      .pluck()
      .get(table) as string;
    const indexes = db
      .prepare(
        "SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
      )
      .pluck()
      .all(table) as string[];
    const rebuilt = definition
      .replace(/^CREATE TABLE \w+/, `CREATE TABLE ${table}_rebuilt`)
      .replace(/\bid\s+INTEGER PRIMARY KEY\b/, "id INTEGER PRIMARY KEY AUTOINCREMENT");
    if (!rebuilt.includes("AUTOINCREMENT")) throw new Error(`${table}: no integer id column`);
    db.exec(rebuilt);
    db.exec(`INSERT INTO ${table}_rebuilt SELECT * FROM ${table}`);
    db.exec(`DROP TABLE ${table}`);
    db.exec(`ALTER TABLE ${table}_rebuilt RENAME TO ${table}`);
    for (const index of indexes) db.exec(index);
  }
  const deletedTicketIds = "(SELECT max(subject_ticket_id) FROM activity)";
  db.exec(`UPDATE sqlite_sequence SET seq = max(seq, coalesce(${deletedTicketIds}, 0))
    WHERE name = 'tickets'`);
  db.exec(`INSERT INTO sqlite_sequence (name, seq)
    SELECT 'tickets', highest FROM (SELECT ${deletedTicketIds} AS highest)
    WHERE highest IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'tickets')`);
}
