import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { Statement } from "better-sqlite3";
import { openDatabase } from "../../src/storage/database.js";
import type { Db } from "../../src/storage/db.js";
import { IN_IDS } from "../../src/storage/id-lists.js";
import { createStores } from "../../src/storage/index.js";

// A statement bound to a list of ids (IN_IDS) is run once per page or batch of ids: it must
// read those ids' rows through an index on them, never a whole board or table, or its cost per
// batch grows with the board and a board-wide job of batches (an export, an import) with its
// square. The board export's `parentsAmong` did (the planner took tickets_by_board). The
// plans are the schema's (tack runs no ANALYZE), so they hold on any database.

const folder = mkdtempSync(join(tmpdir(), "tack-id-list-plans-"));
after(() => rmSync(folder, { recursive: true, force: true }));
const db = openDatabase(join(folder, "tack.sqlite"));
after(() => db.close());

/** Every statement the stores prepare, by its SQL text. */
function preparedStatements(): string[] {
  const sources: string[] = [];
  const recording = new Proxy(db, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          sources.push(sql);
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as Db;
  createStores(recording);
  return sources;
}

/** The query plan's lines, every parameter bound to null. */
function planOf(sql: string): string[] {
  const explain: Statement = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const named = [...sql.matchAll(/[@:$]([A-Za-z_]\w*)/g)].map((match) => match[1] as string);
  const positional = (sql.match(/\?/g) ?? []).map(() => null);
  const parameters: unknown[] = [...positional];
  if (named.length > 0) parameters.push(Object.fromEntries(named.map((name) => [name, null])));
  return explain.all(...parameters).map((row) => (row as { detail: string }).detail);
}

test("statements bound to a list of ids read those ids' rows, not a board's or a table's", () => {
  const bound = preparedStatements().filter((sql) => sql.includes(IN_IDS));
  assert.ok(bound.length >= 10, `expected the stores' id-list statements, found ${bound.length}`);
  for (const sql of bound) {
    const plan = planOf(sql);
    const text = sql.replace(/\s+/g, " ");
    for (const line of plan) {
      // A table read whole (the id list itself, json_each, is the one scan expected).
      assert.doesNotMatch(
        line,
        /^SCAN (?!json_each)/,
        `${text}\n  scans a table: ${plan.join(" | ")}`,
      );
      // A board's tickets read whole, whatever ids were asked for.
      assert.doesNotMatch(
        line,
        /INDEX tickets_\w+ \(board_id=\?\)$/,
        `${text}\n  reads the board's tickets: ${plan.join(" | ")}`,
      );
    }
  }
});
