import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { issueBoardDocument } from "../../bench/dataset.js";
import { type RunningCli, startCli } from "../helpers/cli.js";
import { databaseProblems } from "../helpers/database-dump.js";

/**
 * A board import killed midway (docs/decisions.md, "A board import streams into scratch files"):
 * a `tack serve` child gets a large document and is killed with SIGKILL while the body streams
 * in, while it is checked and rendered, and while it is written; after each kill the restarted
 * process has the board whole or not at all, SQLite's integrity and foreign-key checks pass, and
 * no scratch file is left beside the database.
 */
const folder = mkdtempSync(join(tmpdir(), "tack-import-kill-"));
after(() => rmSync(folder, { recursive: true, force: true }));
const dbFile = join(folder, "tack.sqlite");

const TICKETS = 2000;
const COMMENTS = 2000;
const document = issueBoardDocument({ tickets: TICKETS, comments: COMMENTS });
const named = (name: string) => JSON.stringify({ ...document, board: { name } });

/**
 * Sends the body (all of it, or the first `part` of it and then nothing); the status, if any.
 * Chunked, without a declared length: the import then keeps what it reads in scratch files, as
 * for any large document (domain/transfer/import-keeping.ts).
 */
function post(url: string, body: string, part = 1): Promise<number | undefined> {
  const bytes = Buffer.from(body);
  return new Promise((resolve) => {
    const sending = request(`${url}/api/boards/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    sending.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode));
      response.on("error", () => resolve(undefined));
    });
    sending.on("error", () => resolve(undefined));
    sending.write(bytes.subarray(0, Math.floor(bytes.length * part)));
    if (part === 1) sending.end();
  });
}

async function boards(url: string): Promise<Array<{ id: number; name: string }>> {
  const answer = await fetch(`${url}/api/boards`);
  return ((await answer.json()) as { boards: Array<{ id: number; name: string }> }).boards;
}

/** The board's tickets and comments as its export counts them. */
async function counts(url: string, boardId: number): Promise<[number, number]> {
  const answer = await fetch(`${url}/api/boards/${boardId}/export`);
  const exported = (await answer.json()) as { tickets: Array<{ comments: unknown[] }> };
  const comments = exported.tickets.reduce((sum, ticket) => sum + ticket.comments.length, 0);
  return [exported.tickets.length, comments];
}

const start = () => startCli(["--port", "0", "--db", dbFile]);

test("an import killed while it streams, checks or writes leaves the whole board or none", async () => {
  let server: RunningCli = await start();
  // One import to the end: how long one takes here, and the counts a whole board has.
  const began = performance.now();
  assert.equal(await post(server.url, named("whole")), 201);
  const took = performance.now() - began;
  const [whole] = (await boards(server.url)).filter((board) => board.name === "whole");
  const expected = await counts(server.url, (whole as { id: number }).id);
  assert.deepEqual(expected, [TICKETS, COMMENTS]);

  // Killed with half the body sent (reading), then at fractions of a whole import's time:
  // reading, checking and rendering, writing, answering.
  const kills: Array<{ name: string; part: number; after: number }> = [
    { name: "half sent", part: 0.5, after: 300 },
    ...[0.4, 0.8, 1.0].map((fraction) => ({
      name: `killed at ${fraction}`,
      part: 1,
      after: took * fraction,
    })),
  ];
  let present = 0;
  for (const kill of kills) {
    const answered = post(server.url, named(kill.name), kill.part);
    await new Promise((resolve) => setTimeout(resolve, kill.after));
    const exit = await server.stop("SIGKILL");
    assert.equal(exit.signal, "SIGKILL");
    await answered;
    assert.deepEqual(databaseProblems(dbFile), [], kill.name);
    assert.deepEqual(
      readdirSync(folder).filter((name) => name.startsWith(".tack-import")),
      [],
      `${kill.name}: no scratch file left`,
    );
    server = await start();
    const found = (await boards(server.url)).filter((board) => board.name === kill.name);
    assert.ok(found.length <= 1, kill.name);
    if (found[0]) {
      present += 1;
      assert.deepEqual(await counts(server.url, found[0].id), expected, `${kill.name}: whole`);
    }
  }
  // The half-sent body can never have been imported.
  assert.ok(present < kills.length);
  console.log(JSON.stringify({ importMs: Math.round(took), killed: kills.length, present }));
  await server.stop("SIGTERM");
});
