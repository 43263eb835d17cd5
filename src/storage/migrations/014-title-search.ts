import type { Db } from "../db.js";
import { BATCH, defer, references } from "./007-search-index-parts.js";

/**
 * The title's search text on the ticket row (docs/performance.md, "Search index").
 * `ticket_texts.search_text` held the folded title and body together, so a title edit rewrote the
 * whole text row, both bodies included (~3.4 KB for a typical ticket), and its trigger compared the
 * old and new text's first line and rest to tell the index which part changed. Now:
 *
 * - `tickets.title_search` holds the folded title (written with the title, in the row a title
 *   edit writes anyway);
 * - `ticket_texts.search_text` holds the folded Markdown body alone.
 *
 * A search matches `q` in `title_search || char(10) || search_text` as before (the line break
 * only when both are non-empty: storage/tickets.ts), so answers do not change. The index parts
 * (migration 007) become part 0 = `title_search`, part 1 = `search_text`; they were the first line
 * of the joined text and the rest, which is the same text unless a title holds a line break:
 * only those tickets are listed for re-indexing.
 *
 * The existing values are split from the stored joined text, which was folded by the same
 * function that folds new writes (domain/search-text.ts): the title's part ends at the line
 * break after as many line breaks as the title has (folding keeps line breaks). Tickets in the
 * trash are snapshots of their rows (storage/trash.ts), split the same way, so a restored ticket
 * comes back in the new layout.
 */
export function titleSearch(db: Db): void {
  // Applied already (a database whose user_version was set back by hand): splitting the texts
  // again would cut each body at its own line breaks.
  const applied = db
    .prepare("SELECT 1 FROM pragma_table_info('tickets') WHERE name = 'title_search'")
    .get();
  if (applied) return;
  db.exec(`
    DROP TRIGGER ticket_search_text_changed;
    ALTER TABLE tickets ADD COLUMN title_search TEXT NOT NULL DEFAULT '';
  `);
  const rows = db
    .prepare(
      "SELECT t.id, t.title, x.search_text FROM tickets t JOIN ticket_texts x ON x.ticket_id = t.id",
    )
    .raw(true)
    .all() as Array<[number, string, string]>;
  const setTitle = db.prepare<[string, number]>("UPDATE tickets SET title_search = ? WHERE id = ?");
  const setBody = db.prepare<[string, number]>(
    "UPDATE ticket_texts SET search_text = ? WHERE ticket_id = ?",
  );
  const reindex = db.prepare<[number, number]>(
    `INSERT INTO ticket_search_pending (ticket_id, parts) VALUES (?, ?)
     ON CONFLICT (ticket_id) DO UPDATE SET parts = parts | excluded.parts`,
  );
  for (const [id, title, stored] of rows) {
    const parts = splitSearchText(title, stored);
    setTitle.run(parts.title, id);
    setBody.run(parts.body, id);
    const changed = indexedParts(stored);
    const stale = (changed.title !== parts.title ? 1 : 0) | (changed.body !== parts.body ? 2 : 0);
    if (stale !== 0) reindex.run(id, stale);
  }
  splitTrashSnapshots(db);
  db.exec(`
    CREATE TRIGGER ticket_search_text_changed AFTER UPDATE OF search_text ON ticket_texts
    WHEN OLD.search_text IS NOT NEW.search_text
    BEGIN ${defer("NEW.ticket_id", "2")}
    END;

    CREATE TRIGGER ticket_search_title_changed AFTER UPDATE OF title_search ON tickets
    WHEN OLD.title_search IS NOT NEW.title_search
    BEGIN
      INSERT INTO ticket_search_pending (ticket_id, parts) VALUES (NEW.id, 1)
      ON CONFLICT (ticket_id) DO UPDATE SET parts = parts | 1 WHERE parts & 1 = 0;
    END;
  `);
}

/**
 * A ticket's stored joined search text (`searchTextOf(title, body)`: either part left out when
 * empty) split into its title's and its body's parts.
 */
export function splitSearchText(title: string, stored: string): { title: string; body: string } {
  if (title === "") return { title: "", body: stored };
  let end = -1;
  for (let breaks = title.split("\n").length; breaks > 0; breaks--) {
    end = stored.indexOf("\n", end + 1);
    if (end < 0) return { title: stored, body: "" };
  }
  return { title: stored.slice(0, end), body: stored.slice(end + 1) };
}

/** The index parts 0 and 1 as migration 007 cut them: the first line, and the rest. */
function indexedParts(stored: string): { title: string; body: string } {
  const end = stored.indexOf("\n");
  return end < 0
    ? { title: stored, body: "" }
    : { title: stored.slice(0, end), body: stored.slice(end + 1) };
}

type Row = Record<string, string | number | null>;

/** Trash snapshots hold `tickets` and `ticket_texts` rows as `SELECT *` gave them. */
function splitTrashSnapshots(db: Db): void {
  const entries = db.prepare("SELECT id, snapshot FROM trash").raw(true).all() as Array<
    [number, string]
  >;
  const update = db.prepare<[string, number]>("UPDATE trash SET snapshot = ? WHERE id = ?");
  for (const [id, json] of entries) {
    const snapshot = JSON.parse(json) as { rows?: { tickets?: Row[]; ticket_texts?: Row[] } };
    const tickets = snapshot.rows?.tickets;
    const texts = snapshot.rows?.ticket_texts;
    if (!tickets || tickets.length === 0) continue;
    const textOf = new Map((texts ?? []).map((text) => [Number(text.ticket_id), text]));
    for (const ticket of tickets) {
      const text = textOf.get(Number(ticket.id));
      const parts = splitSearchText(String(ticket.title ?? ""), String(text?.search_text ?? ""));
      ticket.title_search = parts.title;
      if (text) text.search_text = parts.body;
    }
    update.run(JSON.stringify(snapshot), id);
  }
}

/** Indexes the pending parts of one step (empty parts get no row); replaces 007's. */
export const INDEX_PENDING = `
  WITH batch AS (${BATCH}),
  texts (id, text) AS (
    SELECT b.ticket_id * 4, t.title_search
      FROM batch b JOIN tickets t ON t.id = b.ticket_id WHERE b.parts & 1
    UNION ALL SELECT b.ticket_id * 4 + 1, x.search_text
      FROM batch b JOIN ticket_texts x ON x.ticket_id = b.ticket_id WHERE b.parts & 2
    UNION ALL SELECT b.ticket_id * 4 + 2, ${references("b.ticket_id")}
      FROM batch b WHERE b.parts & 4)
  INSERT INTO ticket_search (rowid, text) SELECT id, text FROM texts WHERE text <> ''`;
