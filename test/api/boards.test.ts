import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  assertError,
  createBoard,
  createTag,
  createTicket,
  snapshot,
} from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";

const api = await startTestServer();

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const names = (items: { name: string }[]) => items.map((item) => item.name);
const ids = (items: { id: number }[]) => items.map((item) => item.id);

async function boardIds(): Promise<number[]> {
  const response = await api.get("/api/boards");
  assert.equal(response.status, 200);
  return ids(response.body.boards);
}

describe("POST /api/boards", () => {
  test("creates a board with the default lanes and answers 201 BoardDetail", async () => {
    const created = await api.post("/api/boards", { name: "Defaults" });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body).sort(), ["board", "lanes", "tags", "tickets"]);
    const { board, lanes, tags, tickets } = created.body;
    assert.deepEqual(Object.keys(board).sort(), [
      "createdAt",
      "id",
      "name",
      "position",
      "updatedAt",
    ]);
    assert.ok(Number.isInteger(board.id) && board.id > 0);
    assert.equal(board.name, "Defaults");
    assert.match(board.createdAt, ISO);
    assert.equal(board.updatedAt, board.createdAt);
    assert.deepEqual(names(lanes), ["todo", "doing", "done"]);
    assert.deepEqual(
      lanes.map((lane: { position: number }) => lane.position),
      [0, 1, 2],
    );
    for (const lane of lanes) {
      assert.deepEqual(Object.keys(lane).sort(), ["boardId", "id", "name", "position", "wipLimit"]);
      assert.equal(lane.boardId, board.id);
    }
    assert.deepEqual(tags, []);
    assert.deepEqual(tickets, []);
  });

  test("uses the given lane names, trimmed, in order, dropping blank ones", async () => {
    const { lanes } = await createBoard(api, "Custom", [
      " Backlog ",
      "",
      "   ",
      "Review",
      "Backlog",
    ]);
    assert.deepEqual(names(lanes), ["Backlog", "Review", "Backlog"]);
    assert.deepEqual(
      lanes.map((lane) => lane.position),
      [0, 1, 2],
    );
  });

  test("falls back to the default lanes when laneNames is empty or only blank", async () => {
    assert.deepEqual(names((await createBoard(api, "Empty list", [])).lanes), [
      "todo",
      "doing",
      "done",
    ]);
    assert.deepEqual(names((await createBoard(api, "Blank list", [" ", ""])).lanes), [
      "todo",
      "doing",
      "done",
    ]);
  });

  test("trims the name and accepts 200 characters after trimming", async () => {
    assert.equal((await createBoard(api, "  Padded\t")).board.name, "Padded");
    const longest = "b".repeat(200);
    assert.equal((await createBoard(api, `  ${longest}  `)).board.name, longest);
  });

  test("counts characters, not UTF-16 units: 200 emoji fit, 201 do not", async () => {
    const emoji = "🦊".repeat(200);
    assert.equal((await createBoard(api, emoji)).board.name, emoji);
    assertError(await api.post("/api/boards", { name: `${emoji}🦊` }), 400, /^name /);
  });

  test("rejects a missing, blank, too long or mistyped name with 400 and creates nothing", async () => {
    const before = await snapshot(api);
    assertError(await api.post("/api/boards", {}), 400, "name is required");
    assertError(await api.post("/api/boards", { name: "" }), 400, /name/);
    assertError(await api.post("/api/boards", { name: "   " }), 400, /name/);
    assertError(await api.post("/api/boards", { name: "b".repeat(201) }), 400, /name/);
    assertError(await api.post("/api/boards", { name: 7 }), 400, /name/);
    assertError(await api.post("/api/boards", { name: null }), 400, /name/);
    assertError(await api.post("/api/boards", { name: "ok", laneNames: "todo" }), 400, /laneNames/);
    assertError(await api.post("/api/boards", { name: "ok", laneNames: [1] }), 400, /laneNames/);
    // The index names the entry as sent, blank entries included.
    assertError(
      await api.post("/api/boards", { name: "ok", laneNames: ["", " ", "a", "l".repeat(201)] }),
      400,
      "laneNames[3] must be at most 200 characters",
    );
    assert.deepEqual(await snapshot(api), before);
  });
});

describe("GET /api/boards/{boardId}", () => {
  test("returns the BoardShell: board, lanes by position, tags by name", async () => {
    const { board } = await createBoard(api, "Shell", ["one", "two"]);
    await createTag(api, board.id, "zeta");
    await createTag(api, board.id, "Alpha");
    const shell = await api.get(`/api/boards/${board.id}`);
    assert.equal(shell.status, 200);
    assert.deepEqual(Object.keys(shell.body).sort(), ["board", "lanes", "tags"]);
    assert.equal(shell.body.board.id, board.id);
    assert.deepEqual(names(shell.body.lanes), ["one", "two"]);
    assert.deepEqual(names(shell.body.tags), ["Alpha", "zeta"]);
  });

  test("answers 404 for an unknown board and 400 for a malformed id", async () => {
    assertError(await api.get("/api/boards/999999"), 404, "board not found");
    assertError(await api.get("/api/boards/abc"), 400, /boardId/);
  });
});

describe("PATCH /api/boards/{boardId}", () => {
  test("renames the board (trimmed), answers the Board and moves updatedAt", async () => {
    const { board } = await createBoard(api, "Before");
    const renamed = await api.patch(`/api/boards/${board.id}`, { name: "  After  " });
    assert.equal(renamed.status, 200);
    assert.deepEqual(Object.keys(renamed.body).sort(), [
      "createdAt",
      "id",
      "name",
      "position",
      "updatedAt",
    ]);
    assert.equal(renamed.body.name, "After");
    assert.equal(renamed.body.createdAt, board.createdAt);
    assert.ok(renamed.body.updatedAt >= board.updatedAt);
    assert.equal((await api.get(`/api/boards/${board.id}`)).body.board.name, "After");
  });

  test("rejects bad names with 400 and leaves the board unchanged", async () => {
    const { board } = await createBoard(api, "Stable");
    for (const body of [{}, { name: "" }, { name: " " }, { name: "x".repeat(201) }, { name: 1 }]) {
      assertError(await api.patch(`/api/boards/${board.id}`, body), 400);
    }
    assert.deepEqual((await api.get(`/api/boards/${board.id}`)).body.board, board);
  });

  test("answers 404 for an unknown board", async () => {
    assertError(await api.patch("/api/boards/999999", { name: "x" }), 404, "board not found");
  });
});

describe("GET /api/boards and ordering", () => {
  test("lists boards oldest first; a new board goes last", async () => {
    const first = await createBoard(api, "Order A");
    const second = await createBoard(api, "Order B");
    const list = await api.get("/api/boards");
    assert.equal(list.status, 200);
    assert.deepEqual(Object.keys(list.body), ["boards"]);
    const listed = ids(list.body.boards);
    assert.ok(listed.indexOf(first.board.id) < listed.indexOf(second.board.id));
    assert.equal(listed.at(-1), second.board.id);
    assert.deepEqual(
      list.body.boards.find((board: { id: number }) => board.id === first.board.id),
      first.board,
    );
  });

  test("POST /api/boards/reorder sets the order, which later creations and deletions keep", async () => {
    const current = await boardIds();
    const reversed = [...current].reverse();
    const reordered = await api.post("/api/boards/reorder", { boardIds: reversed });
    assert.equal(reordered.status, 200);
    assert.deepEqual(Object.keys(reordered.body), ["boards"]);
    assert.deepEqual(ids(reordered.body.boards), reversed);
    assert.deepEqual(await boardIds(), reversed);

    const added = await createBoard(api, "Appended after reorder");
    assert.deepEqual(await boardIds(), [...reversed, added.board.id]);

    // Deleting one closes the gap; nothing else moves.
    const middle = reversed[Math.floor(reversed.length / 2)] as number;
    assert.equal((await api.delete(`/api/boards/${middle}`)).status, 204);
    assert.deepEqual(
      await boardIds(),
      [...reversed, added.board.id].filter((id) => id !== middle),
    );
  });

  test("boards carry position 0..n-1 in list order, on every answer that shows a board", async () => {
    const contiguous = async () => {
      const boards = (await api.get("/api/boards")).body.boards as { position: number }[];
      assert.deepEqual(
        boards.map((board) => board.position),
        boards.map((_, index) => index),
      );
      return boards as { id: number; position: number }[];
    };
    const before = await contiguous();
    const created = await createBoard(api, "Positioned");
    assert.equal(created.board.position, before.length, "a new board goes last");
    const shell = (await api.get(`/api/boards/${created.board.id}`)).body;
    assert.equal(shell.board.position, before.length);
    const renamed = (await api.patch(`/api/boards/${created.board.id}`, { name: "Moved" })).body;
    assert.equal(renamed.position, before.length);

    const order = [created.board.id, ...before.map((board) => board.id)];
    const reordered = (await api.post("/api/boards/reorder", { boardIds: order })).body.boards;
    assert.deepEqual(
      reordered.map((board: { id: number; position: number }) => [board.id, board.position]),
      order.map((id, position) => [id, position]),
    );
    assert.equal((await api.delete(`/api/boards/${order[1]}`)).status, 204);
    const after = await contiguous();
    assert.deepEqual(
      after.map((board) => board.id),
      order.filter((id) => id !== order[1]),
    );
  });

  test("reorder must list every board exactly once (400, nothing changes)", async () => {
    const current = await boardIds();
    assert.ok(current.length >= 2);
    const [head, ...rest] = current as [number, ...number[]];
    const invalid = [
      { boardIds: rest },
      { boardIds: [...current, head] },
      { boardIds: [...rest, 999999] },
      { boardIds: [...rest, head, 999999] },
      { boardIds: [] },
      { boardIds: current.map(String) },
      { boardIds: [...rest, 0] },
      {},
    ];
    for (const body of invalid) {
      assertError(await api.post("/api/boards/reorder", body), 400);
      assert.deepEqual(await boardIds(), current);
    }
  });
});

describe("DELETE /api/boards/{boardId}", () => {
  test("answers 204 with no body and removes the board with its lanes and tags", async () => {
    const { board, lanes } = await createBoard(api, "Doomed");
    const tag = await createTag(api, board.id, "gone");
    const removed = await api.delete(`/api/boards/${board.id}`);
    assert.equal(removed.status, 204);
    assert.equal(removed.text, "");
    assertError(await api.get(`/api/boards/${board.id}`), 404);
    assertError(await api.get(`/api/boards/${board.id}/lanes`), 404);
    assertError(await api.get(`/api/boards/${board.id}/tags`), 404);
    assertError(await api.patch(`/api/lanes/${lanes[0]?.id}`, { name: "x" }), 404);
    assertError(await api.patch(`/api/tags/${tag.id}`, { name: "x" }), 404);
    assert.ok(!(await boardIds()).includes(board.id));
    assertError(await api.delete(`/api/boards/${board.id}`), 404, "board not found");
  });

  test("removes the board's tickets too, and leaves other boards alone", async () => {
    const kept = await createBoard(api, "Kept");
    const keptTag = await createTag(api, kept.board.id, "keep");
    const doomed = await createBoard(api, "Doomed with tickets");
    const tag = await createTag(api, doomed.board.id, "t");
    const lane = doomed.lanes[0] as { id: number };
    const ticket = await createTicket(api, doomed.board.id, {
      laneId: lane.id,
      title: "owned",
      tagIds: [tag.id],
    });
    assert.equal((await api.delete(`/api/boards/${doomed.board.id}`)).status, 204);
    assertError(await api.get(`/api/tickets/${ticket.id}`), 404);
    assert.deepEqual((await api.get(`/api/boards/${kept.board.id}`)).body.tags, [keptTag]);
  });

  test("leaves no row behind: comments, events, references, tag reasons, relations, activity", async () => {
    const rowCounts = () => {
      const tables = api.server.db
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all()
        // The search index's own tables hold index pages, not rows of tickets (its rows are
        // checked in test/storage/search-index-*.test.ts).
        .filter(({ name }) => !/^ticket_search($|_(data|idx|config|docsize|content)$)/.test(name));
      return Object.fromEntries(
        tables.map(({ name }) => [
          name,
          (api.server.db.prepare(`SELECT COUNT(*) AS n FROM "${name}"`).get() as { n: number }).n,
        ]),
      );
    };
    const before = rowCounts();
    const { board, lanes } = await createBoard(api, "Everything", ["a", "b"]);
    const tag = await createTag(api, board.id, "tagged");
    const laneId = lanes[0]?.id as number;
    const parent = await createTicket(api, board.id, { laneId, title: "parent", tagIds: [tag.id] });
    const child = await createTicket(api, board.id, {
      laneId: lanes[1]?.id as number,
      title: "child",
      parentTicketId: parent.id,
      blockerIds: [parent.id],
      relatedIds: [parent.id],
    });
    const comment = await api.post(`/api/tickets/${child.id}/comments`, { bodyMarkdown: "hi" });
    assert.equal(comment.status, 201, comment.text);
    const reason = await api.post(`/api/tickets/${parent.id}/tags/${tag.id}`, {
      reason: "why",
      reasonCommentId: null,
    });
    assert.equal(reason.status, 200, reason.text);
    const event = await api.post(`/api/tickets/${child.id}/events`, {
      source: "ci",
      kind: "build",
      title: "green",
    });
    assert.equal(event.status, 201, event.text);
    const reference = await api.put(`/api/tickets/${child.id}/external-references/spec`, {
      provider: "github",
      instanceUrl: "https://github.com",
      projectKey: "o/r",
      issueKey: "1",
      displayRef: "o/r#1",
      url: "https://github.com/o/r/issues/1",
    });
    assert.equal(reference.status, 200, reference.text);
    assert.notDeepEqual(rowCounts(), before);

    assert.equal((await api.delete(`/api/boards/${board.id}`)).status, 204);
    // Only the trash holds the board now (docs/api.md, "The trash"); erasing its entry leaves
    // nothing.
    assert.deepEqual(rowCounts(), { ...before, trash: (before.trash ?? 0) + 1 });
    const [entry] = (await api.get(`/api/trash?boardId=${board.id}`)).body.items;
    assert.equal((await api.delete(`/api/trash/${entry.id}`)).status, 204);
    assert.deepEqual(rowCounts(), before);
  });

  test("answers 400 for a malformed id", async () => {
    assertError(await api.delete("/api/boards/1.5"), 400, /boardId/);
  });
});
