import assert from "node:assert/strict";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { useClock } from "../../src/domain/clock.js";
import { flowHistoryStore } from "../../src/storage/flow-history.js";
import { FLOW_HISTORIES_FROM_ACTIVITY } from "../../src/storage/migrations/012-flow-histories.js";
import { undoMigrationsAfter } from "../helpers/old-database.js";
import { seededRandom } from "../helpers/random.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

// Migration 012's flow histories are what insights read instead of the activity itself. Triggers
// on `activity` keep them (and, since 013, a revision the server's parsed copies are kept by); these tests check that after a randomized history of every kind of
// write that logs activity (creates, lane moves, resolutions, archives, claims, releases, board
// moves, bulk writes, an import, ticket and board deletes and restores from the trash, erases),
// the table holds exactly what a rebuild from the activity gives, that insights answer the same
// from either, and that an existing database is backfilled on upgrade.

const T0 = Date.parse("2026-02-01T00:00:00.000Z");
let clock = T0;
after(useClock(() => clock));

type Entry = unknown[];
/** Each ticket's flow entries, in time order (the order insights replay them in). */
function histories(db: Database.Database, sql: string): Map<number, Entry[]> {
  const rows = db.prepare(sql).raw(true).all() as Array<[number, string]>;
  const byTicket = new Map<number, Entry[]>();
  for (const [ticketId, entries] of rows) {
    const parsed = JSON.parse(`[${entries}]`) as Array<[number, number, ...unknown[]]>;
    parsed.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    byTicket.set(ticketId, parsed);
  }
  return new Map([...byTicket].sort(([a], [b]) => a - b));
}
const kept = (db: Database.Database) =>
  histories(db, "SELECT ticket_id, entries FROM flow_histories");
const rebuilt = (db: Database.Database) => histories(db, FLOW_HISTORIES_FROM_ACTIVITY);

const QUERY = `from=${new Date(T0 - 86_400_000).toISOString()}&to=${new Date(T0 + 40 * 86_400_000).toISOString()}&bucket=day`;
async function answers(api: TestServer, boardIds: number[]) {
  const out: unknown[] = [];
  for (const id of boardIds) {
    const answer = await api.get(`/api/boards/${id}/insights?${QUERY}`);
    out.push(answer.status === 200 ? answer.body : answer.status);
  }
  return out;
}

const api = await startTestServer();
const next = seededRandom(2311);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
const boards: Array<{ id: number; lanes: Array<{ id: number; name: string }> }> = [];
const everBoards: number[] = [];
const actors = ["ann", "bob", "cy"];

async function newBoard(name: string) {
  const made = (await api.post("/api/boards", { name, laneNames: ["todo", "doing", "done"] })).body;
  boards.push({ id: made.board.id, lanes: made.lanes });
  everBoards.push(made.board.id);
}

async function liveTickets(): Promise<Array<{ id: number; boardId: number }>> {
  const out: Array<{ id: number; boardId: number }> = [];
  for (const board of boards) {
    const list = await api.get(`/api/boards/${board.id}/tickets?archived=all`);
    for (const ticket of list.body.tickets) out.push({ id: ticket.id, boardId: board.id });
  }
  return out;
}

/** One random write of any kind that logs activity; answers are not checked here, only kept. */
async function randomWrite(step: number): Promise<void> {
  // Time goes on by 0 (entries at the same millisecond) to 6 hours.
  clock += next() < 0.15 ? 0 : Math.floor(next() * 6 * 3_600_000);
  const board = pick(boards);
  const tickets = await liveTickets();
  const ticket = tickets.length > 0 ? pick(tickets) : undefined;
  const kind = next();
  if (!ticket || kind < 0.18) {
    const lane = pick(board.lanes);
    await api.post(`/api/boards/${board.id}/tickets`, { laneId: lane.id, title: `t${step}` });
  } else if (kind < 0.3) {
    const home = boards.find((candidate) => candidate.id === ticket.boardId) ?? board;
    await api.patch(`/api/tickets/${ticket.id}`, { laneId: pick(home.lanes).id });
  } else if (kind < 0.36) {
    await api.patch(`/api/tickets/${ticket.id}/transition`, {
      laneName: pick(["todo", "doing", "done"]),
      isResolved: next() < 0.5,
    });
  } else if (kind < 0.46) {
    await api.patch(`/api/tickets/${ticket.id}`, { isResolved: next() < 0.6 });
  } else if (kind < 0.5) {
    await api.patch(`/api/tickets/${ticket.id}`, { isArchived: next() < 0.5 });
  } else if (kind < 0.6) {
    await api.post(`/api/tickets/${ticket.id}/claim`, { actor: pick(actors), leaseSeconds: 600 });
  } else if (kind < 0.65) {
    await api.post(`/api/tickets/${ticket.id}/release`, { actor: pick(actors) });
  } else if (kind < 0.7) {
    await api.patch(`/api/tickets/${ticket.id}`, { title: `renamed ${step}` });
  } else if (kind < 0.77) {
    const target = pick(boards);
    await api.post(`/api/tickets/${ticket.id}/move`, {
      boardId: target.id,
      laneId: pick(target.lanes).id,
    });
  } else if (kind < 0.8) {
    const ids = tickets.filter((t) => t.boardId === board.id).map((t) => t.id);
    if (ids.length > 0) {
      await api.post(`/api/boards/${board.id}/tickets/bulk-complete`, {
        ticketIds: ids.slice(0, 3),
        isResolved: next() < 0.5,
      });
    }
  } else if (kind < 0.87) {
    await api.delete(`/api/tickets/${ticket.id}`);
  } else if (kind < 0.95) {
    const trash = (await api.get("/api/trash")).body.items;
    if (trash.length > 0) {
      const entry = pick(trash) as { id: number };
      await (next() < 0.8
        ? api.post(`/api/trash/${entry.id}/restore`)
        : api.delete(`/api/trash/${entry.id}`));
    }
  } else {
    const lanes = [
      { id: 1, name: "todo" },
      { id: 2, name: "done" },
    ];
    const imported = (
      await api.post("/api/boards/import", {
        board: { name: `imported ${step}` },
        lanes,
        tickets: [
          { id: 1, laneId: 1, title: "open" },
          { id: 2, laneId: 2, title: "resolved", isResolved: true },
          { id: 3, laneId: 2, title: "archived", isArchived: true },
        ],
      })
    ).body;
    boards.push({ id: imported.board.id, lanes: imported.lanes });
    everBoards.push(imported.board.id);
  }
}

test("the triggers keep flow_histories equal to a rebuild from the activity, and insights answer the same from both", async () => {
  await newBoard("one");
  await newBoard("two");
  const reader = new Database(api.dbFile);
  for (let step = 0; step < 140; step++) {
    await randomWrite(step);
    if (step % 10 === 9) {
      // The server keeps parsed histories by revision between requests: what it answers after
      // these writes must equal what it answers once every revision is new (all parsed afresh).
      const kept = await answers(api, everBoards);
      reader.exec("UPDATE flow_histories SET revision = random() >> 11");
      assert.deepEqual(await answers(api, everBoards), kept, `insights after step ${step}`);
    }
    if (step === 70) {
      // A whole board to the trash and back: its activity is deleted and written again.
      const board = boards[0] as (typeof boards)[number];
      assert.equal((await api.delete(`/api/boards/${board.id}`)).status, 204);
      clock += 3_600_000;
      const entry = (await api.get("/api/trash")).body.items.find(
        (item: { kind: string; objectId: number }) =>
          item.kind === "board" && item.objectId === board.id,
      );
      assert.equal((await api.post(`/api/trash/${entry.id}/restore`)).status, 200);
      boards.unshift(board);
    }
  }
  reader.close();
  const db = new Database(api.dbFile);
  try {
    // An entry written with an earlier time than those before it (another process's clock set
    // back): its ticket's history is no longer in time order as written.
    const [subject, board] = db
      .prepare("SELECT id, board_id FROM tickets ORDER BY id LIMIT 1")
      .raw(true)
      .get() as [number, number];
    db.prepare(
      `INSERT INTO activity (board_id, ticket_id, subject_ticket_id, action, message, details_json,
        created_at) VALUES (?, ?, ?, 'ticket_claimed', 'Claimed by zed', '{"actor":"zed"}', ?)`,
    ).run(board, subject, subject, new Date(T0 - 3_600_000).toISOString());
    const actual = kept(db);
    assert.ok(actual.size > 20, `a history of ${actual.size} tickets`);
    assert.deepEqual(actual, rebuilt(db));
    // That history was written out of time order, and the store hands every history to the
    // replay in time order.
    const rows = db.prepare("SELECT entries FROM flow_histories").pluck().all() as string[];
    const inOrder = (entries: Array<[number, number]>) =>
      entries.every(([at, id], i) => {
        const [previousAt, previousId] = entries[i - 1] ?? [at, id];
        return previousAt < at || (previousAt === at && previousId <= id);
      });
    assert.ok(rows.some((entries) => !inOrder(JSON.parse(`[${entries}]`))));
    const store = flowHistoryStore(db as never);
    for (const boardId of everBoards) {
      for (const ticket of store.tickets(boardId)) {
        assert.ok(inOrder(ticket.entries as never), `ticket ${ticket.id} in time order`);
      }
    }

    const fromTriggers = await answers(api, everBoards);
    db.exec(
      `DELETE FROM flow_histories; INSERT INTO flow_histories (ticket_id, entries) ${FLOW_HISTORIES_FROM_ACTIVITY}`,
    );
    assert.deepEqual(await answers(api, everBoards), fromTriggers);
  } finally {
    db.close();
  }
});

test("a database from before migration 012 gets its flow histories from its activity on upgrade", async () => {
  const before = await answers(api, everBoards);
  await api.close();
  const db = new Database(api.dbFile);
  const expected = rebuilt(db);
  undoMigrationsAfter(db, 15);
  db.exec(`DROP TRIGGER flow_histories_insert; DROP TRIGGER flow_histories_delete;
    DROP TRIGGER flow_histories_update; DROP TABLE flow_histories;`);
  db.pragma("user_version = 11");
  db.close();

  const upgraded = await startTestServer({ dbFile: api.dbFile });
  try {
    assert.deepEqual(await answers(upgraded, everBoards), before);
    const reopened = new Database(api.dbFile, { readonly: true });
    try {
      assert.deepEqual(kept(reopened), expected);
    } finally {
      reopened.close();
    }
    // The triggers are back: a new entry lands in its ticket's history.
    const board = boards[0] as (typeof boards)[number];
    const created = (
      await upgraded.post(`/api/boards/${board.id}/tickets`, {
        laneId: board.lanes[0]?.id,
        title: "after the upgrade",
      })
    ).body;
    const check = new Database(api.dbFile, { readonly: true });
    try {
      assert.equal(kept(check).get(created.id)?.length, 1);
    } finally {
      check.close();
    }
  } finally {
    await upgraded.close();
  }
});
