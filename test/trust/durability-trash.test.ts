import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { startCli } from "../helpers/cli.js";

/**
 * docs/api.md, "The trash" under SIGKILL: an acknowledged delete keeps its object in the trash, and
 * an acknowledged restore keeps it back, whatever happens to the process right after.
 */
const folder = mkdtempSync(join(tmpdir(), "tack-durability-trash-"));
after(() => rmSync(folder, { recursive: true, force: true }));
const dbFile = join(folder, "tack.sqlite");

async function call(url: string, method: string, path: string, body?: unknown) {
  const response = await fetch(url + path, {
    method,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

test("SIGKILL after a delete and after its restore loses neither", async () => {
  let server = await startCli(["--port", "0", "--db", dbFile]);
  const shell = (await call(server.url, "POST", "/api/boards", { name: "b" })).body;
  const ticket = (
    await call(server.url, "POST", `/api/boards/${shell.board.id}/tickets`, {
      laneId: shell.lanes[0].id,
      title: "kept",
    })
  ).body;
  await call(server.url, "POST", `/api/tickets/${ticket.id}/comments`, { bodyMarkdown: "c" });
  assert.equal((await call(server.url, "DELETE", `/api/tickets/${ticket.id}`)).status, 204);
  await server.stop("SIGKILL");

  server = await startCli(["--port", "0", "--db", dbFile]);
  assert.equal((await call(server.url, "GET", `/api/tickets/${ticket.id}`)).status, 404);
  const [entry] = (await call(server.url, "GET", "/api/trash")).body.items;
  assert.equal(entry.objectId, ticket.id);
  assert.equal((await call(server.url, "POST", `/api/trash/${entry.id}/restore`)).status, 200);
  await server.stop("SIGKILL");

  server = await startCli(["--port", "0", "--db", dbFile]);
  try {
    assert.equal((await call(server.url, "GET", `/api/tickets/${ticket.id}`)).status, 200);
    const comments = (await call(server.url, "GET", `/api/tickets/${ticket.id}/comments`)).body;
    assert.equal(comments.comments.length, 1);
    assert.deepEqual((await call(server.url, "GET", "/api/trash")).body, { items: [] });
  } finally {
    await server.stop("SIGKILL");
  }
});
