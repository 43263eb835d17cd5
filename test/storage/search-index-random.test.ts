import assert from "node:assert/strict";
import { test } from "node:test";
import { referenceSearchText } from "../../src/domain/annotations/external-references.js";
import { foldForSearch } from "../../src/domain/search-text.js";
import { ok } from "../helpers/factories.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { type Known, scan, waitUntil } from "./search-index-scan.js";

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

let api: TestServer = await startTestServer();
const boards: number[] = [];
const lanes = new Map<number, number>();
const known = new Map<number, Map<number, Known>>();

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
