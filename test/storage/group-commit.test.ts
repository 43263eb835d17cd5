import assert from "node:assert/strict";
import { fstatSync, statSync } from "node:fs";
import { connect } from "node:net";
import { type TestContext, test } from "node:test";
import Database from "better-sqlite3";
import { heldSync } from "../helpers/held-sync.js";
import { everythingReceived } from "../helpers/raw-http.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, newTicket } from "../helpers/tickets.js";

/** Tracks whether a request has been answered yet. */
function watch<T>(promise: Promise<T>) {
  const state = { answered: false, promise };
  void promise.finally(() => (state.answered = true));
  return state;
}

const briefly = () => new Promise((resolve) => setTimeout(resolve, 100));

/** Rows of `table` committed to the file, read by a connection of the test's own. */
function committedRows(dbFile: string, table: string): number {
  const reader = new Database(dbFile, { readonly: true });
  try {
    return (reader.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    reader.close();
  }
}

/**
 * Waits until the server's background search indexer has nothing left to write
 * (domain/search-indexer.ts): its commits are changes an answer would then wait for, so a test
 * that counts syncs starts once they are done.
 */
async function untilIndexed(db: Database.Database): Promise<void> {
  const pending = db.prepare("SELECT count(*) FROM ticket_search_pending").pluck();
  while ((pending.get() as number) > 0) await new Promise((r) => setTimeout(r, 10));
}

/** A held sync that every test releases when it ends, passed or failed. */
function heldSyncFor(t: TestContext) {
  const sync = heldSync();
  t.after(() => sync.stop());
  return sync;
}

/** Long enough for a loaded machine; a held sync that is never released fails, not hangs. */
const LIMIT = { timeout: 60_000 };

async function untilCommitted(dbFile: string, table: string, rows: number): Promise<void> {
  while (committedRows(dbFile, table) < rows) await new Promise((r) => setTimeout(r, 10));
}

test(
  "a write is answered only after the write-ahead log holding it is synced",
  LIMIT,
  async (t) => {
    const sync = heldSyncFor(t);
    const api = await startTestServer({ syncFile: sync.syncFile });
    const board = await boardWithLanes(api, "Durable");
    assert.equal(api.server.db.pragma("synchronous", { simple: true }), 1, "commits with NORMAL");

    sync.holding = true;
    const create = watch(
      api.post(`/api/boards/${board.boardId}/tickets`, { laneId: board.laneIds[0], title: "kept" }),
    );
    const held = await sync.next();
    assert.equal(
      fstatSync(held.fd).ino,
      statSync(`${api.dbFile}-wal`).ino,
      "the file synced is the database's write-ahead log",
    );
    await untilCommitted(api.dbFile, "tickets", 1);
    // Committed, visible to other connections, but not on disk for sure: no answer yet, and a
    // read that would show the ticket waits too.
    const list = watch(api.get(`/api/boards/${board.boardId}/tickets`));
    await briefly();
    assert.equal(create.answered, false, "the create waits for the sync");
    assert.equal(list.answered, false, "a read of the unsynced ticket waits for the sync");

    // Holding stops first: the background search indexer may have committed since the create,
    // and the read then waits for a second sync that must go through.
    sync.holding = false;
    held.release();
    const created = await create.promise;
    assert.equal(created.status, 201, created.text);
    const listed = await list.promise;
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.tickets.map((ticket: { title: string }) => ticket.title),
      ["kept"],
    );
  },
);

test("writes committed while a sync runs share the next one", LIMIT, async (t) => {
  const sync = heldSyncFor(t);
  const api = await startTestServer({ syncFile: sync.syncFile });
  const board = await boardWithLanes(api, "Shared");
  const ticket = await newTicket(api, board.boardId, board.laneIds[0], "busy");
  // The new ticket's search row is written in the background; a commit of it after the last
  // sync below would make the final read wait for one more.
  await untilIndexed(api.server.db);
  const before = sync.seen.length;

  sync.holding = true;
  const comments = Array.from({ length: 6 }, (_, i) =>
    watch(api.post(`/api/tickets/${ticket.id}/comments`, { bodyMarkdown: `note ${i}` })),
  );
  const first = await sync.next();
  await untilCommitted(api.dbFile, "comments", 6);
  first.release();
  // The first sync may cover one comment or several; the rest, committed while it ran, wait
  // for exactly one more.
  const second = await Promise.race([sync.next(), Promise.all(comments.map((c) => c.promise))]);
  sync.holding = false;
  if ("release" in second) second.release();
  for (const comment of comments) assert.equal((await comment.promise).status, 201);
  assert.ok(sync.seen.length - before <= 2, `${sync.seen.length - before} syncs for 6 writes`);

  // Everything is on disk now: a read needs no sync.
  const synced = sync.seen.length;
  assert.equal((await api.get(`/api/tickets/${ticket.id}`)).status, 200);
  assert.equal(sync.seen.length, synced, "a read after the last sync syncs nothing");
});

test(
  "a sync that fails answers 500 with {error}, and the next write is synced and answered",
  LIMIT,
  async (t) => {
    const sync = heldSyncFor(t);
    const api = await startTestServer({ syncFile: sync.syncFile });
    const board = await boardWithLanes(api, "Failing disk");

    sync.holding = true;
    const create = api.post(`/api/boards/${board.boardId}/tickets`, {
      laneId: board.laneIds[0],
      title: "unsure",
    });
    (await sync.next()).release(new Error("EIO: i/o error, fsync"));
    const failed = await create;
    assert.equal(failed.status, 500, failed.text);
    assert.equal(typeof failed.body.error, "string");

    sync.holding = false;
    const next = await api.post(`/api/boards/${board.boardId}/tickets`, {
      laneId: board.laneIds[0],
      title: "sure",
    });
    assert.equal(next.status, 201, next.text);
  },
);

test(
  "a client that half-closes after its request still gets the answer that waited for the sync",
  LIMIT,
  async (t) => {
    const sync = heldSyncFor(t);
    const api = await startTestServer({ syncFile: sync.syncFile });
    const board = await boardWithLanes(api, "Half-closed");
    const { port } = new URL(api.url);
    const body = JSON.stringify({ laneId: board.laneIds[0], title: "answered" });

    sync.holding = true;
    const socket = connect(Number(port), "127.0.0.1");
    const answer = everythingReceived(socket);
    // The request, then a FIN: the client will send nothing more but still reads.
    socket.end(
      `POST /api/boards/${board.boardId}/tickets HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    const held = await sync.next();
    await briefly(); // the FIN has reached the server while the answer waits
    held.release();
    const text = await answer;
    assert.match(text, /^HTTP\/1\.1 201 /);
    assert.match(text, /"title":"answered"/);
  },
);
