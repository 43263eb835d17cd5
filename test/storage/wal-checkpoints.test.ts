import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { endianness, tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { openDatabase } from "../../src/storage/database.js";
import { groupCommit } from "../../src/storage/group-commit.js";
import {
  BOUND_AUTOCHECKPOINT_PAGES,
  CATCH_UP_ON_CONNECTION_PAGES,
  CHECKPOINT_DELAY_MS,
  LOG_SIZE_LIMIT_BYTES,
  SETTLED_LOG_BYTES,
  walCheckpointsOffThread,
} from "../../src/storage/wal-checkpoints.js";
import { startTestServer } from "../helpers/server.js";

const folder = mkdtempSync(join(tmpdir(), "tack-checkpoints-"));
after(() => rmSync(folder, { recursive: true, force: true }));

/**
 * Rows of `table` in the database file alone, without its write-ahead log: what checkpoints
 * have copied there. Read from a copy, so the server's files are left alone; null while the copy
 * caught a checkpoint half-written.
 */
function checkpointedRows(dbFile: string, table: string): number | null {
  const copy = join(folder, `copy-${Math.random().toString(36).slice(2)}.sqlite`);
  copyFileSync(dbFile, copy);
  try {
    const db = new Database(copy);
    try {
      return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/** Creates `filler` and writes `rows` rows of ~4 KB (a page each) in one commit. */
function fillInOneCommit(db: ReturnType<typeof openDatabase>, rows: number): void {
  db.exec("CREATE TABLE filler (body TEXT)");
  const insert = db.prepare("INSERT INTO filler (body) VALUES (?)");
  db.transaction(() => {
    for (let row = 0; row < rows; row++) insert.run("x".repeat(4000));
  })();
}

async function eventually(read: () => number | null, want: number, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  let value = read();
  while (value !== want) {
    if (Date.now() > deadline) assert.fail(`${what}: ${value} rows, expected ${want}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = read();
  }
}

test("a commit never checkpoints on the committing connection; the checkpoint thread does, after it", async () => {
  const dbFile = join(folder, "unit.sqlite");
  const db = openDatabase(dbFile);
  const checkpoints = walCheckpointsOffThread(db, dbFile);
  try {
    // ~1,500 pages: past the 1,000 at which SQLite would checkpoint inside this commit.
    fillInOneCommit(db, 1500);
    assert.equal(db.pragma("wal_autocheckpoint", { simple: true }), BOUND_AUTOCHECKPOINT_PAGES);
    assert.equal(checkpointedRows(dbFile, "filler"), null, "the table is not in the file yet");

    checkpoints.committed();
    await eventually(() => checkpointedRows(dbFile, "filler"), 1500, "rows in the file");
  } finally {
    await checkpoints.stop();
    // Stopped: the connection checkpoints itself again, as SQLite does by default.
    assert.equal(db.pragma("wal_autocheckpoint", { simple: true }), 1000);
    db.close();
  }
});

test("a log grown past the bound is checkpointed by the committing connection itself", async () => {
  const dbFile = join(folder, "bound.sqlite");
  const db = openDatabase(dbFile);
  // A bound of 1,000 pages here; the server's is BOUND_AUTOCHECKPOINT_PAGES.
  const checkpoints = walCheckpointsOffThread(db, dbFile, 1000);
  try {
    fillInOneCommit(db, 1500);
    // No call to committed(): the thread never ran, the commit itself copied the log.
    assert.equal(checkpointedRows(dbFile, "filler"), 1500);
  } finally {
    await checkpoints.stop();
    db.close();
  }
});

test("the server's writes reach the database file by checkpoints off the request path", async () => {
  const api = await startTestServer();
  const board = await api.post("/api/boards", { name: "Checkpointed" });
  assert.equal(board.status, 201);
  const laneId = board.body.lanes[0].id;
  const boardId = board.body.board.id;
  for (let index = 0; index < 30; index++) {
    const created = await api.post(`/api/boards/${boardId}/tickets`, {
      laneId,
      title: `Ticket ${index}`,
      bodyMarkdown: "body ".repeat(200),
    });
    assert.equal(created.status, 201);
  }
  await eventually(() => checkpointedRows(api.dbFile, "tickets"), 30, "tickets in the file");
});

function logBytes(dbFile: string): number {
  try {
    return statSync(`${dbFile}-wal`).size;
  } catch {
    return 0;
  }
}

test("once writes pause, a log grown past 16 MiB by one large commit is emptied", async () => {
  const dbFile = join(folder, "settle.sqlite");
  const db = openDatabase(dbFile);
  const checkpoints = walCheckpointsOffThread(db, dbFile);
  try {
    // ~5,000 pages, ~20 MiB, in one commit (as an import writes).
    fillInOneCommit(db, 5000);
    checkpoints.committed();
    assert.ok(logBytes(dbFile) > SETTLED_LOG_BYTES, "the commit grew the log past the bound");
    await eventually(() => (logBytes(dbFile) <= SETTLED_LOG_BYTES ? 1 : 0), 1, "a settled log");
    assert.equal(checkpointedRows(dbFile, "filler"), 5000, "everything is in the file");
  } finally {
    await checkpoints.stop();
    db.close();
  }
});

test("under steady writes with a reader attached, the log restarts and stays within 32 MiB", async () => {
  const dbFile = join(folder, "steady.sqlite");
  const db = openDatabase(dbFile);
  // Commits as the server's: the log written, its sync shared on the pool (group-commit.ts).
  const commits = groupCommit(db, dbFile);
  const checkpoints = walCheckpointsOffThread(db, dbFile);
  // Another connection reading in short transactions all along, as the server's readers do.
  const reader = new Database(dbFile, { readonly: true });
  try {
    db.exec("CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT)");
    const insert = db.prepare("INSERT INTO filler (body) VALUES (?)");
    // The newest row: one short read transaction of a few pages.
    const newest = reader.prepare("SELECT max(id) AS id FROM filler");
    const write = db.transaction(() => {
      for (let row = 0; row < 64; row++) insert.run("y".repeat(4000));
    });
    // 256 KiB per commit, each answered once the log is synced, the next 20 ms later: at most
    // 12.8 MiB/s of log, so the second's wait before a checkpoint grows it by less than half the
    // bound. 96 MiB in all, three
    // times the bound, so without restarts the log would end far above it. A loaded machine
    // only slows the writer down; it waits for the disk as the checkpoint thread does.
    let largest = 0;
    for (let written = 0; written < 96 * 1024 * 1024; written += 64 * 4096) {
      write();
      checkpoints.committed();
      newest.get();
      largest = Math.max(largest, logBytes(dbFile));
      await new Promise<void>((resolve, reject) => {
        const waits = commits.afterDurable((error) => (error ? reject(error) : resolve()));
        if (!waits) resolve();
      });
      await sleep(20);
    }
    assert.ok(largest <= LOG_SIZE_LIMIT_BYTES, `the log reached ${largest} bytes`);
  } finally {
    reader.close();
    await commits.close();
    await checkpoints.stop();
    db.close();
  }
});

/**
 * The write-ahead log's index (`<db>-shm`, https://sqlite.org/walformat.html, "The WAL-Index
 * Format"): mxFrame, the frames the log holds, at byte 16; nBackfill, the frames checkpoints
 * have copied into the database file, at byte 96; in the machine's byte order. Read with read(),
 * which sees the same pages SQLite writes through its mapping.
 */
function logIndex(dbFile: string): { frames: number; copied: number } {
  const bytes = readFileSync(`${dbFile}-shm`).subarray(0, 100);
  const word = (at: number) =>
    endianness() === "LE" ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at);
  return { frames: word(16), copied: word(96) };
}

test("a commit made while the thread copies is copied by the connection, so the log restarts", async () => {
  const dbFile = join(folder, "stale-report.sqlite");
  const db = openDatabase(dbFile);
  const checkpoints = walCheckpointsOffThread(db, dbFile);
  try {
    // ~3,000 pages in one commit: past CATCH_UP_ON_CONNECTION_PAGES, below the settled bound.
    fillInOneCommit(db, 3000);
    const { frames } = logIndex(dbFile);
    assert.ok(frames >= CATCH_UP_ON_CONNECTION_PAGES, `a large log (${frames} frames)`);
    const fileBefore = statSync(dbFile).size;
    checkpoints.committed();
    // Runs right after the timer that asks the thread to checkpoint (same delay, set later) and
    // holds the event loop until the thread's pass is under way: the database file grows as the
    // pass copies, and the log's index counts the frames copied only once the pass is done. One
    // commit then, as a request makes: the pass copies the log as it was when it began, so it
    // reports nothing left while this commit is not copied.
    const committedDuringThePass = new Promise<void>((resolve, reject) => {
      setTimeout(() => {
        const deadline = Date.now() + 30_000;
        while (statSync(dbFile).size === fileBefore) {
          if (logIndex(dbFile).copied >= frames || Date.now() > deadline) {
            reject(new Error("the thread's pass was over before a commit could land in it"));
            return;
          }
        }
        // No committed() here: the server's would ask for another pass, which under writes
        // without a pause meets the same race; here only the connection's catch-up copies it.
        db.prepare("INSERT INTO filler (body) VALUES (?)").run("during the pass");
        resolve();
      }, CHECKPOINT_DELAY_MS);
    });
    await committedDuringThePass;
    const deadline = Date.now() + 15_000;
    let index = logIndex(dbFile);
    while (index.copied < index.frames) {
      if (Date.now() > deadline) {
        assert.fail(
          `the log holds ${index.frames} frames, ${index.copied} copied: it cannot restart`,
        );
      }
      await sleep(20);
      index = logIndex(dbFile);
    }
    // Wholly copied: the next write starts the log again from its beginning.
    db.prepare("INSERT INTO filler (body) VALUES (?)").run("restarts the log");
    assert.ok(logIndex(dbFile).frames < 10, `the log holds ${logIndex(dbFile).frames} frames`);
  } finally {
    await checkpoints.stop();
    db.close();
  }
});
