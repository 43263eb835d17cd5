import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import { backupFileName } from "../../src/backup/rolling-backups.js";
import { runCli, startCli } from "../helpers/cli.js";
import { startTestServer } from "../helpers/server.js";

/**
 * A damaged database file stops `tack serve` before anything writes to it (docs/operations.md,
 * "A damaged file"): exit 1, one line naming the file, the finding and the newest rolling backup
 * with the `tack restore` line to use, and the file left byte for byte as it was. Damaged in its
 * schema (page 1), in a page of the tickets table and in a page of one of its indexes; the pages
 * are found through `dbstat` and `sqlite_schema.rootpage`. `tack doctor` reports the same.
 */
const folder = mkdtempSync(join(tmpdir(), "tack-damaged-"));
after(() => rmSync(folder, { recursive: true, force: true }));

const good = join(folder, "good.sqlite");
const backupDir = join(folder, "backups");
/** A rolling backup as `tack serve --backup-dir` names them, taken a moment ago. */
const backup = join(backupDir, backupFileName(new Date(Date.now() - 90_000)));

before(async () => {
  const api = await startTestServer({ dbFile: good });
  const tickets = Array.from({ length: 300 }, (_, index) => ({
    id: index + 1,
    laneId: 1,
    title: `Ticket ${index}`,
    bodyMarkdown: `body ${index} `.repeat(60),
  }));
  const imported = await api.post("/api/boards/import", {
    board: { name: "Damaged" },
    lanes: [{ id: 1, name: "Todo" }],
    tickets,
  });
  assert.equal(imported.status, 201, imported.text);
  await api.close();
  mkdirSync(backupDir);
  copyFileSync(good, backup);
});

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** Page numbers of `name` (a table or index) of the given type, from dbstat. */
function pagesOf(name: string, type: "leaf" | "internal"): number[] {
  const db = new Database(good, { readonly: true });
  try {
    return db
      .prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno")
      .pluck()
      .all(name, type) as number[];
  } finally {
    db.close();
  }
}

function indexOfTickets(): string {
  const db = new Database(good, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'tickets' AND rootpage > 0 ORDER BY name LIMIT 1",
      )
      .pluck()
      .get() as string;
  } finally {
    db.close();
  }
}

/** A copy of the good file with `page` (1-based) overwritten from byte `from` of it on. */
function damagedCopy(name: string, page: number, from = 0): string {
  const file = join(folder, `${name}.sqlite`);
  copyFileSync(good, file);
  const db = new Database(file, { readonly: true });
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  db.close();
  const fd = openSync(file, "r+");
  try {
    writeSync(
      fd,
      Buffer.alloc(pageSize - from, 0xa5),
      0,
      pageSize - from,
      (page - 1) * pageSize + from,
    );
  } finally {
    closeSync(fd);
  }
  return file;
}

async function assertRefused(file: string): Promise<void> {
  const before = sha256(file);
  const exit = await runCli([
    "serve",
    "--port",
    "0",
    "--db",
    file,
    "--backup-dir",
    backupDir,
    "--backup-every",
    "1d",
  ]);
  assert.equal(exit.code, 1, `stdout: ${exit.stdout} stderr: ${exit.stderr}`);
  assert.equal(exit.stdout, "", "it never started listening");
  const lines = exit.stderr.trim().split("\n");
  assert.equal(lines.length, 1, exit.stderr);
  const line = lines[0] as string;
  assert.match(line, /failed its start-up check \(quick_check: /);
  assert.ok(line.includes(file), line);
  assert.ok(line.includes(`tack restore ${backup} --db ${file} --force`), line);
  assert.equal(sha256(file), before, "the file is byte for byte as it was");
  assert.ok(!existsSync(`${file}-wal`) || statSync(`${file}-wal`).size === 0, "no log written");

  // The doctor finds it too, and the restore line it printed puts the backup back.
  const doctor = await runCli(["doctor", "--db", file, "--backup-dir", backupDir]);
  assert.equal(doctor.code, 1, doctor.stdout);
  assert.match(doctor.stdout, /^FAIL {2}integrity +quick_check: /m);
  assert.equal(sha256(file), before);
  const restored = await runCli(["restore", backup, "--db", file, "--force"]);
  assert.equal(restored.code, 0, restored.stderr);
  const running = await startCli(["--port", "0", "--db", file]);
  try {
    const boards = await fetch(`${running.url}/api/boards`);
    assert.equal(((await boards.json()) as { boards: unknown[] }).boards.length, 1);
  } finally {
    await running.stop();
  }
}

describe("a damaged database file stops tack serve and is left as it was", () => {
  test("damaged schema (page 1 past its header)", async () => {
    await assertRefused(damagedCopy("schema", 1, 100));
  });

  test("a damaged page of the tickets table", async () => {
    const pages = pagesOf("tickets", "leaf");
    assert.ok(pages.length > 3, `tickets span ${pages.length} leaf pages`);
    await assertRefused(damagedCopy("ticket-page", pages[Math.floor(pages.length / 2)] as number));
  });

  test("a damaged page of an index of the tickets table", async () => {
    const index = indexOfTickets();
    const pages = pagesOf(index, "leaf");
    assert.ok(pages.length > 0, `index ${index} has leaf pages`);
    await assertRefused(damagedCopy("index-page", pages[0] as number));
  });

  test("--skip-check serves a file whose ticket page is damaged (the operator knows)", async () => {
    const pages = pagesOf("tickets", "leaf");
    const file = damagedCopy("skipped", pages[Math.floor(pages.length / 2)] as number);
    const running = await startCli(["--port", "0", "--db", file, "--skip-check"]);
    try {
      assert.equal((await fetch(`${running.url}/api/health`)).status, 200);
    } finally {
      await running.stop();
    }
  });

  test("tack doctor passes a sound file and names every check", async () => {
    const before = sha256(good);
    const doctor = await runCli(["doctor", "--db", good, "--backup-dir", backupDir]);
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    for (const name of ["integrity", "schema", "log", "free space", "newest backup"]) {
      assert.match(doctor.stdout, new RegExp(`^ok {4}${name} `, "m"));
    }
    assert.ok(doctor.stdout.includes(backup), doctor.stdout);
    assert.equal(sha256(good), before);

    const stale = await runCli([
      "doctor",
      "--db",
      good,
      "--backup-dir",
      backupDir,
      "--backup-every",
      "30s",
    ]);
    assert.equal(stale.code, 1, "a newest backup older than twice the interval fails");
    assert.match(stale.stdout, /^FAIL {2}newest backup /m);
    const none = await runCli(["doctor", "--db", good, "--backup-dir", join(folder, "empty")]);
    assert.equal(none.code, 1);
    assert.match(none.stdout, /^FAIL {2}newest backup +none in /m);
  });
});
