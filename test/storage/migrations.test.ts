import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { initialSchema } from "../../src/storage/migrations/001-initial.js";
import { checklistsSchema } from "../../src/storage/migrations/017-checklists.js";
import { rerenderMarkdownRealDocuments } from "../../src/storage/migrations/018-rerender-markdown-real-documents.js";
import { titleIndexedInline } from "../../src/storage/migrations/020-title-indexed-inline.js";
import { searchMergesBounded } from "../../src/storage/migrations/021-search-merges-bounded.js";
import { migrations } from "../../src/storage/migrations/index.js";
import { databaseAtVersion } from "../helpers/old-database.js";
import { startTestServer } from "../helpers/server.js";

const folder = mkdtempSync(join(tmpdir(), "tack-migrations-"));
after(() => rmSync(folder, { recursive: true, force: true }));

/** Board 1 with lane 1, as SQL for `databaseAtVersion`. */
const AT = "2026-01-01T00:00:00.000Z";
const ONE_BOARD_ONE_LANE = `INSERT INTO boards (id, name, position, created_at, updated_at) VALUES (1, 'b', 0, '${AT}', '${AT}');
    INSERT INTO lanes (id, board_id, name, position) VALUES (1, 1, 'todo', 0);`;

/** A database as the first release of tack left it: schema version 1, with some history. */
function firstReleaseDatabase(file: string): void {
  const db = new Database(file);
  db.exec(initialSchema);
  db.pragma("user_version = 1");
  const at = "2026-01-01T00:00:00.000Z";
  db.exec(`
    INSERT INTO boards VALUES (5, 'kept', 2, '${at}', '${at}');
    -- Positions with gaps, as deletes left them before positions were kept contiguous.
    INSERT INTO boards VALUES (4, 'first', 0, '${at}', '${at}');
    INSERT INTO boards VALUES (2, 'last', 7, '${at}', '${at}');
    INSERT INTO lanes VALUES (7, 5, 'todo', 0);
    INSERT INTO tags VALUES (3, 5, 'Bug', 'bug', '#ff0000');
    INSERT INTO tickets VALUES (10, 5, 7, NULL, 'survivor', 0, 0, 2, 0, '${at}', '${at}');
    -- HTML as the first release rendered it: a single newline was no line break.
    INSERT INTO ticket_texts VALUES (10, 'survivor one
two', 'one
two', '<p>one
two</p>');
    INSERT INTO ticket_tags (ticket_id, tag_id) VALUES (10, 3);
    INSERT INTO comments (id, ticket_id, body_markdown, body_html, created_at, updated_at,
      sync_created_at, sync_updated_at) VALUES (20, 10, '<kbd>Esc</kbd>', '<p>&lt;kbd&gt;Esc&lt;/kbd&gt;</p>', '${at}', '${at}', '${at}', '${at}');
    -- Ticket 12 was deleted; its history stays readable under its id.
    INSERT INTO activity VALUES (30, 5, NULL, 12, 'ticket_deleted', 'Ticket deleted', '{}', '${at}');
    INSERT INTO activity VALUES (31, 5, 10, 10, 'ticket_created', 'Ticket created', '{}', '${at}');
  `);
  db.close();
}

test("an existing database is upgraded in place: every row and id kept, deleted ids not reused", async () => {
  const file = join(folder, "upgrade.sqlite");
  firstReleaseDatabase(file);
  const api = await startTestServer({ dbFile: file });

  const boards = (await api.get("/api/boards")).body.boards;
  assert.deepEqual(
    boards.map((board: any) => [board.id, board.position]),
    [
      [4, 0],
      [5, 1],
      [2, 2],
    ],
  );
  const shell = (await api.get("/api/boards/5")).body;
  assert.deepEqual(
    shell.lanes.map((lane: any) => [lane.id, lane.name]),
    [[7, "todo"]],
  );
  assert.deepEqual(
    shell.tags.map((tag: any) => [tag.id, tag.name]),
    [[3, "Bug"]],
  );
  const ticket = (await api.get("/api/tickets/10")).body;
  assert.equal(ticket.title, "survivor");
  assert.equal(ticket.bodyMarkdown, "one\ntwo");
  assert.equal(ticket.bodyHtml, "<p>one<br />\ntwo</p>\n", "stored HTML rendered again");
  assert.equal(ticket.comments[0].bodyHtml, "<p><kbd>Esc</kbd></p>\n");
  assert.deepEqual(
    ticket.tags.map((tag: any) => tag.id),
    [3],
  );
  assert.deepEqual(
    ticket.comments.map((comment: any) => comment.id),
    [20],
  );
  assert.equal((await api.get("/api/tickets/12/activity")).body.activity[0].id, 30);

  const created = (await api.post("/api/boards/5/tickets", { laneId: 7, title: "new" })).body;
  assert.equal(created.id, 13, "above the deleted ticket 12 that activity remembers");
  const comment = (await api.post("/api/tickets/10/comments", { bodyMarkdown: "c" })).body;
  assert.equal(comment.id, 21);
  const board = (await api.post("/api/boards", { name: "next" })).body;
  assert.equal(board.board.id, 6);

  // Deleting the cascade parents still removes their children: foreign keys survived the rebuild.
  assert.equal((await api.delete("/api/boards/5")).status, 204);
  assert.equal((await api.get("/api/tickets/10")).status, 404);
  await api.close();

  const db = new Database(file, { readonly: true });
  try {
    for (const table of ["boards", "lanes", "tags", "tickets", "comments", "activity"]) {
      const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE name = ?").pluck().get(table);
      assert.match(String(sql), /AUTOINCREMENT/, table);
    }
    assert.deepEqual(db.pragma("foreign_key_check"), []);
    assert.equal(db.prepare("SELECT count(*) FROM comments").pluck().get(), 0);
  } finally {
    db.close();
  }
});

test("bodies stored before GitHub's rendering rules are rendered again (migration 009)", async () => {
  // A database as the release before 009 left it (schema version 8), with that release's HTML.
  const file = join(folder, "rerender.sqlite");
  const at = "2026-01-01T00:00:00.000Z";
  databaseAtVersion(
    file,
    8,
    `INSERT INTO boards (id, name, position, created_at, updated_at) VALUES (1, 'b', 0, '${at}', '${at}');
    INSERT INTO lanes (id, board_id, name, position) VALUES (1, 1, 'todo', 0);
    INSERT INTO tickets (id, board_id, lane_id, title, position, created_at, updated_at)
      VALUES (1, 1, 1, 't', 0, '${at}', '${at}');
    INSERT INTO ticket_texts (ticket_id, search_text, body_markdown, body_html)
      VALUES (1, 't', '~~old~~ Set the <title> of the page', '<p><s>old</s> Set the [removed]</p>');
    INSERT INTO comments (id, ticket_id, body_markdown, body_html, created_at, updated_at,
      sync_created_at, sync_updated_at)
      VALUES (1, 1, 'mail foo@bar.baz', '<p>mail foo@bar.baz</p>', '${at}', '${at}', '${at}', '${at}');`,
  );

  const reopened = await startTestServer({ dbFile: file });
  try {
    const read = (await reopened.get("/api/tickets/1")).body;
    assert.equal(read.bodyHtml, "<p><del>old</del> Set the &lt;title&gt; of the page</p>\n");
    assert.match(
      read.comments[0].bodyHtml,
      /<a href="mailto:foo@bar\.baz" [^>]*>foo@bar\.baz<\/a>/,
    );
  } finally {
    await reopened.close();
  }
});

test("stored HTML is rendered as GitHub shows real documents (migration 018): bodies, asks, the trash", async () => {
  // A database as the release before 018 left it, with that release's HTML everywhere.
  const file = join(folder, "rerender-018.sqlite");
  const at = "2026-01-01T00:00:00.000Z";
  const snapshot = JSON.stringify({
    kind: "ticket",
    ticket: { id: 2, boardId: 1, laneId: 1, position: 1, version: 1 },
    rows: {
      tickets: [{ id: 2, title: "gone", body_html_like: "<p>untouched</p>" }],
      ticket_texts: [
        { ticket_id: 2, body_markdown: "## Hello World", body_html: "<h2>Hello World</h2>" },
      ],
      comments: [{ id: 9, body_markdown: "[jump](#hello-world)", body_html: "<p>old</p>" }],
      asks: [
        {
          id: 7,
          question: "~this~?",
          question_html: "<p>~this~?</p>",
          answer_text: null,
          answer_html: null,
        },
      ],
    },
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
  });
  const index = migrations.indexOf(rerenderMarkdownRealDocuments);
  assert.ok(index > 0, "migration 018 is in the list");
  databaseAtVersion(
    file,
    index,
    `INSERT INTO boards (id, name, position, created_at, updated_at) VALUES (1, 'b', 0, '${at}', '${at}');
    INSERT INTO lanes (id, board_id, name, position) VALUES (1, 1, 'todo', 0);
    INSERT INTO tickets (id, board_id, lane_id, title, position, created_at, updated_at)
      VALUES (1, 1, 1, 't', 0, '${at}', '${at}');
    INSERT INTO ticket_texts (ticket_id, search_text, body_markdown, body_html)
      VALUES (1, 't', '<p align="center">~approx~</p>', '<p>approx</p>');
    INSERT INTO comments (id, ticket_id, body_markdown, body_html, created_at, updated_at,
      sync_created_at, sync_updated_at)
      VALUES (1, 1, '# Usage', '<h1>Usage</h1>', '${at}', '${at}', '${at}', '${at}');
    INSERT INTO asks (id, ticket_id, actor, question, question_html, status, answer_text,
      answer_html, answered_by, created_at, answered_at)
      VALUES (1, 1, 'agent', 'Keep ~this~?', '<p>Keep ~this~?</p>', 'answered', '# Yes',
        '<h1>Yes</h1>', 'me', '${at}', '${at}'),
      (2, 1, 'agent', '<https://x.example/%5B>', 'old', 'open', NULL, NULL, NULL, '${at}', NULL);
    INSERT INTO trash (kind, object_id, board_id, label, deleted_at, expires_at, snapshot)
      VALUES ('ticket', 2, 1, 'gone', '${at}', '2999-01-01T00:00:00.000Z', '${snapshot.replace(/'/g, "''")}');`,
  );

  const reopened = await startTestServer({ dbFile: file });
  try {
    const read = (await reopened.get("/api/tickets/1")).body;
    assert.equal(read.bodyHtml, '<p align="center">~approx~</p>');
    assert.equal(read.comments[0].bodyHtml, '<h1 id="user-content-usage">Usage</h1>\n');
  } finally {
    await reopened.close();
  }
  const db = new Database(file, { readonly: true });
  try {
    const asks = db.prepare("SELECT question_html, answer_html FROM asks ORDER BY id").all();
    assert.deepEqual(asks, [
      {
        question_html: "<p>Keep <del>this</del>?</p>\n",
        answer_html: '<h1 id="user-content-yes">Yes</h1>\n',
      },
      {
        question_html:
          '<p><a href="https://x.example/%5B" rel="noopener noreferrer" target="_blank">https://x.example/%5B</a></p>\n',
        answer_html: null,
      },
    ]);
    const kept = JSON.parse(db.prepare("SELECT snapshot FROM trash").pluck().get() as string);
    assert.equal(
      kept.rows.ticket_texts[0].body_html,
      '<h2 id="user-content-hello-world">Hello World</h2>\n',
    );
    assert.equal(kept.rows.comments[0].body_html, '<p><a href="#hello-world">jump</a></p>\n');
    assert.equal(kept.rows.asks[0].question_html, "<p><del>this</del>?</p>\n");
    assert.equal(kept.rows.asks[0].answer_html, null);
    assert.equal(kept.rows.tickets[0].body_html_like, "<p>untouched</p>");
    assert.deepEqual(kept.links.childIds, []);
  } finally {
    db.close();
  }
});

test("no migration creates with IF NOT EXISTS: each runs once per database, and the clause would hide a name taken twice", () => {
  for (const [index, migration] of migrations.entries()) {
    if (typeof migration === "string") {
      assert.doesNotMatch(migration, /IF NOT EXISTS/i, `migration ${index + 1}`);
    }
  }
});

test("migration 017 counts the checklists of existing tickets", async () => {
  const file = join(folder, "checklists.sqlite");
  const at = "2026-01-01T00:00:00.000Z";
  const index = migrations.indexOf(checklistsSchema);
  assert.ok(index > 0, "migration 017 is in the list");
  const ticket = (id: number, body: string) => `
    INSERT INTO tickets (id, board_id, lane_id, title, position, created_at, updated_at)
      VALUES (${id}, 1, 1, 't', ${id}, '${at}', '${at}');
    INSERT INTO ticket_texts (ticket_id, search_text, body_markdown, body_html)
      VALUES (${id}, 't', '${body}', '');`;
  databaseAtVersion(
    file,
    index,
    `INSERT INTO boards (id, name, position, created_at, updated_at) VALUES (1, 'b', 0, '${at}', '${at}');
    INSERT INTO lanes (id, board_id, name, position) VALUES (1, 1, 'todo', 0);
    ${ticket(1, "- [x] a\n- [ ] b\n  - [X] c\n\n```\n- [ ] code\n```")}
    ${ticket(2, "no [list] here")}
    ${ticket(3, "* [ ]\u00a0nbsp")}`,
  );
  const api = await startTestServer({ dbFile: file });
  try {
    const checklists = [];
    for (const id of [1, 2, 3])
      checklists.push((await api.get(`/api/tickets/${id}`)).body.checklist);
    assert.deepEqual(checklists, [
      { done: 2, total: 3 },
      { done: 0, total: 0 },
      { done: 0, total: 1 },
    ]);
  } finally {
    await api.close();
  }
});

test("migration 020: after the upgrade a title PATCH rewrites the title's index row in its own transaction, nothing left pending", async () => {
  const file = join(folder, "title-inline.sqlite");
  const index = migrations.indexOf(titleIndexedInline);
  assert.ok(index > 0, "migration 020 is in the list");
  databaseAtVersion(
    file,
    index,
    `${ONE_BOARD_ONE_LANE}
    INSERT INTO tickets (id, board_id, lane_id, title, title_search, position, created_at, updated_at)
      VALUES (7, 1, 1, 'Walrus census', 'walrus census', 0, '${AT}', '${AT}');
    INSERT INTO ticket_texts (ticket_id, search_text, body_markdown, body_html)
      VALUES (7, 'tusks', 'tusks', '<p>tusks</p>');`,
  );
  const api = await startTestServer({ dbFile: file });
  try {
    const { db } = api.server;
    const pending = db.prepare("SELECT count(*) FROM ticket_search_pending").pluck();
    const titleRows = db
      .prepare("SELECT count(*) FROM ticket_search WHERE ticket_search MATCH ? AND rowid = 28")
      .pluck();
    // The upgraded database's ticket was listed by its text's insert: the start indexes it.
    const deadline = Date.now() + 30_000;
    while (pending.get() !== 0) {
      assert.ok(Date.now() < deadline, "the start's indexing never drained the pending tickets");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(titleRows.get('"wal"'), 1);
    // Every listing for the indexer from here on, kept on the server's own connection (the
    // indexer may drain a listed ticket before the answer arrives).
    db.exec(`CREATE TEMP TABLE listed (ticket_id INTEGER);
      CREATE TEMP TRIGGER listed_for_indexer AFTER INSERT ON main.ticket_search_pending
      BEGIN INSERT INTO listed VALUES (NEW.ticket_id); END;`);
    const renamed = await api.patch("/api/tickets/7", { title: "Puffin count" });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(
      db.prepare("SELECT count(*) FROM temp.listed").pluck().get(),
      0,
      "a title PATCH lists nothing for the background indexer",
    );
    assert.deepEqual([titleRows.get('"puf"'), titleRows.get('"wal"')], [1, 0]);
    const found = await api.get("/api/boards/1/tickets?q=puffin");
    assert.deepEqual(
      found.body.tickets.map((ticket: { id: number }) => ticket.id),
      [7],
    );
    assert.equal((await api.get("/api/boards/1/tickets?q=walrus")).body.tickets.length, 0);
  } finally {
    await api.close();
  }
});

test("migration 021: the search index merges only when a level fills, on new and upgraded databases; searches stay right across its merges", async () => {
  const file = join(folder, "search-merges.sqlite");
  const index = migrations.indexOf(searchMergesBounded);
  assert.ok(index > 0, "migration 021 is in the list");
  databaseAtVersion(file, index, ONE_BOARD_ONE_LANE);
  const automerge = (db: Database.Database) =>
    db.prepare("SELECT v FROM ticket_search_config WHERE k = 'automerge'").pluck().get();
  const upgraded = await startTestServer({ dbFile: file });
  const fresh = await startTestServer();
  try {
    assert.equal(automerge(upgraded.server.db), 0, "an upgraded database");
    assert.equal(automerge(fresh.server.db), 0, "a new database");
    // 40 tickets renamed one write at a time: 80 single-title segments, merged at each 16th.
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) {
      const created = await upgraded.post("/api/boards/1/tickets", {
        laneId: 1,
        title: `Walrus ${i}`,
      });
      assert.equal(created.status, 201, created.text);
      ids.push(created.body.id);
    }
    for (const [i, id] of ids.entries()) {
      const renamed = await upgraded.patch(`/api/tickets/${id}`, { title: `Puffin ${i}` });
      assert.equal(renamed.status, 200, renamed.text);
    }
    const found = await upgraded.get("/api/boards/1/tickets?q=puffin");
    assert.deepEqual(
      found.body.tickets
        .map((ticket: { id: number }) => ticket.id)
        .sort((a: number, b: number) => a - b),
      ids,
    );
    assert.equal((await upgraded.get("/api/boards/1/tickets?q=walrus")).body.tickets.length, 0);
    // FTS5's own check of the index against its segments (it throws if they disagree).
    upgraded.server.db.exec("INSERT INTO ticket_search (ticket_search) VALUES ('integrity-check')");
  } finally {
    await upgraded.close();
    await fresh.close();
  }
});
