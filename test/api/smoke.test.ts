import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";

test("a board can be created and read back over HTTP", async () => {
  const api = await startTestServer();
  const created = await api.post("/api/boards", { name: "  Work  " });
  assert.equal(created.status, 201);
  assert.equal(created.body.board.name, "Work");
  assert.deepEqual(
    created.body.lanes.map((lane: { name: string }) => lane.name),
    ["todo", "doing", "done"],
  );
  const shell = await api.get(`/api/boards/${created.body.board.id}`);
  assert.equal(shell.status, 200);
  assert.deepEqual(shell.body.board, created.body.board);
});
