import type { Db } from "../db.js";
import type { MigrationContext } from "./migration.js";

/**
 * A ticket's checklist (docs/api.md, "Checklists"): the counts of the task list items of its
 * body, kept on the ticket row so lists show them without reading bodies; written with every
 * body (domain/tickets/checklists.ts). Existing tickets get theirs here, counted by the domain's
 * parser; a body without anything that could be a box is not parsed.
 *
 * `tickets_not_before` serves the board's ETag, which reads the `notBefore` moments still to
 * come on a board (docs/api.md, "Not before"): a handful, on boards of thousands of tickets.
 */
export function checklistsSchema(db: Db, context: MigrationContext): void {
  db.exec(`
    ALTER TABLE tickets ADD COLUMN checklist_done INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tickets ADD COLUMN checklist_total INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX tickets_not_before ON tickets(board_id, not_before)
      WHERE not_before IS NOT NULL;
  `);
  const rows = db
    .prepare(
      `SELECT ticket_id AS id, body_markdown AS markdown FROM ticket_texts
       WHERE body_markdown GLOB '*[[][ xX]]*' OR instr(body_markdown, char(91, 160, 93)) > 0`,
    )
    .all() as { id: number; markdown: string }[];
  const update = db.prepare(
    "UPDATE tickets SET checklist_done = ?, checklist_total = ? WHERE id = ?",
  );
  for (const row of rows) {
    const { done, total } = context.countChecklist(row.markdown);
    if (total > 0) update.run(done, total, row.id);
  }
}
