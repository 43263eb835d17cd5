import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { type ClientRequest, type IncomingMessage, request } from "node:http";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { gunzipSync, gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { useClock } from "../../src/domain/clock.js";
import { EXPORT_PAGE_TICKETS } from "../../src/domain/transfer/board-export.js";
import { KEEP_EXPORT_BYTES } from "../../src/http/routes/board-transfer.js";
import { EXPORT_DOCUMENT_TICKETS, exportTestDocument } from "../helpers/export-document.js";
import { startTestServer } from "../helpers/server.js";
import { patchTicket } from "../helpers/tickets.js";

/**
 * The export's exact bytes, kept: test/fixtures/export-golden.json.gz is the export of
 * exportTestDocument() imported into a fresh server at a fixed time, as the export wrote it when
 * it was built whole in memory. Any change to the bytes (order, spacing, escaping, a field) fails
 * here. To write the file again after a deliberate format change: WRITE_EXPORT_GOLDEN=1.
 */
const GOLDEN = new URL("../fixtures/export-golden.json.gz", import.meta.url);

const api = await startTestServer();

async function importAtFixedTime(document: unknown, server = api): Promise<number> {
  const restore = useClock(() => Date.parse("2026-04-01T12:00:00.000Z"));
  try {
    const imported = await server.post("/api/boards/import", document);
    assert.equal(imported.status, 201, imported.text);
    return imported.body.board.id;
  } finally {
    restore();
  }
}

describe("the export's bytes", () => {
  test("equal the kept export of a generated board with every kind of content", async () => {
    const boardId = await importAtFixedTime(exportTestDocument());
    const exported = await api.get(`/api/boards/${boardId}/export`);
    assert.equal(exported.status, 200);
    assert.equal(exported.body.tickets.length, EXPORT_DOCUMENT_TICKETS);
    if (process.env.WRITE_EXPORT_GOLDEN === "1") {
      writeFileSync(GOLDEN, gzipSync(exported.text, { level: 9 }));
    }
    const golden = gunzipSync(readFileSync(GOLDEN)).toString("utf8");
    assert.equal(exported.text.length, golden.length, "same length");
    assert.ok(exported.text === golden, "same bytes");
  });

  test("equal them too from a database in memory, read in one go", async () => {
    // No second connection can open a database in memory: its export is read whole at once.
    const inMemory = await startTestServer({ dbFile: ":memory:" });
    const boardId = await importAtFixedTime(exportTestDocument(), inMemory);
    const exported = await inMemory.get(`/api/boards/${boardId}/export`);
    assert.equal(exported.status, 200);
    const golden = gunzipSync(readFileSync(GOLDEN)).toString("utf8");
    assert.ok(exported.text === golden, "same bytes");
  });
});

/**
 * A board whose export (~33 MiB) is far larger than what the sockets between server and client
 * buffer (a few MiB): a client that stops reading stops the server before it reads the last
 * pages of tickets. An export is kept whole only the second time the same board state is
 * exported (`KEEP_EXPORT_BYTES`), so each test below changes the board before the exports it
 * needs read from a snapshot.
 */
function largeDocument() {
  const tickets = 3 * EXPORT_PAGE_TICKETS;
  const words = "word ".repeat(11_000);
  return {
    board: { name: "Large" },
    lanes: [{ id: 1, name: "todo" }],
    tickets: Array.from({ length: tickets }, (_, i) => ({
      id: i + 1,
      laneId: 1,
      title: `Ticket ${i}`,
      bodyMarkdown: `${i} ${words}`,
    })),
  };
}

/** Starts an export and stops reading once its headers and first bytes arrive. */
function pausedExport(boardId: number): Promise<{ req: ClientRequest; res: IncomingMessage }> {
  const url = new URL(api.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: url.hostname,
        port: url.port,
        path: `/api/boards/${boardId}/export`,
        agent: false,
      },
      (res) => {
        res.pause();
        resolve({ req, res });
      },
    );
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error("no answer to the export in 30 s")));
    req.end();
  });
}

/** The rest of a paused answer, within a deadline. */
function readRest(res: IncomingMessage, deadlineMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      res.destroy();
      reject(new Error(`the export did not end within ${deadlineMs} ms`));
    }, deadlineMs);
    res.on("data", (chunk: Buffer) => chunks.push(chunk));
    res.on("end", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    res.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    res.resume();
  });
}

/**
 * Whether the log can be emptied now: a TRUNCATE checkpoint completes only when no reader still
 * holds an older state than the newest commit, so an export's snapshot left open makes it busy.
 */
function logEmpties(): boolean {
  const connection = new Database(api.dbFile);
  try {
    connection.pragma("busy_timeout = 0");
    const [row] = connection.pragma("wal_checkpoint(TRUNCATE)") as Array<{ busy: number }>;
    return row?.busy === 0;
  } finally {
    connection.close();
  }
}

/** Waits (10 s at most) until no snapshot holds the log; other writers may be busy a moment. */
async function waitUntilLogEmpties(what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!logEmpties()) {
    if (Date.now() > deadline) assert.fail(`${what}: a snapshot still holds the log after 10 s`);
    await sleep(50);
  }
}

describe("one snapshot per export", () => {
  let large: Promise<number> | undefined;
  /** The large board, imported once for the tests below. */
  const largeBoard = () => {
    large ??= importAtFixedTime(largeDocument());
    return large;
  };

  test("writes made while an export is being sent are not in it; its ETag names what it holds", async (t) => {
    const boardId = await largeBoard();
    await changeBoard(boardId, "before the first export");
    // The first export of this state, then the second (the one paused), read from a snapshot.
    const before = await api.get(`/api/boards/${boardId}/export`);
    assert.equal(before.status, 200);
    const last = before.body.tickets.at(-1);
    const first = before.body.tickets[0];

    const { req, res } = await pausedExport(boardId);
    t.after(() => req.destroy());
    assert.equal(res.statusCode, 200);
    await patchTicket(api, last.id, { title: "Retitled while exporting" });
    await patchTicket(api, first.id, { title: "First retitled too" });
    const created = await api.post(`/api/tickets/${last.id}/comments`, { bodyMarkdown: "late" });
    assert.equal(created.status, 201, created.text);

    const text = await readRest(res);
    assert.equal(res.headers.etag, before.headers.get("etag"));
    assert.equal(text.length, before.text.length);
    assert.ok(text === before.text, "the export taken before the writes, byte for byte");

    const after = await api.get(`/api/boards/${boardId}/export`);
    assert.notEqual(after.headers.get("etag"), before.headers.get("etag"));
    assert.equal(after.body.tickets.at(-1).title, "Retitled while exporting");
    assert.equal(after.body.tickets.at(-1).comments.length, 1);
  });

  test("the snapshot ends when the client leaves before the end, and when the export ends", async () => {
    const boardId = await largeBoard();
    const [ticket] = (await api.get(`/api/boards/${boardId}/export`)).body.tickets;
    await changeBoard(boardId, "before the export"); // so the export is not the kept one
    await waitUntilLogEmpties("before the export");
    const { req, res } = await pausedExport(boardId);
    try {
      // A commit after the snapshot's state: the log cannot be emptied while it is held.
      await patchTicket(api, ticket.id, { title: "after the snapshot" });
      assert.equal(logEmpties(), false, "the held export's snapshot keeps the log");
    } finally {
      res.destroy();
      req.destroy();
    }
    await waitUntilLogEmpties("after the client left");

    const whole = await api.get(`/api/boards/${boardId}/export`);
    assert.equal(whole.body.tickets[0].title, "after the snapshot");
    await patchTicket(api, ticket.id, { title: "after the whole export" });
    await waitUntilLogEmpties("after an export sent whole");
  });

  test("a one-off export is not kept: the next export of the same state reads a snapshot", async () => {
    const boardId = await largeBoard();
    await changeBoard(boardId, "before a one-off export");
    assert.equal((await api.get(`/api/boards/${boardId}/export`)).status, 200);
    await waitUntilLogEmpties("before the second export");
    const { req, res } = await pausedExport(boardId);
    try {
      await commitElsewhere();
      assert.equal(logEmpties(), false, "the second export holds its snapshot");
    } finally {
      res.destroy();
      req.destroy();
    }
    await waitUntilLogEmpties("after the client left");
  });

  test("the second export of the same state is kept: the third holds no snapshot", async () => {
    const boardId = await largeBoard();
    await changeBoard(boardId, "before the kept exports");
    const once = await api.get(`/api/boards/${boardId}/export`);
    const twice = await api.get(`/api/boards/${boardId}/export`);
    assert.ok(once.text.length < KEEP_EXPORT_BYTES);
    assert.ok(twice.text === once.text);
    await waitUntilLogEmpties("before the third export");
    const { req, res } = await pausedExport(boardId);
    try {
      assert.equal(res.headers.etag, once.headers.get("etag"));
      await commitElsewhere();
      assert.equal(logEmpties(), true, "the kept export is sent without a snapshot");
    } finally {
      res.destroy();
      req.destroy();
    }
  });
});

/** A commit on another board: the log holds a state newer than any snapshot taken before. */
async function commitElsewhere(): Promise<void> {
  const created = await api.post("/api/boards", { name: "Elsewhere" });
  assert.equal(created.status, 201, created.text);
}

/** A write to the board's last ticket: its state after it has not been exported yet. */
async function changeBoard(boardId: number, title: string): Promise<void> {
  const { tickets } = (await api.get(`/api/boards/${boardId}/tickets?archived=all`)).body;
  await patchTicket(api, tickets.at(-1).id, { title });
}
