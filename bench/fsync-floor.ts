/**
 * `node --import tsx bench/fsync-floor.ts`: the cost of one commit on this disk, whatever tack
 * does around it. A bare better-sqlite3 loop of one-row transactions (a 1 KB row) in WAL mode with
 * each `synchronous` setting: wall and CPU (user + system) per commit. The floor under every
 * write of tack, which commits with NORMAL and syncs the log once per group of commits
 * (docs/performance.md, "Durable writes: group commit and checkpoints").
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";

const COMMITS = 2000;

for (const sync of ["FULL", "NORMAL", "OFF"]) {
  const folder = mkdtempSync(join(tmpdir(), "tack-fsync-"));
  const db = new Database(join(folder, "floor.sqlite"));
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${sync}`);
  db.exec("CREATE TABLE rows (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT)");
  const insert = db.prepare("INSERT INTO rows (body) VALUES (?)");
  const commitOne = db.transaction((body: string) => insert.run(body));
  const body = "x".repeat(1000);
  for (let warm = 0; warm < 200; warm++) commitOne(body);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let commit = 0; commit < COMMITS; commit++) commitOne(body);
  const used = process.cpuUsage(cpu);
  const wall = (performance.now() - started) / COMMITS;
  const perCommit = (used.user + used.system) / 1000 / COMMITS;
  console.log(
    `synchronous=${sync}: ${wall.toFixed(3)} ms wall, ${perCommit.toFixed(3)} ms CPU per commit (system ${(used.system / 1000 / COMMITS).toFixed(3)})`,
  );
  db.close();
  rmSync(folder, { recursive: true, force: true });
}
