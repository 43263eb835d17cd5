import type { Db } from "../db.js";
import type { MigrationContext } from "./migration.js";

/**
 * Bodies render the way issue trackers render them now (line breaks, safe inline HTML,
 * highlighted code: src/domain/markdown.ts), so the stored HTML of every ticket, comment and
 * tracked remote body is rendered again from its Markdown, which is kept as sent.
 */
export function rerenderMarkdown(db: Db, context: MigrationContext): void {
  const tables = [
    { table: "ticket_texts", key: "ticket_id" },
    { table: "comments", key: "id" },
    { table: "remote_links", key: "ticket_id" },
  ];
  for (const { table, key } of tables) {
    const rows = db
      .prepare(`SELECT ${key} AS id, body_markdown AS markdown FROM ${table}`)
      .all() as { id: number; markdown: string }[];
    const update = db.prepare(`UPDATE ${table} SET body_html = ? WHERE ${key} = ?`);
    for (const row of rows) update.run(context.renderMarkdown(row.markdown), row.id);
  }
}
