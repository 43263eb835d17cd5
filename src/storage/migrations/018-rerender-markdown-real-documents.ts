import type { Db } from "../db.js";
import { rerenderMarkdown } from "./006-rerender-markdown.js";
import type { MigrationContext } from "./migration.js";

/**
 * Bodies render as GitHub shows real documents now (`align`, `width` and `height` kept,
 * `<picture>`, `~single~` strikethrough, an autolink's text as typed, a leading byte-order mark
 * skipped, headings with `user-content-` anchors and `#slug` links that stay in the page:
 * src/domain/markdown.ts), so every piece of stored HTML is rendered again from its Markdown:
 *
 * - the bodies of tickets, comments and tracked remote issues, as migrations 006 and 009 did;
 * - an ask's question and answer (migration 016);
 * - the rows kept in the trash's snapshots (storage/trash.ts), so a restored ticket or comment
 *   comes back with the HTML a new one would get. A snapshot holds rows as `SELECT *` gave them,
 *   so every object in it with a Markdown column and its HTML column is rendered again, whatever
 *   table it came from.
 */
export function rerenderMarkdownRealDocuments(db: Db, context: MigrationContext): void {
  rerenderMarkdown(db, context);

  const asks = db.prepare("SELECT id, question, answer_text FROM asks").all() as {
    id: number;
    question: string;
    answer_text: string | null;
  }[];
  const updateAsk = db.prepare("UPDATE asks SET question_html = ?, answer_html = ? WHERE id = ?");
  for (const ask of asks) {
    const answer = ask.answer_text === null ? null : context.renderMarkdown(ask.answer_text);
    updateAsk.run(context.renderMarkdown(ask.question), answer, ask.id);
  }

  const entries = db.prepare("SELECT id, snapshot FROM trash").all() as {
    id: number;
    snapshot: string;
  }[];
  const updateEntry = db.prepare("UPDATE trash SET snapshot = ? WHERE id = ?");
  for (const entry of entries) {
    const snapshot = JSON.parse(entry.snapshot) as unknown;
    if (renderRowsAgain(snapshot, context)) updateEntry.run(JSON.stringify(snapshot), entry.id);
  }
}

/** A Markdown column and the HTML column rendered from it, as the tables name them. */
const RENDERED_COLUMNS = [
  ["body_markdown", "body_html"],
  ["question", "question_html"],
  ["answer_text", "answer_html"],
] as const;

/** Renders the HTML columns of every row object inside `value` again; true if any changed. */
function renderRowsAgain(value: unknown, context: MigrationContext): boolean {
  if (typeof value !== "object" || value === null) return false;
  let changed = false;
  if (Array.isArray(value)) {
    for (const item of value) changed = renderRowsAgain(item, context) || changed;
    return changed;
  }
  const row = value as Record<string, unknown>;
  for (const [markdownColumn, htmlColumn] of RENDERED_COLUMNS) {
    const markdown = row[markdownColumn];
    if (typeof markdown !== "string" || !(htmlColumn in row)) continue;
    const html = context.renderMarkdown(markdown);
    if (row[htmlColumn] !== html) {
      row[htmlColumn] = html;
      changed = true;
    }
  }
  for (const nested of Object.values(row)) changed = renderRowsAgain(nested, context) || changed;
  return changed;
}
