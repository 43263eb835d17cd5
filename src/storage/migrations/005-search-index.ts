/**
 * The search index of the board list's `q` (CONTRACT.md §6, docs/performance.md): one FTS5 row
 * per ticket, keyed by the ticket id, holding the folded text a search looks at (the ticket's
 * `search_text`, its tracked link's and its external references'), tokenized into trigrams so
 * that any substring of 3+ characters is found through the index. The text is folded in
 * JavaScript already (domain/search-text.ts), so the tokenizer must not fold again
 * (case_sensitive 1). Contentless (content = ''): the text is stored once, in the tables it
 * comes from; detail = 'none': a search ANDs trigrams and checks every candidate against the
 * tables anyway, so positions would only cost space and write time (3x).
 *
 * Triggers keep the index in step with every write of those texts, in the writer's
 * transaction, whoever writes. Tickets listed in `ticket_search_pending` are not in the index
 * yet (a board import lists its tickets there instead of indexing thousands of bodies inside
 * its request; this migration lists every existing ticket): searches treat them as candidates
 * and the server indexes them in small transactions in the background (domain/search-indexer.ts).
 */

/** The folded text of ticket `id` as the index holds it (SQL expression over ticket_texts x). */
const DOCUMENT = `x.search_text
  || coalesce((SELECT char(10) || r.search_text FROM remote_links r
               WHERE r.ticket_id = x.ticket_id), '')
  || coalesce((SELECT char(10) || group_concat(e.search_text, char(10))
               FROM external_references e WHERE e.ticket_id = x.ticket_id), '')`;

const notPending = (id: string) =>
  `NOT EXISTS (SELECT 1 FROM ticket_search_pending p WHERE p.ticket_id = ${id})`;

/** Rewrites ticket `id`'s index row from the tables (nothing when it has no text row). */
const refresh = (id: string) => `
  DELETE FROM ticket_search WHERE rowid = ${id};
  INSERT INTO ticket_search (rowid, text)
    SELECT x.ticket_id, ${DOCUMENT} FROM ticket_texts x WHERE x.ticket_id = ${id};`;

export const searchIndexSchema = `
CREATE VIRTUAL TABLE ticket_search USING fts5(
  text, tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1,
  detail = 'none'
);

CREATE TABLE ticket_search_pending (
  ticket_id  INTEGER PRIMARY KEY REFERENCES tickets(id) ON DELETE CASCADE
);
INSERT INTO ticket_search_pending (ticket_id) SELECT id FROM tickets;

CREATE TRIGGER ticket_search_text_added AFTER INSERT ON ticket_texts
WHEN ${notPending("NEW.ticket_id")}
BEGIN
  INSERT INTO ticket_search (rowid, text)
    SELECT x.ticket_id, ${DOCUMENT} FROM ticket_texts x WHERE x.ticket_id = NEW.ticket_id;
END;

CREATE TRIGGER ticket_search_text_changed AFTER UPDATE OF search_text ON ticket_texts
WHEN OLD.search_text IS NOT NEW.search_text AND ${notPending("NEW.ticket_id")}
BEGIN ${refresh("NEW.ticket_id")}
END;

CREATE TRIGGER ticket_search_text_removed AFTER DELETE ON ticket_texts
WHEN ${notPending("OLD.ticket_id")}
BEGIN
  DELETE FROM ticket_search WHERE rowid = OLD.ticket_id;
END;

CREATE TRIGGER ticket_search_link_added AFTER INSERT ON remote_links
WHEN ${notPending("NEW.ticket_id")}
BEGIN ${refresh("NEW.ticket_id")}
END;

CREATE TRIGGER ticket_search_link_changed AFTER UPDATE OF search_text ON remote_links
WHEN OLD.search_text IS NOT NEW.search_text AND ${notPending("NEW.ticket_id")}
BEGIN ${refresh("NEW.ticket_id")}
END;

CREATE TRIGGER ticket_search_link_removed AFTER DELETE ON remote_links
WHEN ${notPending("OLD.ticket_id")}
BEGIN ${refresh("OLD.ticket_id")}
END;

CREATE TRIGGER ticket_search_reference_added AFTER INSERT ON external_references
WHEN ${notPending("NEW.ticket_id")}
BEGIN ${refresh("NEW.ticket_id")}
END;

CREATE TRIGGER ticket_search_reference_changed AFTER UPDATE OF search_text ON external_references
WHEN OLD.search_text IS NOT NEW.search_text AND ${notPending("NEW.ticket_id")}
BEGIN ${refresh("NEW.ticket_id")}
END;

CREATE TRIGGER ticket_search_reference_removed AFTER DELETE ON external_references
WHEN ${notPending("OLD.ticket_id")}
BEGIN ${refresh("OLD.ticket_id")}
END;
`;

/** Indexes up to `limit` pending tickets (named parameter @limit); run with DRAIN_PENDING. */
export const INDEX_PENDING = `
  INSERT INTO ticket_search (rowid, text)
    SELECT x.ticket_id, ${DOCUMENT} FROM ticket_texts x
    WHERE x.ticket_id IN (SELECT ticket_id FROM ticket_search_pending ORDER BY ticket_id LIMIT @limit)`;

/** Removes the tickets INDEX_PENDING just indexed from the pending list (same @limit). */
export const DRAIN_PENDING = `
  DELETE FROM ticket_search_pending
  WHERE ticket_id IN (SELECT ticket_id FROM ticket_search_pending ORDER BY ticket_id LIMIT @limit)`;
