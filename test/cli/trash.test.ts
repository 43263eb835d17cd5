import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { tack } from "./tack-process.js";

// `tack trash list|restore|erase` (docs/api.md, "The trash") as a script sees it.

const api = await startTestServer();

test("a deleted ticket: delete says how to restore, list shows it, restore brings it back, erase ends it", async () => {
  const shell = (await api.post("/api/boards", { name: "Trash CLI" })).body;
  const create = async (title: string) =>
    (await api.post(`/api/boards/${shell.board.id}/tickets`, { laneId: shell.lanes[0].id, title }))
      .body.id as number;
  const kept = await create("kept");
  const gone = await create("gone");

  const deleted = await tack(api.url, ["ticket", "delete", String(kept)]);
  assert.equal(deleted.code, 0, deleted.stderr);
  const [entry] = (await api.get("/api/trash")).body.items;
  assert.match(
    deleted.stdout,
    new RegExp(`deleted #${kept} \\(in the trash until \\S+: tack trash restore ${entry.id}\\)`),
  );

  const listed = await tack(api.url, ["trash", "list", "--board", String(shell.board.id)]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^ENTRY\s+KIND\s+ID\s+BOARD\s+LABEL/);
  assert.match(
    listed.stdout,
    new RegExp(`\\n${entry.id}\\s+ticket\\s+${kept}\\s+${shell.board.id}\\s+kept`),
  );

  const restored = await tack(api.url, ["trash", "restore", String(entry.id)]);
  assert.equal(restored.code, 0, restored.stderr);
  assert.equal(restored.stdout, `restored ticket ${kept}\n`);
  assert.equal((await api.get(`/api/tickets/${kept}`)).status, 200);

  await api.delete(`/api/tickets/${gone}`);
  const [goneEntry] = (await api.get("/api/trash")).body.items;
  const erased = await tack(api.url, ["trash", "erase", String(goneEntry.id), "--json"]);
  assert.equal(erased.code, 0, erased.stderr);
  assert.deepEqual(JSON.parse(erased.stdout), { erased: goneEntry.id });
  const again = await tack(api.url, ["trash", "restore", String(goneEntry.id)]);
  assert.notEqual(again.code, 0);
  assert.match(again.stderr, /trash entry not found/);
});
