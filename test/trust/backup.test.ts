import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import Database from "better-sqlite3";
import { type RunningCli, runCli, startCli } from "../helpers/cli.js";
import { databaseProblems, dumpDatabase } from "../helpers/database-dump.js";

/**
 * `tack backup` against a database a running server (another process) is writing to, `tack
 * restore` and its refusals, and the rolling backups of `tack serve --backup-dir`.
 */

const folder = mkdtempSync(join(tmpdir(), "tack-backup-"));
after(() => rmSync(folder, { recursive: true, force: true }));

async function post(base: string, path: string, body: unknown) {
  const response = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** One failing line on stderr, exit 1, and no stack trace. */
function assertRefused(exit: { code: number | null; stderr: string }, message: RegExp): void {
  assert.equal(exit.code, 1, exit.stderr);
  const lines = exit.stderr.split("\n").filter(Boolean);
  assert.equal(lines.length, 1, exit.stderr);
  assert.match(lines[0] as string, /^tack: /);
  assert.match(lines[0] as string, message);
}

/**
 * Writes until stopped: boards, tickets, comments, moves. Returns the ids of the tickets whose
 * creation was acknowledged, in order.
 */
function writeLoad(base: string, boardId: number, laneIds: number[]) {
  const acknowledged: number[] = [];
  let stopped = false;
  const worker = async () => {
    let round = 0;
    while (!stopped) {
      round += 1;
      const laneId = laneIds[round % laneIds.length] as number;
      const ticket = await post(base, `/api/boards/${boardId}/tickets`, {
        laneId,
        title: `load ${round}`,
        bodyMarkdown: "x".repeat(2000),
      });
      assert.equal(ticket.status, 201);
      acknowledged.push(ticket.body.id);
      await post(base, `/api/tickets/${ticket.body.id}/comments`, { bodyMarkdown: "c" });
      await post(base, `/api/tickets/${ticket.body.id}/position`, {
        laneId: laneIds[(round + 1) % laneIds.length],
        position: 0,
      });
    }
  };
  const running = Promise.all([worker(), worker()]);
  return {
    acknowledged,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

describe("backup under a write load, then restore", () => {
  const dbFile = join(folder, "live", "tack.sqlite");
  let server: RunningCli | undefined;
  after(() => server?.stop("SIGKILL"));

  test("a backup taken while two clients write holds every acknowledged write and restores row for row", async () => {
    server = await startCli(["--port", "0", "--db", dbFile]);
    const created = await post(server.url, "/api/boards", { name: "under load" });
    const boardId = created.body.board.id as number;
    const laneIds = created.body.lanes.map((lane: { id: number }) => lane.id);
    const load = writeLoad(server.url, boardId, laneIds);
    while (load.acknowledged.length < 30) await new Promise((r) => setTimeout(r, 20));

    const ackedBefore = [...load.acknowledged];
    const midLoad = join(folder, "mid-load.sqlite");
    const exit = await runCli(["backup", midLoad, "--db", dbFile]);
    assert.equal(exit.code, 0, exit.stderr);
    assert.match(
      exit.stdout,
      /^backed up .* to .*mid-load\.sqlite \(\d+ bytes, schema version \d+\)\n$/,
    );
    const ackedDuring = load.acknowledged.length;
    await load.stop();
    assert.ok(
      load.acknowledged.length > ackedDuring || ackedDuring > ackedBefore.length,
      "writes went on",
    );

    // Consistent: SQLite finds no problem, and every write acknowledged before it began is there.
    assert.deepEqual(databaseProblems(midLoad), []);
    const midDump = dumpDatabase(midLoad);
    const backedUpIds = new Set((midDump.tickets as { id: number }[]).map((row) => row.id));
    for (const id of ackedBefore) assert.ok(backedUpIds.has(id), `ticket ${id} missing`);
    // Nothing half-applied: each backed-up ticket has its text row.
    assert.equal(midDump.ticket_texts?.length, midDump.tickets?.length);

    // Idle now: a second backup equals the live database row for row, and so does its restore.
    const idle = join(folder, "idle.sqlite");
    assert.equal((await runCli(["backup", idle, "--db", dbFile])).code, 0);
    const exitServer = await server.stop("SIGTERM");
    server = undefined;
    assert.equal(exitServer.code, 0, exitServer.stderr);
    const live = dumpDatabase(dbFile);
    assert.deepEqual(dumpDatabase(idle), live);

    const restoredFile = join(folder, "restored", "tack.sqlite");
    const restored = await runCli(["restore", idle, "--db", restoredFile]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.deepEqual(dumpDatabase(restoredFile), live);
    // And the mid-load backup restores row for row as well.
    const restoredMid = join(folder, "restored-mid.sqlite");
    assert.equal((await runCli(["restore", midLoad, "--db", restoredMid])).code, 0);
    assert.deepEqual(dumpDatabase(restoredMid), midDump);

    // A server on the restored file serves it.
    const again = await startCli(["--port", "0", "--db", restoredFile]);
    try {
      const tickets = await fetch(`${again.url}/api/boards/${boardId}/tickets`);
      const listed = (await tickets.json()) as { tickets: unknown[] };
      assert.equal(listed.tickets.length, load.acknowledged.length);
    } finally {
      await again.stop();
    }
  });
});

describe("restore refusals", () => {
  const target = join(folder, "target", "tack.sqlite");
  const good = join(folder, "good-backup.sqlite");

  test("setup: a database and a backup of it", async () => {
    const first = await startCli(["--port", "0", "--db", target]);
    await post(first.url, "/api/boards", { name: "original" });
    assert.equal((await runCli(["backup", good, "--db", target])).code, 0);
    await post(first.url, "/api/boards", { name: "after the backup" });
    await first.stop();
  });

  test("refuses to replace an existing database without --force, changing nothing", async () => {
    const before = dumpDatabase(target);
    assertRefused(await runCli(["restore", good, "--db", target]), /already exists; pass --force/);
    assert.deepEqual(dumpDatabase(target), before);
  });

  test("refuses a file that is not a tack database, or from a newer tack", async () => {
    const before = dumpDatabase(target);
    const text = join(folder, "notes.txt");
    writeFileSync(text, "not a database at all ".repeat(100));
    const otherSqlite = join(folder, "other.sqlite");
    const other = new Database(otherSqlite);
    other.exec("CREATE TABLE notes (x)");
    other.close();
    const newer = join(folder, "newer.sqlite");
    assert.equal((await runCli(["backup", newer, "--db", target])).code, 0);
    const db = new Database(newer);
    db.pragma("user_version = 999");
    db.close();
    // Independent refusals, side by side (each is a process start).
    const [notSqlite, notTack, fromNewer, missing] = await Promise.all([
      runCli(["restore", text, "--db", target, "--force"]),
      runCli(["restore", otherSqlite, "--db", target, "--force"]),
      runCli(["restore", newer, "--db", target, "--force"]),
      runCli(["restore", join(folder, "missing.sqlite"), "--db", target]),
    ]);
    assertRefused(notSqlite, /not a tack database/);
    assertRefused(notTack, /other\.sqlite is not a tack database$/);
    assertRefused(fromNewer, /from a newer tack \(schema version 999; this tack supports \d+\)/);
    assertRefused(missing, /no backup file/);
    assert.deepEqual(dumpDatabase(target), before);
  });

  test("refuses while a server uses the target, even with --force; restores once it stopped", async () => {
    const running = await startCli(["--port", "0", "--db", target]);
    try {
      assertRefused(
        await runCli(["restore", good, "--db", target, "--force"]),
        /in use by a running tack server/,
      );
      const boards = await fetch(`${running.url}/api/boards`);
      assert.equal(((await boards.json()) as { boards: unknown[] }).boards.length, 2);
    } finally {
      await running.stop();
    }
    const restored = await runCli(["restore", good, "--db", target, "--force"]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.deepEqual(dumpDatabase(target), dumpDatabase(good));
    assert.equal(
      existsSync(`${target}-wal`),
      false,
      "no WAL of the old database is left beside it",
    );
    assert.deepEqual(
      readdirSync(join(folder, "target")).filter((name) => name.endsWith(".partial")),
      [],
    );
  });

  test("backup refuses a missing database and writing onto the database itself", async () => {
    assertRefused(
      await runCli(["backup", join(folder, "b.sqlite"), "--db", join(folder, "none.sqlite")]),
      /no database at/,
    );
    assertRefused(
      await runCli(["backup", target, "--db", target]),
      /must not be the database itself/,
    );
  });
});

describe("rolling backups of tack serve", () => {
  test("one every interval in the folder, the newest N kept, other files untouched", async () => {
    const dbFile = join(folder, "rolling", "tack.sqlite");
    const dir = join(folder, "rolling-backups");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "mine.txt"), "not a backup");
    const tack = await startCli([
      "--port",
      "0",
      "--db",
      dbFile,
      "--backup-dir",
      dir,
      "--backup-every",
      "1s",
      "--backup-keep",
      "2",
    ]);
    try {
      await post(tack.url, "/api/boards", { name: "rolled" });
      // Waits (without a time assertion) until rotation has had something to delete.
      const seen = new Set<string>();
      while (seen.size < 4) {
        for (const name of readdirSync(dir)) if (name.startsWith("tack-")) seen.add(name);
        await new Promise((r) => setTimeout(r, 100));
      }
      const backups = readdirSync(dir)
        .filter((name) => /^tack-.*\.sqlite$/.test(name))
        .sort();
      assert.ok(backups.length <= 2, backups.join(", "));
      assert.ok(existsSync(join(dir, "mine.txt")));
      const newest = dumpDatabase(join(dir, backups.at(-1) as string));
      assert.ok((newest.boards as { name: string }[]).some((board) => board.name === "rolled"));
    } finally {
      const exit = await tack.stop();
      assert.equal(exit.code, 0, exit.stderr);
      assert.equal(exit.stderr, "");
    }
  });

  test("an interval without a folder, or a bad interval, stops the start with one line", async () => {
    const db = join(folder, "flags.sqlite");
    const serve = ["serve", "--port", "0", "--db", db];
    const [noFolder, badInterval, badKeep] = await Promise.all([
      runCli([...serve, "--backup-every", "1h"]),
      runCli([...serve, "--backup-dir", folder, "--backup-every", "soon"]),
      runCli([...serve, "--backup-dir", folder, "--backup-every", "1h", "--backup-keep", "0"]),
    ]);
    assertRefused(noFolder, /--backup-every needs --backup-dir/);
    assertRefused(badInterval, /invalid backup interval soon/);
    assertRefused(badKeep, /invalid --backup-keep 0/);
  });
});
