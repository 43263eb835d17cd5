/**
 * A ticket's title part of the search index (part 0, rowid `ticket id * 4`: migration 007) is
 * rewritten by the title's own write, inside its transaction, instead of listing the ticket for
 * the background indexer (docs/performance.md, "Search index"). A title is ~30 trigrams: writing
 * them costs a title PATCH less than the pending row it replaces, the indexer's own transaction
 * for it and that transaction's log pages. Bodies and references stay with the indexer (a body's
 * thousand trigrams in the request cost more than its queue row).
 *
 * A ticket already pending with its title part (an import, a start before the indexer caught up)
 * stays pending: the indexer rewrites the same row from the same column, so the order of the two
 * writes does not matter.
 */
export const titleIndexedInline = `
DROP TRIGGER ticket_search_title_changed;

CREATE TRIGGER ticket_search_title_changed AFTER UPDATE OF title_search ON tickets
WHEN OLD.title_search IS NOT NEW.title_search
BEGIN
  DELETE FROM ticket_search WHERE rowid = NEW.id * 4;
  INSERT INTO ticket_search (rowid, text)
    SELECT NEW.id * 4, NEW.title_search WHERE NEW.title_search <> '';
END;`;
