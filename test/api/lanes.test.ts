import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError, createBoard, createLane, createTicket } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";

const api = await startTestServer();

const names = (items: { name: string }[]) => items.map((item) => item.name);
const ids = (items: { id: number }[]) => items.map((item) => item.id);
const positions = (items: { position: number }[]) => items.map((item) => item.position);

async function lanesOf(boardId: number) {
  const response = await api.get(`/api/boards/${boardId}/lanes`);
  assert.equal(response.status, 200);
  return response.body.lanes as { id: number; boardId: number; name: string; position: number }[];
}

describe("GET /api/boards/{boardId}/lanes", () => {
  test("lists the board's lanes by position", async () => {
    const { board, lanes } = await createBoard(api, "Listing", ["a", "b", "c"]);
    const listed = await api.get(`/api/boards/${board.id}/lanes`);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body, { lanes });
  });

  test("answers 404 for an unknown board and 400 for a malformed id", async () => {
    assertError(await api.get("/api/boards/999999/lanes"), 404, "board not found");
    assertError(await api.get("/api/boards/x/lanes"), 400, /boardId/);
  });
});

describe("POST /api/boards/{boardId}/lanes", () => {
  test("appends a lane (trimmed name) at the end and answers 201 Lane", async () => {
    const { board } = await createBoard(api, "Appending", ["first"]);
    const created = await api.post(`/api/boards/${board.id}/lanes`, { name: "  second " });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body).sort(), [
      "boardId",
      "id",
      "name",
      "position",
      "wipLimit",
    ]);
    assert.equal(created.body.name, "second");
    assert.equal(created.body.boardId, board.id);
    assert.equal(created.body.position, 1);
    assert.deepEqual(names(await lanesOf(board.id)), ["first", "second"]);
  });

  test("allows repeated lane names and names of 200 characters", async () => {
    const { board } = await createBoard(api, "Repeats", ["same"]);
    await createLane(api, board.id, "same");
    await createLane(api, board.id, "l".repeat(200));
    assert.deepEqual(names(await lanesOf(board.id)), ["same", "same", "l".repeat(200)]);
  });

  test("rejects bad names with 400 and an unknown board with 404, creating nothing", async () => {
    const { board, lanes } = await createBoard(api, "Strict");
    for (const body of [{}, { name: "" }, { name: "  " }, { name: "l".repeat(201) }, { name: 3 }]) {
      assertError(await api.post(`/api/boards/${board.id}/lanes`, body), 400);
    }
    assertError(await api.post("/api/boards/999999/lanes", { name: "x" }), 404, "board not found");
    assert.deepEqual(await lanesOf(board.id), lanes);
  });
});

describe("POST /api/boards/{boardId}/lanes/reorder", () => {
  test("puts the lanes in the given order, numbered 0..n-1", async () => {
    const { board, lanes } = await createBoard(api, "Reorder", ["a", "b", "c"]);
    const [a, b, c] = ids(lanes) as [number, number, number];
    const response = await api.post(`/api/boards/${board.id}/lanes/reorder`, {
      laneIds: [c, a, b],
    });
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), ["lanes"]);
    assert.deepEqual(ids(response.body.lanes), [c, a, b]);
    assert.deepEqual(positions(response.body.lanes), [0, 1, 2]);
    assert.deepEqual(await lanesOf(board.id), response.body.lanes);
    // A lane created afterwards goes to the end.
    const added = await createLane(api, board.id, "d");
    assert.deepEqual(ids(await lanesOf(board.id)), [c, a, b, added.id]);
  });

  test("must list every lane of the board exactly once (400, nothing changes)", async () => {
    const { board, lanes } = await createBoard(api, "Reorder rules", ["a", "b", "c"]);
    const other = await createBoard(api, "Other board", ["x"]);
    const [a, b, c] = ids(lanes) as [number, number, number];
    const foreign = other.lanes[0]?.id as number;
    const invalid = [
      { laneIds: [a, b] },
      { laneIds: [a, b, c, a] },
      { laneIds: [a, a, b, c] },
      { laneIds: [a, b, foreign] },
      { laneIds: [a, b, c, foreign] },
      { laneIds: [a, b, c, 999999] },
      { laneIds: [] },
      { laneIds: [String(a), String(b), String(c)] },
      { laneIds: [a, b, 0] },
      { laneIds: "a,b,c" },
      {},
    ];
    for (const body of invalid) {
      assertError(await api.post(`/api/boards/${board.id}/lanes/reorder`, body), 400);
    }
    assert.deepEqual(await lanesOf(board.id), lanes);
    assert.deepEqual(await lanesOf(other.board.id), other.lanes);
  });

  test("answers 404 for an unknown board", async () => {
    assertError(await api.post("/api/boards/999999/lanes/reorder", { laneIds: [1] }), 404);
  });
});

describe("PATCH /api/lanes/{laneId}", () => {
  test("renames the lane (trimmed) and answers the Lane", async () => {
    const { board, lanes } = await createBoard(api, "Renaming", ["old", "other"]);
    const lane = lanes[0] as (typeof lanes)[number];
    const renamed = await api.patch(`/api/lanes/${lane.id}`, { name: " new " });
    assert.equal(renamed.status, 200);
    assert.deepEqual(renamed.body, { ...lane, name: "new" });
    assert.deepEqual(names(await lanesOf(board.id)), ["new", "other"]);
  });

  test("rejects bad names with 400 (including a PATCH without name) and unknown lanes with 404", async () => {
    const { board, lanes } = await createBoard(api, "Rename rules", ["keep"]);
    const laneId = lanes[0]?.id as number;
    for (const body of [
      {},
      { other: "x" },
      { name: "" },
      { name: "\n" },
      { name: "x".repeat(201) },
    ]) {
      assertError(await api.patch(`/api/lanes/${laneId}`, body), 400);
    }
    assertError(await api.patch("/api/lanes/999999", { name: "x" }), 404, "lane not found");
    assertError(await api.patch("/api/lanes/-1", { name: "x" }), 400, /laneId/);
    assert.deepEqual(await lanesOf(board.id), lanes);
  });
});

describe("DELETE /api/lanes/{laneId}", () => {
  test("deletes an empty lane (204) and keeps the other lanes in order, numbered 0..n-1", async () => {
    const { board, lanes } = await createBoard(api, "Deleting", ["a", "b", "c"]);
    const [a, b, c] = ids(lanes) as [number, number, number];
    const removed = await api.delete(`/api/lanes/${b}`);
    assert.equal(removed.status, 204);
    assert.equal(removed.text, "");
    const remaining = await lanesOf(board.id);
    assert.deepEqual(ids(remaining), [a, c]);
    assert.deepEqual(positions(remaining), [0, 1]);
    assertError(await api.delete(`/api/lanes/${b}`), 404, "lane not found");
    assertError(await api.patch(`/api/lanes/${b}`, { name: "x" }), 404);
  });

  test("answers 400 for a malformed id", async () => {
    assertError(await api.delete("/api/lanes/0x10"), 400, /laneId/);
  });

  test("answers 409 when the lane holds a ticket, archived or not, and deletes nothing", async () => {
    const { board, lanes } = await createBoard(api, "Busy", ["busy", "archive"]);
    const [busy, archive] = ids(lanes) as [number, number];
    await createTicket(api, board.id, { laneId: busy, title: "still here" });
    await createTicket(api, board.id, { laneId: archive, title: "archived", isArchived: true });
    assertError(await api.delete(`/api/lanes/${busy}`), 409, "lane is not empty");
    assertError(await api.delete(`/api/lanes/${archive}`), 409, "lane is not empty");
    assert.deepEqual(await lanesOf(board.id), lanes);
  });
});
