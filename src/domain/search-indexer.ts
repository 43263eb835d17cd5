import type { SearchIndexStore } from "../storage/search-index.js";
import type { Transact } from "./transaction.js";

/**
 * Tickets per background step: ~10-15 ms of indexing on this machine class, so requests that
 * arrive meanwhile wait at most that long.
 */
const STEP = 100;

/**
 * How often a running server looks for tickets to index. Searches scan the pending ones, so this
 * bounds how many they scan, not whether they find them.
 */
const WATCH_MS = 200;

/**
 * Indexes, in the background, the tickets whose search index rows are missing or stale: every
 * write of ticket or reference text lists its ticket as pending (migration 005's triggers), a
 * board import lists all of its tickets, and migration 005 every ticket of an existing database. Searches scan pending tickets, so
 * the answers are the same before and after (docs/performance.md). Each step is its own small
 * transaction, and the loop yields to the event loop between steps.
 */
export function searchIndexer(store: SearchIndexStore, transact: Transact) {
  let running: Promise<void> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  async function drain(): Promise<void> {
    await nextTurn();
    // Looked for with a plain read first: an idle server's watch takes no write lock and runs
    // no transaction (whose commit hooks would read claims and changes every WATCH_MS).
    while (!stopped && store.hasPending() && transact(() => store.indexPending(STEP)) > 0) {
      await nextTurn();
    }
  }

  return {
    /**
     * Starts indexing pending tickets unless it is already under way; resolves when done. A
     * failed step leaves its tickets pending (searches still scan them); the next schedule
     * (the next import, the next start) tries again.
     */
    schedule(): Promise<void> {
      if (!running && !stopped) {
        running = drain()
          .catch(() => {})
          .finally(() => {
            running = null;
          });
      }
      return running ?? Promise.resolve();
    },

    /**
     * Looks for pending tickets every WATCH_MS (one indexed lookup) and indexes them: ticket
     * writes list their tickets as pending, and one background transaction indexes all the
     * tickets written meanwhile. For a running server.
     */
    watch(): void {
      if (timer || stopped) return;
      timer = setInterval(() => void this.schedule(), WATCH_MS);
      timer.unref();
    },

    /** Stops after the current step (before the database closes); resolves once stopped. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

export type SearchIndexer = ReturnType<typeof searchIndexer>;
