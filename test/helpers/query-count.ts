import type { Db } from "../../src/storage/database.js";

/**
 * Counts the reads (`all`, `get`, `iterate`) the server runs while `work` runs, for "a fixed
 * number of queries whatever the board size" tests. The server indexes written tickets for search
 * in background transactions of its own (src/domain/search-indexer.ts), which are not the
 * request's reading: the count starts once that work is done, and the indexer's idle look for
 * pending tickets is not counted.
 */
export async function countReads(db: Db, work: () => Promise<unknown>): Promise<number> {
  const pending = db.prepare("SELECT count(*) FROM ticket_search_pending").pluck();
  while ((pending.get() as number) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  // The indexer's last step may have removed the rows but not yet finished its transaction.
  await new Promise((resolve) => setTimeout(resolve, 20));

  const statement = Object.getPrototypeOf(db.prepare("SELECT 1"));
  const originals = { all: statement.all, get: statement.get, iterate: statement.iterate };
  let count = 0;
  for (const name of ["all", "get", "iterate"] as const) {
    statement[name] = function (this: { source: string }, ...args: unknown[]) {
      if (!this.source.includes("ticket_search_pending")) count++;
      return originals[name].apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    Object.assign(statement, originals);
  }
  return count;
}
