import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openDatabase } from "../../src/storage/database.js";

const folder = mkdtempSync(join(tmpdir(), "tack-database-"));
after(() => rmSync(folder, { recursive: true, force: true }));

test("the database is opened with the settings tack's promises rest on", () => {
  const db = openDatabase(join(folder, "settings", "tack.sqlite"));
  try {
    const pragma = (name: string) => db.pragma(name, { simple: true });
    // Readers never block the writer, and a commit is one append to the log.
    assert.equal(pragma("journal_mode"), "wal");
    // 2 = FULL: the log is fsynced at every commit, so an acknowledged write survives a power
    // cut or an OS crash (NORMAL, 1, would only survive a crash of tack itself).
    assert.equal(pragma("synchronous"), 2);
    assert.equal(pragma("foreign_keys"), 1);
    assert.equal(pragma("busy_timeout"), 5000);
  } finally {
    db.close();
  }
});
