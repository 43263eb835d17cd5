import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { referenceSearchText } from "../../src/domain/annotations/external-references.js";
import { renderMarkdown } from "../../src/domain/markdown.js";
import { foldForSearch, searchTextOf, ticketSearchText } from "../../src/domain/search-text.js";
import { checklistOf } from "../../src/domain/tickets/checklists.js";
import { parseTicketSearch } from "../../src/domain/tickets/ticket-search.js";
import { openDatabase } from "../../src/storage/database.js";
import { initialSchema } from "../../src/storage/migrations/001-initial.js";
import {
  DRAIN_PENDING as OLD_DRAIN,
  INDEX_PENDING as OLD_INDEX,
  UNINDEX_PENDING as OLD_UNINDEX,
} from "../../src/storage/migrations/007-search-index-parts.js";
import { migrations } from "../../src/storage/migrations/index.js";
import { databaseAtVersion } from "../helpers/old-database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/**
 * The trigram index (docs/performance.md) changes what a search costs, never what it answers:
 * on generated boards, every query's answer equals a straightforward scan of the tickets, done
 * here in JavaScript from docs/api.md, "Search", before and after edits, deletions, moves between
 * boards, reference changes, and a board import (whose tickets are indexed in the background,
 * so it is searched both before and after that). Seeded, so a failure repeats.
 */

const SEED = Number(process.env.SEARCH_TEST_SEED ?? 20261124);
const TICKETS_PER_BOARD = 40;
const QUERIES = 120;

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}
const next = random(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

/** Pieces text is made of: cases, Unicode folding (ß, İ, Σ, combining marks), #, digits, quotes. */
const PIECES = [
  "ab",
  "AB",
  "c",
  "Ä",
  "ä",
  "ß",
  "SS",
  "İ",
  "i",
  "Σσς",
  "e\u0301",
  "é",
  " ",
  "#",
  "1",
  "23",
  "-",
  '"',
  "*",
  "x y",
  "\n",
];
const text = (pieces: number) => Array.from({ length: pieces }, () => pick(PIECES)).join("");

interface Known {
  id: number;
  title: string;
  bodyMarkdown: string;
  references: Array<{ kind: string; provider: string; issueKey: string; searchText: string }>;
}

/** docs/api.md, "Search", applied to every ticket: the answer the index must give. */
function scan(tickets: readonly Known[], q: string): number[] {
  const search = parseTicketSearch(q);
  if (!search) return tickets.map((ticket) => ticket.id).sort((a, b) => a - b);
  const ascii = (value: string) => value.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return tickets
    .filter((ticket) => {
      const own = searchTextOf(ticket.title, ticket.bodyMarkdown).includes(search.text);
      if (search.kind === "id") return ticket.id === search.id || own;
      if (search.kind === "text") {
        return (
          own ||
          `#${ticket.id}`.includes(search.text) ||
          ticket.references.some((reference) => reference.searchText.includes(search.text))
        );
      }
      return (
        own ||
        (search.external &&
          ticket.references.some(
            (reference) =>
              ascii(reference.issueKey) === ascii(search.key) &&
              (search.provider === null || ascii(reference.provider) === search.provider),
          ))
      );
    })
    .map((ticket) => ticket.id)
    .sort((a, b) => a - b);
}

let api: TestServer = await startTestServer();
const boards: number[] = [];
const lanes = new Map<number, number>();
const known = new Map<number, Map<number, Known>>();

async function ok(response: Promise<{ status: number; text: string; body: any }>, status = 200) {
  const answer = await response;
  assert.equal(answer.status, status, answer.text);
  return answer.body;
}

async function setReference(boardId: number, ticket: Known) {
  const kind = pick(["source", "spec"]);
  const fields = {
    provider: pick(["github", "GitLab", "redmine"]),
    instanceUrl: "https://example.test",
    projectKey: pick(["acme/app", "Ärger/ß"]),
    issueKey: pick(["12", "1", "AB-3", "ab-3", "İx"]),
    displayRef: text(2),
    url: `https://example.test/${text(1).replace(/\s/g, "")}`,
    title: text(3),
  };
  await ok(api.put(`/api/tickets/${ticket.id}/external-references/${kind}`, fields));
  ticket.references = ticket.references.filter((reference) => reference.kind !== kind);
  ticket.references.push({
    kind,
    provider: fields.provider,
    issueKey: fields.issueKey,
    searchText: referenceSearchText(kind, { ...fields, resourceType: "issue" }),
  });
  known.get(boardId)?.set(ticket.id, ticket);
}

/** Queries: pieces of stored text (any length, 1-2 characters included), ids, references. */
function queries(): string[] {
  const all = [...known.values()].flatMap((board) => [...board.values()]);
  const sources = all.flatMap((ticket) => [
    ticket.title,
    ticket.bodyMarkdown,
    ...ticket.references.map((reference) => reference.searchText),
  ]);
  const result: string[] = ["1", "#", "ab", "ss", "ß", "i̇", "ς", "e\u0301"];
  while (result.length < QUERIES) {
    const roll = next();
    if (roll < 0.55) {
      const source = [...pick(sources)];
      const start = Math.floor(next() * source.length);
      result.push(source.slice(start, start + 1 + Math.floor(next() * 7)).join(""));
    } else if (roll < 0.7) result.push(text(1 + Math.floor(next() * 3)));
    else if (roll < 0.8) result.push(`#${pick(all).id}`);
    else if (roll < 0.85) result.push(String(pick(all).id));
    else
      result.push(
        `${pick(["gh", "GL", "rm", "ext", "external", "remote"])}#${pick(["12", "1", "ab-3", "İX"])}`,
      );
  }
  return result;
}

async function assertSearchesMatchScan(stage: string) {
  for (const q of queries()) {
    for (const boardId of boards) {
      const listed = await ok(
        api.get(`/api/boards/${boardId}/tickets?archived=all&q=${encodeURIComponent(q)}`),
      );
      const ids = listed.tickets
        .map((ticket: { id: number }) => ticket.id)
        .sort((a: number, b: number) => a - b);
      const expected = scan([...(known.get(boardId)?.values() ?? [])], q);
      assert.deepEqual(
        ids,
        expected,
        `${stage}: board ${boardId}, q=${JSON.stringify(q)} (seed ${SEED})`,
      );
    }
  }
}

async function seed() {
  for (let b = 0; b < 2; b++) {
    const detail = await ok(
      api.post("/api/boards", { name: `board ${b}`, laneNames: ["todo"] }),
      201,
    );
    boards.push(detail.board.id);
    lanes.set(detail.board.id, detail.lanes[0].id);
    known.set(detail.board.id, new Map());
    for (let i = 0; i < TICKETS_PER_BOARD; i++) {
      const title = text(1 + Math.floor(next() * 4)).trim() || "t";
      const bodyMarkdown = text(Math.floor(next() * 12));
      const created = await ok(
        api.post(`/api/boards/${detail.board.id}/tickets`, {
          laneId: detail.lanes[0].id,
          title,
          bodyMarkdown,
        }),
        201,
      );
      const ticket: Known = { id: created.id, title: created.title, bodyMarkdown, references: [] };
      known.get(detail.board.id)?.set(ticket.id, ticket);
      if (next() < 0.3) await setReference(detail.board.id, ticket);
    }
  }
}

test("index answers equal a scan on generated boards", async () => {
  await seed();
  await assertSearchesMatchScan("created");
});

test("...after title and body edits, reference changes, deletions and moves", async () => {
  const [first, second] = boards as [number, number];
  for (const ticket of [...(known.get(first)?.values() ?? [])].slice(0, 60)) {
    const roll = next();
    if (roll < 0.3) {
      // Title, body or both: the index re-indexes only the parts whose text changed.
      const edit: { title?: string; bodyMarkdown?: string } = {};
      if (roll < 0.2) edit.title = text(2).trim() || "u";
      if (roll >= 0.1) edit.bodyMarkdown = text(6);
      const updated = await ok(api.patch(`/api/tickets/${ticket.id}`, edit));
      ticket.title = updated.title;
      ticket.bodyMarkdown = updated.bodyMarkdown;
    } else if (roll < 0.45) {
      await setReference(first, ticket);
    } else if (roll < 0.55 && ticket.references.length > 0) {
      const [reference] = ticket.references;
      await ok(api.delete(`/api/tickets/${ticket.id}/external-references/${reference?.kind}`));
      ticket.references = ticket.references.slice(1);
    } else if (roll < 0.7) {
      await ok(api.delete(`/api/tickets/${ticket.id}`), 204);
      known.get(first)?.delete(ticket.id);
    } else if (roll < 0.85) {
      await ok(
        api.post(`/api/tickets/${ticket.id}/move`, { boardId: second, laneId: lanes.get(second) }),
      );
      known.get(first)?.delete(ticket.id);
      known.get(second)?.set(ticket.id, ticket);
    }
  }
  await assertSearchesMatchScan("edited");
  const pending = api.server.db.prepare("SELECT COUNT(*) FROM ticket_search_pending").pluck();
  await waitUntil(() => pending.get() === 0);
  await assertSearchesMatchScan("edited, then indexed");
});

test("...for an imported board, for tickets not indexed yet, and after indexing them at start", async () => {
  const exported = await ok(api.get(`/api/boards/${boards[0]}/export`));
  const imported = await ok(api.post("/api/boards/import", exported), 201);
  const boardId: number = imported.board.id;
  boards.push(boardId);
  known.set(boardId, new Map());
  for (const ticket of imported.tickets) {
    known.get(boardId)?.set(ticket.id, {
      id: ticket.id,
      title: ticket.title,
      bodyMarkdown: ticket.bodyMarkdown,
      references: ticket.externalReferences.map((reference: any) => ({
        kind: reference.kind,
        provider: reference.provider,
        issueKey: reference.issueKey,
        searchText: referenceSearchText(reference.kind, reference),
      })),
    });
  }
  const db = () => api.server.db;
  const count = (sql: string) => db().prepare(sql).pluck().get() as number;
  await waitUntil(() => count("SELECT COUNT(*) FROM ticket_search_pending") === 0);
  await assertSearchesMatchScan("imported");

  // A board import's tickets wait as pending until the background indexing reaches them (as
  // do a migrated database's): searches must scan them. Put the board back in that state.
  db().exec(`DELETE FROM ticket_search WHERE rowid >> 2 IN (SELECT id FROM tickets WHERE board_id = ${boardId});
    INSERT INTO ticket_search_pending (ticket_id, parts) SELECT id, 7 FROM tickets WHERE board_id = ${boardId}`);
  await assertSearchesMatchScan("not indexed yet");

  // A start indexes what is pending, in the background.
  const { dbFile } = api;
  await api.close();
  api = await startTestServer({ dbFile });
  await waitUntil(() => count("SELECT COUNT(*) FROM ticket_search_pending") === 0);
  const tickets = count("SELECT COUNT(*) FROM tickets");
  assert.equal(
    count("SELECT COUNT(DISTINCT id >> 2) FROM ticket_search_docsize"),
    tickets,
    "every ticket indexed",
  );
  await assertSearchesMatchScan("indexed at start");
  assert.equal(foldForSearch("ẞ"), "ß", "the fold the index relies on");
});

/** Polls (no timing assertion: only a guard against waiting forever). */
async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, "gave up waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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

test("a write lists only the parts of a ticket's text that changed (body 2, references 4); a title is indexed in its own transaction", async () => {
  const server = await startTestServer();
  try {
    const board = await ok(server.post("/api/boards", { name: "parts" }), 201);
    const ticket = await ok(
      server.post(`/api/boards/${board.board.id}/tickets`, {
        laneId: board.lanes[0].id,
        title: "Parts",
        bodyMarkdown: "line one\nline two",
      }),
      201,
    );
    const { db } = server.server;
    const pending = db
      .prepare("SELECT parts FROM ticket_search_pending WHERE ticket_id = ?")
      .pluck();
    // The ticket's title part (rowid id * 4) among the index rows holding a trigram.
    const titleIndexed = db
      .prepare("SELECT count(*) FROM ticket_search WHERE ticket_search MATCH ? AND rowid = ?")
      .pluck();
    const indexedTitle = (trigram: string) => titleIndexed.get(`"${trigram}"`, ticket.id * 4);
    await waitUntil(() => pending.get(ticket.id) === undefined);
    // Written and read back in one synchronous transaction, rolled back: the background indexer
    // cannot run in between.
    const rollBack = new Error("roll back");
    const after = <T>(write: () => void, read: () => T): T | undefined => {
      let seen: T | undefined;
      try {
        db.transaction(() => {
          write();
          seen = read();
          throw rollBack;
        })();
      } catch (error) {
        if (error !== rollBack) throw error;
      }
      return seen;
    };
    const partsAfter = (write: () => void) => after(write, () => pending.get(ticket.id));
    // The title's folded text is on the ticket row, the body's in the text row (migration 014).
    const setTitle = db.prepare("UPDATE tickets SET title_search = ? WHERE id = ?");
    const setBody = db.prepare("UPDATE ticket_texts SET search_text = ? WHERE ticket_id = ?");
    const retext = (title: string, body: string) => () => {
      setTitle.run(title, ticket.id);
      setBody.run(body, ticket.id);
    };
    assert.equal(partsAfter(retext("renamed", "line one\nline two")), undefined, "title alone");
    assert.equal(partsAfter(retext("parts", "line one\nline 2")), 2);
    assert.equal(partsAfter(retext("renamed", "line 1")), 2);
    assert.equal(partsAfter(retext("parts", "")), 2, "the body removed");
    assert.equal(partsAfter(retext("parts", "line one\nline two")), undefined, "nothing changed");
    // The renamed title's row is in the index before the transaction ends, the old one gone
    // (migration 020), and a rollback leaves the old title's row.
    assert.deepEqual(
      after(retext("renamed", "line one\nline two"), () => [
        indexedTitle("ren"),
        indexedTitle("par"),
      ]),
      [1, 0],
    );
    assert.deepEqual([indexedTitle("ren"), indexedTitle("par")], [0, 1], "rolled back");
    const addReference = () =>
      db
        .prepare(
          `INSERT INTO external_references (ticket_id, kind, provider, instance_url, resource_type,
             project_key, issue_key, display_ref, url, title, search_text, created_at, updated_at)
           VALUES (?, 'source', 'github', 'https://github.com', 'issue', 'o/r', '1', 'o/r#1',
             'https://github.com/o/r/issues/1', 't', 'o/r#1', 'x', 'x')`,
        )
        .run(ticket.id);
    assert.equal(partsAfter(addReference), 4);
    assert.equal(
      partsAfter(() => {
        addReference();
        retext("renamed", "line one\nline 2")();
      }),
      6,
    );
  } finally {
    await server.close();
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
