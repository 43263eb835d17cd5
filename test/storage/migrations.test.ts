import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { initialSchema } from "../../src/storage/migrations/001-initial.js";
import { startTestServer } from "../helpers/server.js";

const folder = mkdtempSync(join(tmpdir(), "tack-migrations-"));
after(() => rmSync(folder, { recursive: true, force: true }));

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
  const file = join(folder, "rerender.sqlite");
  const api = await startTestServer({ dbFile: file });
  const board = (await api.post("/api/boards", { name: "b" })).body;
  const laneId = board.lanes[0].id;
  const ticket = (
    await api.post(`/api/boards/${board.board.id}/tickets`, {
      laneId,
      title: "t",
      bodyMarkdown: "~~old~~ Set the <title> of the page",
    })
  ).body;
  await api.post(`/api/tickets/${ticket.id}/comments`, { bodyMarkdown: "mail foo@bar.baz" });
  await api.close();

  // The HTML as the previous release stored it, and the schema version it left.
  const db = new Database(file);
  db.prepare("UPDATE ticket_texts SET body_html = ?").run("<p><s>old</s> Set the [removed]</p>\n");
  db.prepare("UPDATE comments SET body_html = ?").run("<p>mail foo@bar.baz</p>\n");
  db.pragma("user_version = 8");
  db.close();

  const reopened = await startTestServer({ dbFile: file });
  try {
    const read = (await reopened.get(`/api/tickets/${ticket.id}`)).body;
    assert.equal(read.bodyHtml, "<p><del>old</del> Set the &lt;title&gt; of the page</p>\n");
    assert.match(
      read.comments[0].bodyHtml,
      /<a href="mailto:foo@bar\.baz" [^>]*>foo@bar\.baz<\/a>/,
    );
  } finally {
    await reopened.close();
  }
});
