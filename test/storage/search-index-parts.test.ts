import assert from "node:assert/strict";
import { test } from "node:test";
import { ok } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { waitUntil } from "./search-index-scan.js";

// The triggers that list a written ticket as pending for the search index, with the parts of its
// text to index again.

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
