/**
 * The search index (`ticket_search`, FTS5) no longer merges a little on every write. By default
 * FTS5 follows each transaction that writes to it with some incremental merging of its segments
 * ('automerge' 4): on a 10,000-ticket board that merging, and the tombstone checks it makes on
 * every entry it copies, was most of a title PATCH's SQL (~0.1-0.2 ms of ~0.4 ms, measured with
 * `perf` on the PATCH's statements alone). With 'automerge' 0, a level's segments are merged only
 * when it holds 'crisismerge' (16) of them, all at once, and a query reads at most 16 segments
 * a level (docs/decisions.md, "Search index: rows rewritten in the background"). The setting
 * is stored in the index's own config table, so it travels with the database file.
 */
export const searchMergesBounded = `
INSERT INTO ticket_search (ticket_search, rank) VALUES ('automerge', 0);`;
