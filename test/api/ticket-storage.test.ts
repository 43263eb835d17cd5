import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { countReads } from "../helpers/query-count.js";
import { startTestServer } from "../helpers/server.js";
import {
  boardWithLanes,
  getTicket,
  listTickets,
  newTicket,
  patchTicket,
} from "../helpers/tickets.js";

// How tickets are stored, as far as it shows in the work a request does: the large texts live in
// `ticket_texts` (docs/performance.md), and full-board answers use a fixed number of queries.

const api = await startTestServer();
const db = api.server.db;

/** Counts rewrites of text rows while `work` runs (a temporary trigger on ticket_texts). */
async function textRowWrites(work: () => Promise<unknown>): Promise<number> {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS text_writes (n INTEGER);
    DELETE FROM text_writes;
    CREATE TEMP TRIGGER IF NOT EXISTS count_text_writes AFTER UPDATE ON main.ticket_texts
    BEGIN INSERT INTO text_writes VALUES (1); END;`);
  try {
    await work();
    return (db.prepare("SELECT COUNT(*) AS n FROM text_writes").get() as { n: number }).n;
  } finally {
    db.exec("DROP TRIGGER count_text_writes; DROP TABLE text_writes;");
  }
}

/** Counts the reads the server runs while `work` runs. */
function queries(work: () => Promise<unknown>): Promise<number> {
  return countReads(db, work);
}

describe("ticket texts", () => {
  test("moves, flag and title changes leave the text row alone; body changes rewrite it", async () => {
    const board = await boardWithLanes(api, "Texts");
    const [todo, doing] = board.laneIds as [number, number];
    const body = "Long **body**\n\n".repeat(200);
    const first = await newTicket(api, board.boardId, todo, "first", {
      bodyMarkdown: `${body}Ælpha`,
    });
    const second = await newTicket(api, board.boardId, todo, "second", { bodyMarkdown: body });
    const move = (id: number, laneId: number, position: number) =>
      api.patch(`/api/tickets/${id}/position`, { laneId, position });

    assert.equal(
      await textRowWrites(async () => {
        assert.equal((await move(second.id, todo, 0)).status, 200);
        assert.equal((await move(first.id, doing, 0)).status, 200);
        await patchTicket(api, first.id, { priority: 4, isResolved: true, laneId: todo });
        await patchTicket(api, second.id, { bodyMarkdown: body, title: " second " });
        await patchTicket(api, second.id, { isArchived: true });
      }),
      0,
    );
    // The title's search text is on the ticket row (migration 014), not in the text row.
    assert.equal(
      await textRowWrites(() => patchTicket(api, first.id, { title: "first, renamed" })),
      0,
    );
    const byOldBody = await listTickets(api, board.boardId, "archived=all&q=%C3%A6lpha");
    assert.deepEqual(
      byOldBody.map((summary: any) => summary.id),
      [first.id],
    );
    assert.equal(
      await textRowWrites(() => patchTicket(api, first.id, { bodyMarkdown: "short" })),
      1,
    );
    const ticket = await getTicket(api, first.id);
    assert.equal(ticket.bodyMarkdown, "short");
    assert.equal(ticket.bodyHtml, "<p>short</p>\n");
    assert.equal(ticket.priority, 4);
    const found = await listTickets(api, board.boardId, "archived=all&q=RENAMED");
    assert.deepEqual(
      found.map((summary: any) => summary.id),
      [first.id],
    );
    assert.deepEqual(await listTickets(api, board.boardId, "archived=all&q=%C3%A6lpha"), []);
    const stillFound = await listTickets(api, board.boardId, "archived=all&q=long%20**body");
    assert.deepEqual(
      stillFound.map((summary: any) => summary.id),
      [second.id],
    );
  });

  test("deleting a ticket or its board deletes its text row", async () => {
    const textRows = () => (db.prepare("SELECT COUNT(*) AS n FROM ticket_texts").get() as any).n;
    const board = await boardWithLanes(api, "Gone");
    const before = textRows();
    const one = await newTicket(api, board.boardId, board.laneIds[0], "one", { bodyMarkdown: "x" });
    await newTicket(api, board.boardId, board.laneIds[0], "two");
    assert.equal(textRows(), before + 2);
    assert.equal((await api.delete(`/api/tickets/${one.id}`)).status, 204);
    assert.equal(textRows(), before + 1);
    assert.equal((await api.delete(`/api/boards/${board.boardId}`)).status, 204);
    assert.equal(textRows(), before);
  });
});

describe("full-board answers", () => {
  /** A board of `count` tickets, every one tracking a remote issue. */
  async function trackedBoard(count: number) {
    const board = await boardWithLanes(api, `Tracked ${count}`);
    const ids: number[] = [];
    for (let index = 0; index < count; index++) {
      const ticket = await newTicket(api, board.boardId, board.laneIds[0], `t${index}`);
      // Remote import is another module; give the ticket a tracked link directly.
      db.prepare(
        `INSERT INTO remote_links (ticket_id, provider, instance_url, project_key, issue_key,
           display_ref, url, title, body_markdown, body_html, last_synced_at, created_at,
           updated_at)
         VALUES (?, 'github', 'https://github.com', 'o/r', ?, ?, 'https://github.com/o/r/issues/1',
           ?, 'remote body', '<p>remote body</p>', ?, ?, ?)`,
      ).run(
        ticket.id,
        `${ticket.id}`,
        `o/r#${ticket.id}`,
        `t${index}`,
        ...Array(3).fill(ticket.createdAt),
      );
      ids.push(ticket.id);
    }
    return { boardId: board.boardId, laneId: board.laneIds[0] as number, ids };
  }

  test("the full-ticket answer of a board reorder reads each table once, remotes included", async () => {
    const reorder = async (board: Awaited<ReturnType<typeof trackedBoard>>) => {
      const items = [...board.ids]
        .reverse()
        .map((ticketId, position) => ({ ticketId, laneId: board.laneId, position }));
      const response = await api.post(`/api/boards/${board.boardId}/tickets/reorder`, { items });
      assert.equal(response.status, 200, response.text);
      return response.body.tickets;
    };
    const small = await trackedBoard(2);
    const large = await trackedBoard(6);
    assert.equal(await queries(() => reorder(large)), await queries(() => reorder(small)));
    const tickets = await reorder(large);
    assert.equal(tickets.length, 6);
    for (const ticket of tickets) {
      assert.deepEqual(ticket.remote, (await getTicket(api, ticket.id)).remote);
      assert.equal(ticket.remote.displayRef, `o/r#${ticket.id}`);
    }
  });
});
