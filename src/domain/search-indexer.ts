import type { SearchIndexStore } from "../storage/search-index.js";
import type { Transact } from "./transaction.js";

/**
 * Tickets per background step: ~10-15 ms of indexing on this machine class, so requests that
 * arrive meanwhile wait at most that long.
 */
const STEP = 100;

/**
 * Indexes, in the background, the tickets the search index does not hold yet: a board import
 * lists its tickets as pending instead of indexing thousands of bodies inside its request, and
 * migration 005 lists every ticket of an existing database. Searches scan pending tickets, so
 * the answers are the same before and after (docs/performance.md). Each step is its own small
 * transaction, and the loop yields to the event loop between steps.
 */
export function searchIndexer(store: SearchIndexStore, transact: Transact) {
  let running: Promise<void> | null = null;
  let stopped = false;
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  async function drain(): Promise<void> {
    await nextTurn();
    while (!stopped && transact(() => store.indexPending(STEP)) > 0) await nextTurn();
  }

  return {
    /**
     * Starts indexing pending tickets unless it is already under way; resolves when done. A
     * failed step leaves its tickets pending (searches still scan them); the next schedule
     * (the next import, the next start) tries again.
     */
    schedule(): Promise<void> {
      if (!running && !stopped && store.hasPending()) {
        running = drain()
          .catch(() => {})
          .finally(() => {
            running = null;
          });
      }
      return running ?? Promise.resolve();
    },

    /** Stops after the current step (before the database closes); resolves once stopped. */
    async stop(): Promise<void> {
      stopped = true;
      await running;
    },
  };
}

export type SearchIndexer = ReturnType<typeof searchIndexer>;
