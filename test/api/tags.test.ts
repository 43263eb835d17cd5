import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError, createBoard, createTag, createTicket } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";

const api = await startTestServer();

const names = (items: { name: string }[]) => items.map((item) => item.name);

async function tagsOf(boardId: number) {
  const response = await api.get(`/api/boards/${boardId}/tags`);
  assert.equal(response.status, 200);
  return response.body.tags as { id: number; boardId: number; name: string; color: string }[];
}

describe("GET /api/boards/{boardId}/tags", () => {
  test("lists tags by name, case-insensitively", async () => {
    const { board } = await createBoard(api, "Sorted");
    for (const name of ["delta", "Bravo", "charlie", "alpha", "Zulu"]) {
      await createTag(api, board.id, name);
    }
    const listed = await api.get(`/api/boards/${board.id}/tags`);
    assert.equal(listed.status, 200);
    assert.deepEqual(Object.keys(listed.body), ["tags"]);
    assert.deepEqual(names(listed.body.tags), ["alpha", "Bravo", "charlie", "delta", "Zulu"]);
    assert.deepEqual((await api.get(`/api/boards/${board.id}`)).body.tags, listed.body.tags);
  });

  test("answers 404 for an unknown board and 400 for a malformed id", async () => {
    assertError(await api.get("/api/boards/999999/tags"), 404, "board not found");
    assertError(await api.get("/api/boards/1e2/tags"), 400, /boardId/);
  });
});

describe("POST /api/boards/{boardId}/tags", () => {
  test("creates a tag (trimmed name, default color) and answers 201 Tag", async () => {
    const { board } = await createBoard(api, "Creating");
    const created = await api.post(`/api/boards/${board.id}/tags`, { name: "  bug  " });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body).sort(), ["boardId", "color", "id", "name"]);
    assert.equal(created.body.name, "bug");
    assert.equal(created.body.boardId, board.id);
    assert.equal(created.body.color, "#6b7280");
    assert.deepEqual(await tagsOf(board.id), [created.body]);
  });

  test("accepts #rgb, #rrggbb in any case, and an empty color", async () => {
    const { board } = await createBoard(api, "Colors");
    assert.equal((await createTag(api, board.id, "short", "#AbC")).color, "#AbC");
    assert.equal((await createTag(api, board.id, "long", "#00ff7F")).color, "#00ff7F");
    assert.equal((await createTag(api, board.id, "none", "")).color, "");
  });

  test("rejects other colors with 400 and creates nothing", async () => {
    const { board } = await createBoard(api, "Bad colors");
    for (const color of ["red", "#abcd", "#ggg", "abc", "#12345", "#1234567", " #abc", 123, null]) {
      assertError(
        await api.post(`/api/boards/${board.id}/tags`, { name: "t", color }),
        400,
        /color/,
      );
    }
    assert.deepEqual(await tagsOf(board.id), []);
  });

  test("rejects bad names with 400 and allows 200 characters", async () => {
    const { board } = await createBoard(api, "Tag names");
    for (const body of [{}, { name: "" }, { name: "  " }, { name: "t".repeat(201) }, { name: 1 }]) {
      assertError(await api.post(`/api/boards/${board.id}/tags`, body), 400);
    }
    assert.deepEqual(await tagsOf(board.id), []);
    await createTag(api, board.id, ` ${"t".repeat(200)} `);
  });

  test("answers 409 for a name already used on the board, compared case-insensitively after trimming", async () => {
    const { board } = await createBoard(api, "Unique");
    const first = await createTag(api, board.id, "Bug", "#f00");
    for (const name of ["Bug", "bug", " BUG ", "bUg\t"]) {
      assertError(await api.post(`/api/boards/${board.id}/tags`, { name }), 409);
    }
    // Unicode case folding, not only ASCII.
    await createTag(api, board.id, "Überfällig");
    assertError(await api.post(`/api/boards/${board.id}/tags`, { name: "ÜBERFÄLLIG" }), 409);
    assert.deepEqual(names(await tagsOf(board.id)), ["Bug", "Überfällig"]);
    assert.deepEqual((await tagsOf(board.id))[0], first);
  });

  test("allows the same name on another board", async () => {
    const one = await createBoard(api, "One");
    const two = await createBoard(api, "Two");
    const first = await createTag(api, one.board.id, "shared");
    // createTag asserts the 201: the same name (any case) is free on another board.
    const second = await createTag(api, two.board.id, "Shared");
    assert.notEqual(first.id, second.id);
    assert.equal(second.boardId, two.board.id);
  });

  test("answers 404 for an unknown board", async () => {
    assertError(await api.post("/api/boards/999999/tags", { name: "x" }), 404, "board not found");
  });
});

describe("PATCH /api/tags/{tagId}", () => {
  test("changes name, color or both, keeping what is not sent", async () => {
    const { board } = await createBoard(api, "Patching");
    const tag = await createTag(api, board.id, "draft", "#111");
    const renamed = await api.patch(`/api/tags/${tag.id}`, { name: "  final " });
    assert.equal(renamed.status, 200);
    assert.deepEqual(renamed.body, { ...tag, name: "final" });
    const recolored = await api.patch(`/api/tags/${tag.id}`, { color: "#222222" });
    assert.deepEqual(recolored.body, { ...tag, name: "final", color: "#222222" });
    const both = await api.patch(`/api/tags/${tag.id}`, { name: "done", color: "" });
    assert.deepEqual(both.body, { ...tag, name: "done", color: "" });
    assert.deepEqual(await tagsOf(board.id), [both.body]);
  });

  test("may change the case of its own name", async () => {
    const { board } = await createBoard(api, "Recase");
    const tag = await createTag(api, board.id, "urgent");
    const renamed = await api.patch(`/api/tags/${tag.id}`, { name: "URGENT" });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, "URGENT");
  });

  test("answers 409 when renaming onto another tag's name, case-insensitively", async () => {
    const { board } = await createBoard(api, "Rename clash");
    await createTag(api, board.id, "Frontend");
    const tag = await createTag(api, board.id, "backend");
    assertError(await api.patch(`/api/tags/${tag.id}`, { name: " frontEND " }), 409);
    assert.deepEqual(names(await tagsOf(board.id)), ["backend", "Frontend"]);
  });

  test("rejects a PATCH with no known field, bad names and bad colors (400, unchanged)", async () => {
    const { board } = await createBoard(api, "Patch rules");
    const tag = await createTag(api, board.id, "steady");
    const invalid = [
      {},
      { colour: "#fff" },
      { name: "" },
      { name: "   " },
      { name: "x".repeat(201) },
      { name: null },
      { color: "blue" },
      { color: null },
      { name: "ok", color: "#12" },
    ];
    for (const body of invalid) assertError(await api.patch(`/api/tags/${tag.id}`, body), 400);
    assert.deepEqual(await tagsOf(board.id), [tag]);
  });

  test("answers 404 for an unknown tag", async () => {
    assertError(await api.patch("/api/tags/999999", { name: "x" }), 404, "tag not found");
  });
});

describe("DELETE /api/tags/{tagId}", () => {
  test("deletes the tag (204) and answers 404 afterwards", async () => {
    const { board } = await createBoard(api, "Deleting tags");
    const tag = await createTag(api, board.id, "temp");
    const keep = await createTag(api, board.id, "keep");
    const removed = await api.delete(`/api/tags/${tag.id}`);
    assert.equal(removed.status, 204);
    assert.equal(removed.text, "");
    assert.deepEqual(await tagsOf(board.id), [keep]);
    assertError(await api.delete(`/api/tags/${tag.id}`), 404, "tag not found");
    assertError(await api.delete("/api/tags/abc"), 400, /tagId/);
  });

  test("detaches the tag from tickets", async () => {
    const { board, lanes } = await createBoard(api, "Detach");
    const tag = await createTag(api, board.id, "gone");
    const keep = await createTag(api, board.id, "kept");
    const ticket = await createTicket(api, board.id, {
      laneId: lanes[0]?.id as number,
      title: "tagged",
      tagIds: [tag.id, keep.id],
    });
    assert.equal((await api.delete(`/api/tags/${tag.id}`)).status, 204);
    const after = await api.get(`/api/tickets/${ticket.id}`);
    assert.equal(after.status, 200);
    assert.deepEqual(after.body.tags, [keep]);
  });
});
