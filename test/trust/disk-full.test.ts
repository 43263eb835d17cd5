import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { startRollingBackups } from "../../src/backup/rolling-backups.js";
import { startServer } from "../../src/server.js";
import { capturedLog } from "../helpers/log-capture.js";

/**
 * A disk that fills up, for real: the database, its log and the rolling backups on a 24 MiB
 * tmpfs filled to the last byte by a file (docs/operations.md, "A full disk"). Writes answer 507
 * naming the folder, reads go on, the log says so once, a rolling backup fails without leaving a
 * file and is retried, and once the file is removed writing resumes without a restart, with
 * every acknowledged write there and SQLite's integrity check ok. Mounting needs root (the tests
 * run as root on the team's machines); elsewhere the test is skipped, saying why.
 */
const folder = mkdtempSync(join(tmpdir(), "tack-disk-full-"));
const disk = join(folder, "disk");
mkdirSync(disk);

function mountTmpfs(): string | undefined {
  if (process.getuid?.() !== 0) return "not root: mounting a small tmpfs needs root";
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=24m", "tmpfs", disk], { stdio: "pipe" });
    return undefined;
  } catch (error) {
    return `mount -t tmpfs failed: ${String(error).split("\n")[0]}`;
  }
}
const skip = mountTmpfs();
after(() => {
  if (!skip) execFileSync("umount", ["-l", disk]);
  rmSync(folder, { recursive: true, force: true });
});

/** Writes a file on the disk until it is full, to the last block. */
function fillDisk(file: string): void {
  const fd = openSync(file, "w");
  try {
    for (const size of [1024 * 1024, 4096, 512]) {
      const chunk = Buffer.alloc(size, 7);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (error) {
          if ((error as { code?: string }).code !== "ENOSPC") throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

test("a full disk: 507 with a clear error, reads go on, nothing acknowledged lost, writing resumes", {
  skip,
}, async () => {
  const dbFile = join(disk, "tack.sqlite");
  const log = capturedLog();
  const server = await startServer(
    { host: "127.0.0.1", port: 0, dbFile, allowedHosts: [], logLevel: "warn" },
    {},
    { logStream: log.stream },
  );
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === "" ? null : JSON.parse(text), text };
  };
  const reports: string[] = [];
  const backups = startRollingBackups(
    { dir: join(disk, "backups"), everyMs: 3_600_000, keep: 3 },
    dbFile,
    (line) => reports.push(line),
    200,
  );
  try {
    const board = await call("POST", "/api/boards", { name: "Full" });
    assert.equal(board.status, 201);
    const boardId = board.body.board.id;
    const laneId = board.body.lanes[0].id;
    const acknowledged: string[] = [];
    const create = (title: string) =>
      call("POST", `/api/boards/${boardId}/tickets`, {
        laneId,
        title,
        bodyMarkdown: "x".repeat(4000),
      });
    for (let index = 0; index < 10; index++) {
      const created = await create(`before ${index}`);
      assert.equal(created.status, 201);
      acknowledged.push(`before ${index}`);
    }

    fillDisk(join(disk, "filler"));
    // The log may still have room it had already taken: writes go on until it needs more.
    let refused: { status: number; body: any; text: string } | undefined;
    for (let index = 0; index < 2000 && !refused; index++) {
      const created = await create(`during ${index}`);
      if (created.status === 201) acknowledged.push(`during ${index}`);
      else refused = created;
    }
    assert.ok(refused, "a write was refused once the disk was full");
    assert.equal(refused.status, 507, refused.text);
    assert.match(refused.body.error, /^the disk is full: /);
    assert.ok(refused.body.error.includes(disk), refused.body.error);

    // Every kind of write is refused the same way: a comment, a PATCH, a delete to the trash.
    const ticketId = (await call("GET", `/api/boards/${boardId}/tickets`)).body.tickets[0].id;
    for (const [method, path, body] of [
      ["POST", `/api/tickets/${ticketId}/comments`, { bodyMarkdown: "y".repeat(4000) }],
      ["PATCH", `/api/tickets/${ticketId}`, { bodyMarkdown: "z".repeat(8000) }],
      ["DELETE", `/api/tickets/${ticketId}`, undefined],
      [
        "POST",
        `/api/boards/${boardId}/tickets`,
        { laneId, title: "again", bodyMarkdown: "w".repeat(8000) },
      ],
    ] as const) {
      const answer = await call(method, path, body);
      assert.equal(answer.status, 507, `${method} ${path}: ${answer.text}`);
    }

    // Reads go on.
    const listed = await call("GET", `/api/boards/${boardId}/tickets`);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.tickets.map((ticket: { title: string }) => ticket.title).sort(),
      [...acknowledged].sort(),
    );
    assert.equal((await call("GET", `/api/tickets/${ticketId}`)).status, 200);

    // A rolling backup fails, leaves no file, and says so once.
    assert.equal(await backups.runOnce(), undefined);
    assert.equal(await backups.runOnce(), undefined);
    assert.deepEqual(readdirSync(join(disk, "backups")), [], "no partial file is left");
    assert.equal(reports.length, 1, reports.join("\n"));
    assert.match(
      reports[0] as string,
      /^tack: backup failed: cannot write .* the disk holding .* is full \(.* free, up to .* needed\); retrying every/,
    );

    const lines = log
      .text()
      .split("\n")
      .filter((line) => line.includes("disk full"));
    assert.equal(lines.length, 1, "one log line for the whole run of refusals");

    // Space freed: writing resumes, no restart, and the backup is retried by itself.
    rmSync(join(disk, "filler"));
    const after = await create("after");
    assert.equal(after.status, 201, after.text);
    acknowledged.push("after");
    assert.equal(
      log
        .text()
        .split("\n")
        .filter((line) => line.includes("disk space again")).length,
      1,
    );
    const deadline = Date.now() + 30_000;
    while (!readdirSync(join(disk, "backups")).some((name) => name.endsWith(".sqlite"))) {
      assert.ok(Date.now() < deadline, `the backup was retried: ${reports.join("\n")}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(reports.at(-1) as string, /backup written to .* after \d+ failed attempts/);

    const final = await call("GET", `/api/boards/${boardId}/tickets`);
    assert.deepEqual(
      final.body.tickets.map((ticket: { title: string }) => ticket.title).sort(),
      [...acknowledged].sort(),
    );
  } finally {
    await backups.stop();
    await server.close();
  }
  const db = new Database(dbFile, { readonly: true });
  try {
    assert.equal(db.pragma("integrity_check", { simple: true }), "ok");
  } finally {
    db.close();
  }
});
