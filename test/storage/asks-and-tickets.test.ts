import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openDatabase } from "../../src/storage/database.js";
import { createStores } from "../../src/storage/index.js";

// How an ask shows in its ticket at the storage level (docs/api.md, "Asks"): its writes note the
// ticket (version +1 once per transaction, reported by the flush that feeds the board's stream
// and the kept lists), the ticket's row counts its open asks, and an open blocking ask keeps the
// ticket out of the ready rule.

const folder = mkdtempSync(join(tmpdir(), "tack-asks-"));
after(() => rmSync(folder, { recursive: true, force: true }));

const db = openDatabase(join(folder, "tack.sqlite"));
after(() => db.close());
const stores = createStores(db);
const at = new Date().toISOString();

db.prepare(
  "INSERT INTO boards (id, name, position, created_at, updated_at) VALUES (1, 'B', 0, ?, ?)",
).run(at, at);
db.prepare("INSERT INTO lanes (id, board_id, name, position) VALUES (1, 1, 'Todo', 0)").run();

let nextTicket = 1;
function newTicket(): number {
  const id = nextTicket++;
  db.prepare(
    `INSERT INTO tickets (id, board_id, lane_id, title, title_search, priority, position,
       created_at, updated_at) VALUES (?, 1, 1, 't', 't', 2, ?, ?, ?)`,
  ).run(id, id, at, at);
  db.prepare(
    "INSERT INTO ticket_texts (ticket_id, search_text, body_markdown, body_html) VALUES (?, '', '', '')",
  ).run(id);
  stores.ticketChanges.flush();
  return id;
}

function ask(ticketId: number, blocking: boolean): number {
  return Number(
    db
      .prepare(
        `INSERT INTO asks (ticket_id, actor, question, question_html, blocking, created_at)
         VALUES (?, 'agent', 'q?', '<p>q?</p>', ?, ?)`,
      )
      .run(ticketId, blocking ? 1 : 0, at).lastInsertRowid,
  );
}

const answer = (askId: number) =>
  db
    .prepare(
      "UPDATE asks SET status = 'answered', answered_by = 'me', answered_at = ? WHERE id = ?",
    )
    .run(at, askId);

/** Runs `work` in one transaction and returns the tickets its flush reported. */
function unit(work: () => void): number[] {
  db.transaction(work)();
  return stores.ticketChanges.flush().map((changed) => changed.ticketId);
}

const version = (id: number) => stores.tickets.version(id);
const openAsks = (id: number) => stores.tickets.row(id)?.openAsks;
const isReady = (id: number) =>
  stores.ticketReadiness.readyIds(1, new Date().toISOString()).has(id);

describe("asks seen by their tickets", () => {
  test("opening, answering and deleting an ask each note the ticket once per transaction", () => {
    const id = newTicket();
    const before = version(id) as number;
    let first = 0;
    assert.deepEqual(
      unit(() => {
        first = ask(id, true);
        ask(id, false);
      }),
      [id],
    );
    assert.equal(version(id), before + 1);
    assert.equal(openAsks(id), 2);
    assert.deepEqual(
      unit(() => answer(first)),
      [id],
    );
    assert.equal(version(id), before + 2);
    assert.equal(openAsks(id), 1);
    assert.deepEqual(
      unit(() => db.prepare("DELETE FROM asks WHERE ticket_id = ?").run(id)),
      [id],
    );
    assert.equal(version(id), before + 3);
    assert.equal(openAsks(id), 0);
  });

  test("an open blocking ask holds its ticket; a non-blocking one holds nothing", () => {
    const held = newTicket();
    const free = newTicket();
    let blocking = 0;
    unit(() => {
      blocking = ask(held, true);
      ask(free, false);
    });
    assert.equal(isReady(held), false);
    assert.equal(isReady(free), true);
    assert.equal(stores.ticketReadiness.startableIds(1).has(held), false);
    assert.equal(stores.ticketReadiness.startableAmong(1, [held, free]).has(held), false);
    unit(() => db.prepare("UPDATE asks SET status = 'withdrawn' WHERE id = ?").run(blocking));
    assert.equal(isReady(held), true);
  });
});
