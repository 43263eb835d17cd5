/**
 * The search index in parts (docs/performance.md, "Search index"). Migration 005 gave each ticket
 * one FTS5 row holding all its folded text, so renaming a ticket re-indexed the ~1,000 trigrams
 * of its whole body: ~0.3 ms of CPU per title edit, a fifth of the edit's cost. Now each ticket
 * has up to three rows, one per part of its text, and a write re-indexes only the parts whose
 * text changed:
 *
 * - part 0, the first line of the ticket's `search_text` (its title);
 * - part 1, the rest of `search_text` (its Markdown body);
 * - part 2, the folded text of its tracked link and external references.
 *
 * A part's FTS5 rowid is `ticket id * 4 + part`, so `rowid >> 2` is the ticket. A query without
 * a line break that occurs in a ticket's text occurs within one part (the parts are split at line
 * breaks), so the rows still give every candidate; a query with a line break is answered by the
 * scan (storage/search-index.ts, trigramMatch). Candidates are checked against the tables as
 * before, so answers do not change.
 *
 * `ticket_search_pending` says which parts of a ticket wait for the indexer, as bits (1, 2, 4);
 * the triggers compare the old and new text of each part. Every existing ticket is listed with
 * all its parts; the server indexes them in the background (searches scan them meanwhile).
 */

/** The first line of a `search_text` value (part 0). */
const head = (text: string) => `substr(${text}, 1, instr(${text} || char(10), char(10)) - 1)`;
/** Everything after the first line break of a `search_text` value (part 1; '' if none). */
const tail = (text: string) => `substr(${text}, instr(${text} || char(10), char(10)) + 1)`;

/** The folded text of ticket `id`'s tracked link and external references (part 2). */
export const references = (id: string) => `coalesce((SELECT r.search_text FROM remote_links r
      WHERE r.ticket_id = ${id}), '')
  || coalesce((SELECT char(10) || group_concat(e.search_text, char(10))
      FROM external_references e WHERE e.ticket_id = ${id}), '')`;

/**
 * Lists `parts` (an SQL expression of bits) of ticket `id` as pending, added to any parts
 * already waiting; the row is left alone when it already lists them all (no write). Not for a
 * ticket being deleted: its pending row would point at nothing (the SELECT from tickets).
 */
export const defer = (id: string, parts: string) => `
  INSERT INTO ticket_search_pending (ticket_id, parts)
    SELECT id, ${parts} FROM tickets WHERE id = ${id}
  ON CONFLICT (ticket_id) DO UPDATE SET parts = parts | excluded.parts
    WHERE parts | excluded.parts <> parts;`;

/** The triggers listing part 2 (references) when a row of `table` is added, changed or removed. */
const referencePartTriggers = (name: string, table: string) => `
CREATE TRIGGER ticket_search_${name}_added AFTER INSERT ON ${table}
BEGIN ${defer("NEW.ticket_id", "4")}
END;

CREATE TRIGGER ticket_search_${name}_changed AFTER UPDATE OF search_text ON ${table}
WHEN OLD.search_text IS NOT NEW.search_text
BEGIN ${defer("NEW.ticket_id", "4")}
END;

CREATE TRIGGER ticket_search_${name}_removed AFTER DELETE ON ${table}
BEGIN ${defer("OLD.ticket_id", "4")}
END;`;

const changedParts = `(${head("OLD.search_text")} IS NOT ${head("NEW.search_text")})
    | ((${tail("OLD.search_text")} IS NOT ${tail("NEW.search_text")}) << 1)`;

export const searchIndexParts = `
DROP TRIGGER ticket_search_text_added;
DROP TRIGGER ticket_search_text_changed;
DROP TRIGGER ticket_search_text_removed;
DROP TRIGGER ticket_search_link_added;
DROP TRIGGER ticket_search_link_changed;
DROP TRIGGER ticket_search_link_removed;
DROP TRIGGER ticket_search_reference_added;
DROP TRIGGER ticket_search_reference_changed;
DROP TRIGGER ticket_search_reference_removed;
DROP TABLE ticket_search;
DROP TABLE ticket_search_pending;

CREATE VIRTUAL TABLE ticket_search USING fts5(
  text, tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1,
  detail = 'none'
);

CREATE TABLE ticket_search_pending (
  ticket_id  INTEGER PRIMARY KEY REFERENCES tickets(id) ON DELETE CASCADE,
  parts      INTEGER NOT NULL DEFAULT 7
);
INSERT INTO ticket_search_pending (ticket_id, parts) SELECT id, 7 FROM tickets;

CREATE TRIGGER ticket_search_text_added AFTER INSERT ON ticket_texts
BEGIN ${defer("NEW.ticket_id", "7")}
END;

CREATE TRIGGER ticket_search_text_changed AFTER UPDATE OF search_text ON ticket_texts
WHEN OLD.search_text IS NOT NEW.search_text
BEGIN ${defer("NEW.ticket_id", changedParts)}
END;

CREATE TRIGGER ticket_search_text_removed AFTER DELETE ON ticket_texts
BEGIN
  DELETE FROM ticket_search
  WHERE rowid IN (OLD.ticket_id * 4, OLD.ticket_id * 4 + 1, OLD.ticket_id * 4 + 2);
END;

${referencePartTriggers("link", "remote_links")}
${referencePartTriggers("reference", "external_references")}`;

/** The pending tickets of one indexing step, lowest ids first (named parameter @limit). */
export const BATCH =
  "SELECT ticket_id, parts FROM ticket_search_pending ORDER BY ticket_id LIMIT @limit";

/** Drops the (stale) index rows of the pending parts of one step; then INDEX_PENDING. */
export const UNINDEX_PENDING = `
  WITH batch AS (${BATCH})
  DELETE FROM ticket_search WHERE rowid IN (
    SELECT ticket_id * 4 FROM batch WHERE parts & 1
    UNION ALL SELECT ticket_id * 4 + 1 FROM batch WHERE parts & 2
    UNION ALL SELECT ticket_id * 4 + 2 FROM batch WHERE parts & 4)`;

/** Indexes the pending parts of one step (empty parts get no row); then DRAIN_PENDING. */
export const INDEX_PENDING = `
  WITH batch AS (${BATCH}),
  texts (id, text) AS (
    SELECT b.ticket_id * 4, ${head("x.search_text")}
      FROM batch b JOIN ticket_texts x ON x.ticket_id = b.ticket_id WHERE b.parts & 1
    UNION ALL SELECT b.ticket_id * 4 + 1, ${tail("x.search_text")}
      FROM batch b JOIN ticket_texts x ON x.ticket_id = b.ticket_id WHERE b.parts & 2
    UNION ALL SELECT b.ticket_id * 4 + 2, ${references("b.ticket_id")}
      FROM batch b WHERE b.parts & 4)
  INSERT INTO ticket_search (rowid, text) SELECT id, text FROM texts WHERE text <> ''`;

/** Removes the tickets of the step just indexed from the pending list (same @limit). */
export const DRAIN_PENDING = `
  DELETE FROM ticket_search_pending
  WHERE ticket_id IN (SELECT ticket_id FROM ticket_search_pending ORDER BY ticket_id LIMIT @limit)`;

/** Tickets whose indexed text may contain @match (an FTS5 query), once each or more. */
export const INDEXED_CANDIDATES =
  "SELECT rowid >> 2 FROM ticket_search WHERE ticket_search MATCH @match";
