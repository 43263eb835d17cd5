import type { Db } from "./database.js";
import { DRAIN_PENDING, UNINDEX_PENDING } from "./migrations/007-search-index-parts.js";
import { INDEX_PENDING } from "./migrations/014-title-search.js";

/**
 * The trigram index of ticket search (migrations/005-search-index.ts, in parts since
 * 007-search-index-parts.ts, the title's part from the ticket row since 014-title-search.ts). Triggers list every ticket whose searchable text was written as
 * pending, with the parts that changed; this store rewrites the index rows of those parts (domain/search-indexer.ts runs it in the background), and turns a folded query into an
 * FTS5 match.
 */
export function searchIndexStore(db: Db) {
  const unindexPending = db.prepare<[{ limit: number }]>(UNINDEX_PENDING);
  const indexPending = db.prepare<[{ limit: number }]>(INDEX_PENDING);
  const drainPending = db.prepare<[{ limit: number }]>(DRAIN_PENDING);
  const anyPending = db
    .prepare("SELECT EXISTS (SELECT 1 FROM ticket_search_pending) AS pending")
    .pluck();

  return {
    /** Whether any ticket waits for its index rows: a read, so an idle server takes no lock. */
    hasPending(): boolean {
      return anyPending.get() === 1;
    },

    /** Indexes up to `limit` pending tickets; returns how many left the pending list. */
    indexPending(limit: number): number {
      unindexPending.run({ limit });
      indexPending.run({ limit });
      return drainPending.run({ limit }).changes;
    },
  };
}

export type SearchIndexStore = ReturnType<typeof searchIndexStore>;

/** Characters a trigram is made of; a query needs at least this many to use the index. */
export const TRIGRAM = 3;

/**
 * The FTS5 query that finds every indexed ticket whose text contains `folded` (folded like the
 * index), or null when it is too short for trigrams (the search scans then). Trigrams at every
 * third character plus the last one cover the query; candidates are checked against the text
 * anyway, so fewer terms only cost a few more candidates and save intersecting posting lists.
 */
export function trigramMatch(folded: string): string | null {
  const characters = [...folded];
  if (characters.length < TRIGRAM) return null;
  // The index holds each part of a ticket's text (title, body, references) as its own row, and
  // the parts meet at line breaks: a query spanning one is found by the scan.
  if (folded.includes("\n")) return null;
  const terms = new Set<string>();
  for (let start = 0; start + TRIGRAM <= characters.length; start += TRIGRAM) {
    terms.add(characters.slice(start, start + TRIGRAM).join(""));
  }
  terms.add(characters.slice(-TRIGRAM).join(""));
  return [...terms].map((term) => `"${term.replaceAll('"', '""')}"`).join(" AND ");
}
