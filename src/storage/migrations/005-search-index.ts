/**
 * The search index of the board list's `q` (docs/api.md, "Search", docs/performance.md): one FTS5
 * row per ticket, keyed by the ticket id, holding the folded text a search looks at (the ticket's
 * `search_text`, its tracked link's and its external references'), tokenized into trigrams so
 * that any substring of 3+ characters is found through the index. The text is folded in
 * JavaScript already (domain/search-text.ts), so the tokenizer must not fold again
 * (case_sensitive 1). Contentless (content = ''): the text is stored once, in the tables it
 * comes from; detail = 'none': a search ANDs trigrams and checks every candidate against the
 * tables anyway, so positions would only cost space and write time (3x).
 *
 * Triggers keep the index in step with every write of those texts, in the writer's
 * transaction, whoever writes: they list the ticket in `ticket_search_pending`, and searches take
 * every pending ticket as a candidate, so an answer never depends on the index having caught up.
 * The server rewrites the index rows of pending tickets in the background, many per transaction
 * (domain/search-indexer.ts): writing a ticket's ~1,000 trigrams in the request's own
 * transaction cost a title PATCH ~0.6-0.8 ms CPU (a new index segment per commit). A board
 * import lists its tickets the same way (storage/board-export.ts), as this migration lists
 * every existing ticket.
 *
 * Superseded by 007-search-index-parts.ts (one row per part of a ticket's text); kept as shipped.
 */

/**
 * Lists ticket `id` as pending (its index row, if any, may be stale until the indexer rewrites
 * it). Not for a ticket being deleted: its pending row would point at nothing (the EXISTS).
 */
const defer = (id: string) => `
  INSERT OR IGNORE INTO ticket_search_pending (ticket_id)
    SELECT id FROM tickets WHERE id = ${id};`;

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
BEGIN ${defer("NEW.ticket_id")}
END;

CREATE TRIGGER ticket_search_text_changed AFTER UPDATE OF search_text ON ticket_texts
WHEN OLD.search_text IS NOT NEW.search_text
BEGIN ${defer("NEW.ticket_id")}
END;

CREATE TRIGGER ticket_search_text_removed AFTER DELETE ON ticket_texts
BEGIN
  DELETE FROM ticket_search WHERE rowid = OLD.ticket_id;
END;

CREATE TRIGGER ticket_search_link_added AFTER INSERT ON remote_links
BEGIN ${defer("NEW.ticket_id")}
END;

CREATE TRIGGER ticket_search_link_changed AFTER UPDATE OF search_text ON remote_links
WHEN OLD.search_text IS NOT NEW.search_text
BEGIN ${defer("NEW.ticket_id")}
END;

CREATE TRIGGER ticket_search_link_removed AFTER DELETE ON remote_links
BEGIN ${defer("OLD.ticket_id")}
END;

CREATE TRIGGER ticket_search_reference_added AFTER INSERT ON external_references
BEGIN ${defer("NEW.ticket_id")}
END;

CREATE TRIGGER ticket_search_reference_changed AFTER UPDATE OF search_text ON external_references
WHEN OLD.search_text IS NOT NEW.search_text
BEGIN ${defer("NEW.ticket_id")}
END;

CREATE TRIGGER ticket_search_reference_removed AFTER DELETE ON external_references
BEGIN ${defer("OLD.ticket_id")}
END;
`;
