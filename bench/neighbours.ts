/**
 * `npm run bench -- neighbours [--changes N] [--rounds N] [--compare <commit>]`: what the change
 * notes (storage/ticket-changes.ts) cost a write, in process, without HTTP: CPU microseconds per
 * transaction of
 *
 * - a title change of a ticket with 1,000 children (each child's version raised, its parts
 *   dropped: the neighbours noted set-wise beyond a few dozen),
 * - a title change of a ticket with three neighbours (a parent, a child, a blocker: noted one at
 *   a time),
 * - a comment (one ticket noted).
 *
 * Each transaction is one UPDATE or INSERT, the notes' flush and a COMMIT with
 * `synchronous = OFF` (no fsync: the disk's cost is `commit-floor`'s subject), on a WAL database
 * in the OS temp dir. With `--compare`, that commit's build (dist/ of a temporary worktree,
 * bench/builds.ts) runs the same transactions on its own database in the same process, the two
 * alternated round by round; the ratio is `<commit> / this tree` (above 1: this tree costs less).
 * This tree is measured from its dist/ too (the runner builds it first).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { Db } from "../src/storage/database.js";
import type { TicketChangeStore } from "../src/storage/ticket-changes.js";
import { buildsToCompare, median, removeCheckOut, spread } from "./builds.js";

const { values } = parseArgs({
  options: {
    changes: { type: "string", default: "400" },
    rounds: { type: "string", default: "7" },
    compare: { type: "string" },
  },
});
const changes = Number(values.changes);
const rounds = Number(values.rounds);
if (!Number.isInteger(changes) || changes < 1) throw new Error("--changes must be an integer >= 1");
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be an integer >= 1");

const SCENARIOS = ["title, 1,000 children", "title, 3 neighbours", "comment"] as const;
type Scenario = (typeof SCENARIOS)[number];

interface Build {
  name: string;
  /** Runs `count` transactions of a scenario; returns CPU microseconds per transaction. */
  run(scenario: Scenario, count: number): number;
  close(): void;
}

const NO_RENDERER = {
  renderMarkdown: (markdown: string) => markdown,
  countChecklist: () => ({ done: 0, total: 0 }),
};

async function openBuild(name: string, root: string): Promise<Build> {
  const module = (path: string) => import(pathToFileURL(join(root, "dist", path)).href);
  const { openDatabase } = (await module("storage/database.js")) as {
    openDatabase: (file: string, context: unknown) => Db;
  };
  const { ticketChangeStore } = (await module("storage/ticket-changes.js")) as {
    ticketChangeStore: (db: Db) => TicketChangeStore;
  };
  const folder = mkdtempSync(join(tmpdir(), "tack-neighbours-"));
  const db = openDatabase(join(folder, "tack.sqlite"), NO_RENDERER);
  db.pragma("synchronous = OFF");
  const notes = ticketChangeStore(db);
  const at = "2026-01-01T00:00:00.000Z";
  db.prepare(
    "INSERT INTO boards (name, position, created_at, updated_at) VALUES ('b', 0, ?, ?)",
  ).run(at, at);
  db.prepare("INSERT INTO lanes (board_id, name, position) VALUES (1, 'l', 0)").run();
  const insertTicket = db.prepare<[number | null, number]>(
    `INSERT INTO tickets (board_id, lane_id, parent_ticket_id, title, position, created_at, updated_at)
     VALUES (1, 1, ?, 'ticket', ?, '${at}', '${at}')`,
  );
  let position = 0;
  const newTicket = (parent: number | null) =>
    Number(insertTicket.run(parent, position++).lastInsertRowid);
  let crowded = 0;
  let few = 0;
  db.transaction(() => {
    crowded = newTicket(null);
    for (let child = 0; child < 1000; child++) newTicket(crowded);
    const parent = newTicket(null);
    few = newTicket(parent);
    newTicket(few);
    const blocker = newTicket(null);
    db.prepare("INSERT INTO ticket_blockers (ticket_id, blocker_id) VALUES (?, ?)").run(
      few,
      blocker,
    );
    notes.flush();
  })();
  const rename = db.prepare<[string, number]>("UPDATE tickets SET title = ? WHERE id = ?");
  const comment = db.prepare<[number]>(
    `INSERT INTO comments (ticket_id, body_markdown, body_html, created_at, updated_at,
       sync_created_at, sync_updated_at) VALUES (?, 'c', 'c', '${at}', '${at}', '${at}', '${at}')`,
  );
  let serial = 0;
  const change: Record<Scenario, () => void> = {
    "title, 1,000 children": () => rename.run(`renamed ${serial++}`, crowded),
    "title, 3 neighbours": () => rename.run(`renamed ${serial++}`, few),
    comment: () => comment.run(few),
  };
  const transactions = new Map(
    SCENARIOS.map((scenario) => [
      scenario,
      db.transaction(() => {
        change[scenario]();
        notes.flush();
      }),
    ]),
  );
  return {
    name,
    run(scenario, count) {
      const write = transactions.get(scenario) as () => void;
      const started = process.cpuUsage();
      for (let i = 0; i < count; i++) write();
      const used = process.cpuUsage(started);
      return (used.user + used.system) / count;
    },
    close() {
      db.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

const checkouts: string[] = [];
try {
  const builds: Build[] = [];
  for (const { name, root } of buildsToCompare(values.compare, checkouts)) {
    builds.push(await openBuild(name, root));
  }
  // Warm-up: V8 and SQLite's caches, unmeasured.
  for (const build of builds) for (const scenario of SCENARIOS) build.run(scenario, 50);
  const figures = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const scenario of SCENARIOS) {
      for (const build of builds) {
        const key = `${build.name}|${scenario}`;
        figures.set(key, [...(figures.get(key) ?? []), build.run(scenario, changes)]);
      }
    }
  }
  console.log(`CPU us per transaction, median (min-max) of ${rounds} rounds of ${changes}:`);
  for (const scenario of SCENARIOS) {
    const cells = builds.map(
      (build) => `${build.name} ${spread(figures.get(`${build.name}|${scenario}`) ?? [], 1)}`,
    );
    const [before, after] = builds.map((build) =>
      median(figures.get(`${build.name}|${scenario}`) ?? []),
    );
    const ratio =
      builds.length === 2 && before !== undefined && after !== undefined
        ? `  ratio ${(before / after).toFixed(2)}`
        : "";
    console.log(`  ${scenario.padEnd(22)} ${cells.join("  ")}${ratio}`);
  }
  for (const build of builds) build.close();
} finally {
  for (const checkout of checkouts) removeCheckOut(checkout);
}
