import { close, fdatasync, openSync } from "node:fs";
import { type Db, describeError } from "./database.js";

/**
 * Flushes an open file's data, and the size needed to read it back, to the disk and calls back:
 * `fs.fdatasync`, or a test's stand-in.
 */
export type SyncFile = (fd: number, done: (error: Error | null) => void) => void;
/** Called once the changes it waits for are on disk, or with the error that prevented it. */
export type Durable = (error: Error | null) => void;

export interface GroupCommit {
  /**
   * False when every change committed so far is on disk. Otherwise true, and `done` is called
   * once they are (or with the error that prevented it), never before this returns. Call it
   * before answering.
   */
  afterDurable(done: Durable): boolean;
  /** Waits for every sync asked for and closes the log's file; call before closing the database. */
  close(): Promise<void>;
}

/** Commits that share one sync: it covers every change counted up to `covers`. */
interface Group {
  covers: number;
  waiting: Durable[];
}

/**
 * Durability shared by the writes that arrive together. With `synchronous = FULL` every commit
 * syncs the write-ahead log inside the COMMIT, on the event loop: one writer at a time waits
 * for the disk, and ten concurrent writes pay ten syncs one after another. Here the connection
 * commits with `synchronous = NORMAL` (the log is written, not synced) and the answers wait for
 * a sync of the log run on libuv's thread pool: the writes committed while one sync runs all
 * share the next one. An answer still leaves only once its change is on disk, so what tack
 * acknowledged survives a power cut exactly as with FULL (docs/decisions.md, "Durability").
 *
 * A lone commit pays the same pool round trip: syncing it on the event loop instead was tried
 * and measured no cheaper (docs/performance.md, "Durable writes: group commit and checkpoints").
 *
 * The sync is `fdatasync`: the log's data and the size needed to read it back, without its
 * timestamps, as PostgreSQL does on Linux by default (libuv makes it a full flush on macOS).
 * The waits are callbacks, not promises: one closure per waiting answer.
 *
 * Which changes a sync covers is counted with SQLite's total_changes(): every row a statement
 * inserted, updated or deleted on this connection, so no write path can forget to report its
 * commit. Between two turns of the event loop no transaction is open (better-sqlite3 runs them
 * synchronously), so the count names committed work (and rolled-back work, which only costs a
 * sync nobody needed).
 */
export function groupCommit(db: Db, file: string, syncFile: SyncFile = fdatasync): GroupCommit {
  if (file === ":memory:") return { afterDurable: () => false, close: async () => {} };
  db.pragma("synchronous = NORMAL");
  const totalChanges = db.prepare("SELECT total_changes()").pluck();
  // Opened at the first sync: by then a commit has created the log. SQLite keeps the same file
  // (it rewrites it from its start after a checkpoint; it deletes it only when the last
  // connection closes), so one descriptor serves the server's life.
  let logFd: number | undefined;
  let synced = totalChanges.get() as number;
  /** The sync on the pool, if one runs. */
  let running: Group | null = null;
  /** Commits waiting for the next sync. */
  let next: Group = { covers: 0, waiting: [] };
  let whenIdle: Array<() => void> = [];

  function afterDurable(done: Durable): boolean {
    // A database closed under the server (a failure tests provoke) has nothing left to sync.
    if (!db.open) return false;
    const changes = totalChanges.get() as number;
    if (changes <= synced) return false;
    if (running && changes <= running.covers) {
      running.waiting.push(done);
      return true;
    }
    next.waiting.push(done);
    next.covers = changes; // the count only grows
    if (!running) syncNext();
    return true;
  }

  /** One sync on the pool for every commit waiting: they were all committed before it starts. */
  function syncNext(): void {
    const group = next;
    if (group.waiting.length === 0) {
      idle();
      return;
    }
    next = { covers: 0, waiting: [] };
    let fd: number;
    try {
      logFd ??= openSync(`${file}-wal`, "r");
      fd = logFd;
    } catch (error) {
      finish(group, error);
      return;
    }
    running = group;
    syncFile(fd, (error) => {
      running = null;
      finish(group, error);
    });
  }

  /** Answers a group's commits, then syncs for those that came meanwhile. */
  function finish(group: Group, error: unknown): void {
    if (error) {
      // None of them can be told their change is durable; the next write tries again.
      // The cause is kept: a full disk (ENOSPC) answers 507, not 500 (http/disk-full.ts).
      const failure = new Error(
        `the write-ahead log could not be synced to disk: ${describeError(error)}`,
        { cause: error },
      );
      for (const done of group.waiting) done(failure);
    } else {
      synced = Math.max(synced, group.covers);
      for (const done of group.waiting) done(null);
    }
    if (!running) syncNext();
  }

  function idle(): void {
    if (running || next.waiting.length > 0) return;
    const waiting = whenIdle;
    whenIdle = [];
    for (const resolve of waiting) resolve();
  }

  return {
    afterDurable,
    async close() {
      if (running || next.waiting.length > 0)
        await new Promise<void>((resolve) => whenIdle.push(resolve));
      if (logFd !== undefined)
        await new Promise<void>((resolve) => close(logFd as number, () => resolve()));
      logFd = undefined;
    },
  };
}
