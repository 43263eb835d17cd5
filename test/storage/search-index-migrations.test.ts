import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { renderMarkdown } from "../../src/domain/markdown.js";
import { searchTextOf, ticketSearchText } from "../../src/domain/search-text.js";
import { checklistOf } from "../../src/domain/tickets/checklists.js";
import { openDatabase } from "../../src/storage/database.js";
import { initialSchema } from "../../src/storage/migrations/001-initial.js";
import {
  DRAIN_PENDING as OLD_DRAIN,
  INDEX_PENDING as OLD_INDEX,
  UNINDEX_PENDING as OLD_UNINDEX,
} from "../../src/storage/migrations/007-search-index-parts.js";
import { migrations } from "../../src/storage/migrations/index.js";
import { ok } from "../helpers/factories.js";
import { databaseAtVersion } from "../helpers/old-database.js";
import { startTestServer } from "../helpers/server.js";
import { type Known, scan, waitUntil } from "./search-index-scan.js";

// The migrations that built and rebuilt the search index (005, 007, 014) bring databases of the
// schema before each over: every ticket found as a scan of its text finds it.

test("migration 005 brings a database of the previous schema over: every ticket searchable", async () => {
  const folder = mkdtempSync(join(tmpdir(), "tack-search-migration-"));
  try {
    const dbFile = join(folder, "old.sqlite");
    const old = new Database(dbFile);
    old.exec(initialSchema);
    old.pragma("user_version = 1");
    const at = "2024-01-01T00:00:00.000Z";
    old.exec(`INSERT INTO boards (id, name, position, created_at, updated_at) VALUES (1, 'old', 0, '${at}', '${at}');
      INSERT INTO lanes (id, board_id, name, position) VALUES (1, 1, 'todo', 0);`);
    const ticket = old.prepare(
      `INSERT INTO tickets (id, board_id, lane_id, title, position, created_at, updated_at) VALUES (?, 1, 1, ?, ?, '${at}', '${at}')`,
    );
    const text = old.prepare(
      "INSERT INTO ticket_texts (ticket_id, search_text, body_markdown, body_html) VALUES (?, ?, ?, '')",
    );
    for (let id = 1; id <= 250; id++) {
      ticket.run(id, `Old ${id}`, id - 1);
      text.run(id, searchTextOf(`Old ${id}`, `Straße number ${id}`), `Straße number ${id}`);
    }
    old.close();

    const server = await startTestServer({ dbFile });
    try {
      const pending = server.server.db
        .prepare("SELECT COUNT(*) FROM ticket_search_pending")
        .pluck();
      // Searchable at once (pending tickets are scanned), and indexed in the background.
      const hits = async (q: string) =>
        (await ok(server.get(`/api/boards/1/tickets?q=${encodeURIComponent(q)}`))).tickets.length;
      assert.equal(await hits("STRASSE"), 0, "ß folds to itself, not to ss");
      assert.equal(await hits("straße number 12"), 11);
      await waitUntil(() => pending.get() === 0);
      assert.equal(await hits("straße number 12"), 11, "12 and 120-129");
      assert.equal(await hits("old 250"), 1);
      assert.equal((await ok(server.get("/api/boards/1/tickets"))).tickets.length, 250);
    } finally {
      await server.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("migration 007 re-indexes a database indexed by 005, every ticket in parts", async () => {
  const folder = mkdtempSync(join(tmpdir(), "tack-search-parts-"));
  try {
    const dbFile = join(folder, "v6.sqlite");
    // A database at schema version 6 whose 005 index is complete (one row per ticket).
    const old = new Database(dbFile);
    for (const migration of migrations.slice(0, 6)) {
      if (typeof migration === "string") old.exec(migration);
      else
        migration(old, {
          renderMarkdown: (markdown) => markdown,
          countChecklist: () => ({ done: 0, total: 0 }),
        });
    }
    old.pragma("user_version = 6");
    const at = "2024-01-01T00:00:00.000Z";
    old.exec(`INSERT INTO boards (id, name, position, created_at, updated_at) VALUES (1, 'old', 0, '${at}', '${at}');
      INSERT INTO lanes (id, board_id, name, position) VALUES (1, 1, 'todo', 0);`);
    for (let id = 1; id <= 60; id++) {
      const body = `Kühlschrank number ${id}\nsecond line ${id}`;
      old
        .prepare(
          `INSERT INTO tickets (id, board_id, lane_id, title, position, created_at, updated_at) VALUES (?, 1, 1, ?, ?, '${at}', '${at}')`,
        )
        .run(id, `Old ${id}`, id - 1);
      old
        .prepare(
          "INSERT INTO ticket_texts (ticket_id, search_text, body_markdown, body_html) VALUES (?, ?, ?, '')",
        )
        .run(id, searchTextOf(`Old ${id}`, body), body);
    }
    old.exec(`INSERT INTO ticket_search (rowid, text) SELECT ticket_id, search_text FROM ticket_texts;
      DELETE FROM ticket_search_pending;`);
    old.close();

    const server = await startTestServer({ dbFile });
    try {
      const { db } = server.server;
      const count = (sql: string) => db.prepare(sql).pluck().get() as number;
      const hits = async (q: string) =>
        (await ok(server.get(`/api/boards/1/tickets?q=${encodeURIComponent(q)}`))).tickets.length;
      assert.equal(await hits("kühlschrank number 1"), 11, "1 and 10-19, before indexing");
      await waitUntil(() => count("SELECT COUNT(*) FROM ticket_search_pending") === 0);
      assert.equal(count("SELECT COUNT(*) FROM ticket_search_docsize"), 120, "title and body rows");
      assert.equal(
        count(
          "SELECT COUNT(*) FROM ticket_search_docsize WHERE id >> 2 NOT IN (SELECT id FROM tickets)",
        ),
        0,
      );
      assert.equal(await hits("KÜHLSCHRANK number 1"), 11);
      assert.equal(await hits("second line 6"), 2, "6 and 60");
      assert.equal(await hits("old 42"), 1);
      assert.equal(await hits("2\nsecond"), 6, "across a line break: 2, 12, ..., 52 (scanned)");
    } finally {
      await server.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("migration 014 moves each title's search text to its ticket row: every ticket found by title and body words, trash included", async () => {
  const folder = mkdtempSync(join(tmpdir(), "tack-title-search-"));
  try {
    // A database as schema version 13 left it, fully indexed: joined search texts, index parts
    // cut at the first line break. Titles with a line break, Unicode folding, empty bodies.
    const file = join(folder, "v13.sqlite");
    const at = "2024-01-01T00:00:00.000Z";
    const tickets = Array.from({ length: 30 }, (_, index) => {
      const id = index + 1;
      const title = index % 10 === 3 ? `Zweizeilig ${id}\nΣΟΦΙΑΣ ${id}` : `Titel ${id} STRASSE`;
      const body = index % 7 === 0 ? "" : `Körper ${id}\nzweite Zeile ${id}`;
      return { id, title, body };
    });
    databaseAtVersion(
      file,
      13,
      `INSERT INTO boards (id, name, position, created_at, updated_at) VALUES (1, 'old', 0, '${at}', '${at}');
      INSERT INTO lanes (id, board_id, name, position) VALUES (1, 1, 'todo', 0);`,
    );
    const old = new Database(file);
    for (const { id, title, body } of tickets) {
      old
        .prepare(
          `INSERT INTO tickets (id, board_id, lane_id, title, position, created_at, updated_at) VALUES (?, 1, 1, ?, ?, '${at}', '${at}')`,
        )
        .run(id, title, id - 1);
      old
        .prepare(
          "INSERT INTO ticket_texts (ticket_id, search_text, body_markdown, body_html) VALUES (?, ?, ?, '')",
        )
        .run(id, searchTextOf(title, body), body);
    }
    while (old.prepare("SELECT COUNT(*) FROM ticket_search_pending").pluck().get() !== 0) {
      for (const sql of [OLD_UNINDEX, OLD_INDEX, OLD_DRAIN]) old.prepare(sql).run({ limit: 100 });
    }
    // Ticket 30 in the trash, its snapshot as version 13 wrote it (rows as SELECT * gave them).
    const row = (table: string, key: string) =>
      old.prepare(`SELECT * FROM ${table} WHERE ${key} = 30`).get();
    const snapshot = {
      kind: "ticket",
      ticket: { id: 30, boardId: 1, laneId: 1, position: 29, version: 1 },
      rows: { tickets: [row("tickets", "id")], ticket_texts: [row("ticket_texts", "ticket_id")] },
      links: {
        parentId: null,
        childIds: [],
        blockerIds: [],
        blockingIds: [],
        relatedIds: [],
        tagLinks: [],
        activityIds: [],
      },
      remote: null,
    };
    old.exec("DELETE FROM ticket_texts WHERE ticket_id = 30; DELETE FROM tickets WHERE id = 30;");
    old
      .prepare(
        `INSERT INTO trash (kind, object_id, board_id, label, deleted_at, expires_at, snapshot)
         VALUES ('ticket', 30, 1, 'Titel 30', '${at}', '2999-01-01T00:00:00.000Z', ?)`,
      )
      .run(JSON.stringify(snapshot));
    old.close();
    copyFileSync(file, join(folder, "inspected.sqlite"));

    // The upgrade alone: each part as a write now stores it; only titles with a line break (whose
    // index rows were cut elsewhere) wait for the indexer, and only for their title and body.
    const upgraded = openDatabase(join(folder, "inspected.sqlite"), {
      renderMarkdown,
      countChecklist: checklistOf,
    });
    try {
      for (const { id, title, body } of tickets.slice(0, 29)) {
        const parts = upgraded
          .prepare(
            "SELECT t.title_search AS title, x.search_text AS body FROM tickets t JOIN ticket_texts x ON x.ticket_id = t.id WHERE t.id = ?",
          )
          .get(id);
        assert.deepEqual(parts, ticketSearchText(title, body), `ticket ${id}`);
      }
      assert.deepEqual(
        upgraded.prepare("SELECT ticket_id, parts FROM ticket_search_pending").raw().all(),
        [
          [4, 3],
          [14, 3],
          [24, 3],
        ],
      );
    } finally {
      upgraded.close();
    }

    const server = await startTestServer({ dbFile: file });
    try {
      const { db } = server.server;
      const known = (count: number): Known[] =>
        tickets
          .slice(0, count)
          .map(({ id, title, body }) => ({ id, title, bodyMarkdown: body, references: [] }));
      // Words of each title and body, the whole title, and text across the title's and the
      // body's line breaks (which only the joined text holds).
      const queries = tickets.flatMap(({ id, title, body }) => [
        `titel ${id} strasse`,
        `zweizeilig ${id}`,
        `ΣΟΦΙΑΣ ${id}`,
        `Körper ${id}`,
        `ZWEITE zeile ${id}`,
        `${title.slice(-4)}\n${body.slice(0, 4)}`,
        `${id}\nσοφ`,
      ]);
      const searchedAsScanned = async (stage: string, count: number) => {
        for (const q of queries) {
          const listed = await ok(server.get(`/api/boards/1/tickets?q=${encodeURIComponent(q)}`));
          const ids = listed.tickets.map((ticket: { id: number }) => ticket.id);
          assert.deepEqual(
            ids.sort((a: number, b: number) => a - b),
            scan(known(count), q),
            `${stage}: q=${JSON.stringify(q)}`,
          );
        }
      };
      await searchedAsScanned("before indexing", 29);
      const pending = db.prepare("SELECT COUNT(*) FROM ticket_search_pending").pluck();
      await waitUntil(() => pending.get() === 0);
      await searchedAsScanned("indexed", 29);
      // The queries do find each ticket by a word of its title and of its body.
      for (const { id, title, body } of tickets.slice(0, 29)) {
        const byTitle = title.includes("\n") ? `zweizeilig ${id}` : `titel ${id} strasse`;
        assert.ok(scan(known(29), byTitle).includes(id), `ticket ${id} by its title`);
        if (body) assert.ok(scan(known(29), `körper ${id}`).includes(id), `${id} by its body`);
      }
      const trash = await ok(server.get("/api/trash"));
      await ok(server.post(`/api/trash/${trash.items[0].id}/restore`, {}));
      await searchedAsScanned("restored from the trash", 30);
      assert.equal(
        db.prepare("SELECT title_search FROM tickets WHERE id = 30").pluck().get(),
        "titel 30 strasse",
      );
    } finally {
      await server.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
