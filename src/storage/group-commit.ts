import { close, fsync, open } from "node:fs";
import { type Db, describeError } from "./database.js";

/** Flushes an open file to the disk and calls back: `fs.fsync`, or a test's stand-in. */
export type SyncFile = (fd: number, done: (error: Error | null) => void) => void;

export interface GroupCommit {
  /**
   * Null when every change committed so far is on disk; otherwise a promise that resolves once
   * it is (or rejects if the log could not be synced). Call it before answering.
   */
  whenDurable(): Promise<void> | null;
  /** Waits for a sync in flight and closes the log's file; call before closing the database. */
  close(): Promise<void>;
}

interface Waiter {
  changes: number;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Durability shared by the writes that arrive together. With `synchronous = FULL` every commit
 * fsyncs the write-ahead log inside the COMMIT, on the event loop: one writer at a time waits
 * for the disk, and ten concurrent writes pay ten fsyncs one after another. Here the connection
 * commits with `synchronous = NORMAL` (the log is written, not synced) and the answers wait for
 * an fsync of the log run on libuv's thread pool: the writes committed while one fsync runs all
 * share the next one. An answer still leaves only once its change is on disk, so what tack
 * acknowledged survives a power cut exactly as with FULL (docs/decisions.md, "Durability").
 *
 * Which changes a sync covers is counted with SQLite's total_changes(): every row a statement
 * inserted, updated or deleted on this connection, so no write path can forget to report its
 * commit. Between two turns of the event loop no transaction is open (better-sqlite3 runs them
 * synchronously), so the count names committed work (and rolled-back work, which only costs a
 * sync nobody needed).
 */
export function groupCommit(db: Db, file: string, syncFile: SyncFile = fsync): GroupCommit {
  if (file === ":memory:") return { whenDurable: () => null, close: async () => {} };
  db.pragma("synchronous = NORMAL");
  const totalChanges = db.prepare("SELECT total_changes()").pluck();
  // Opened at the first sync: by then a commit has created the log. SQLite keeps the same file
  // (it rewrites it from its start after a checkpoint; it deletes it only when the last
  // connection closes), so one descriptor serves the server's life.
  let logFd: number | undefined;
  let synced = totalChanges.get() as number;
  let syncing: Promise<void> | null = null;
  let waiters: Waiter[] = [];

  function openLog(): Promise<number> {
    if (logFd !== undefined) return Promise.resolve(logFd);
    return new Promise((resolve, reject) =>
      open(`${file}-wal`, "r", (error, fd) => {
        if (error) return reject(error);
        logFd = fd;
        resolve(fd);
      }),
    );
  }

  /** One fsync for everyone waiting when it starts: their changes were committed before it. */
  async function syncRound(): Promise<void> {
    const covers = Math.max(...waiters.map((waiter) => waiter.changes));
    try {
      const fd = await openLog();
      await new Promise<void>((resolve, reject) =>
        syncFile(fd, (error) => (error ? reject(error) : resolve())),
      );
      synced = Math.max(synced, covers);
      settle(
        (waiter) => waiter.changes <= covers,
        (waiter) => waiter.resolve(),
      );
    } catch (error) {
      // None of those waiting can be told their change is durable; the next write tries again.
      const failure = new Error(
        `the write-ahead log could not be synced to disk: ${describeError(error)}`,
      );
      settle(
        () => true,
        (waiter) => waiter.reject(failure),
      );
    }
  }

  function settle(covered: (waiter: Waiter) => boolean, answer: (waiter: Waiter) => void): void {
    const done = waiters.filter(covered);
    waiters = waiters.filter((waiter) => !covered(waiter));
    for (const waiter of done) answer(waiter);
  }

  function startSyncing(): void {
    syncing = (async () => {
      while (waiters.length > 0) await syncRound();
      syncing = null;
    })();
  }

  return {
    whenDurable() {
      // A database closed under the server (a failure tests provoke) has nothing left to sync.
      if (!db.open) return null;
      const changes = totalChanges.get() as number;
      if (changes <= synced) return null;
      const promise = new Promise<void>((resolve, reject) => {
        waiters.push({ changes, resolve, reject });
      });
      if (!syncing) startSyncing();
      return promise;
    },
    async close() {
      await syncing;
      if (logFd !== undefined)
        await new Promise<void>((resolve) => close(logFd as number, () => resolve()));
      logFd = undefined;
    },
  };
}
