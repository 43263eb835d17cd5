/**
 * `npm run bench -- insights [flags]`: server CPU of `GET /api/boards/{id}/insights` on a board
 * of 20,000 tickets with 100,000 activity entries, 30 daily buckets (the target:
 * at most 200 ms). The history is written straight into a fresh database (as tack records it:
 * created, claimed, moved, resolved or released, five entries per ticket over 60 days), then the
 * built server (`dist/`) answers `--requests` requests one after another; the CPU the server
 * process used per request is read from /proc (10 ms ticks, so the total is divided by the
 * requests).
 *
 * Flags:
 *   --requests N      requests per measured batch (default 10)
 *   --compare <ref>   that commit's build and this tree's, each on its own database seeded by
 *                     its own schema, both servers up, batches alternated `--rounds` times;
 *                     prints medians and the ratio
 *   --rounds N        alternations with --compare (default 3)
 *   (the runner's --profile profiles this tree's server: bench/main.ts)
 *   --after-write     resolve or reopen one ticket before each request (insights right after a
 *                     write, the write's CPU included)
 *   --seed-only <file>  just write the database (for profiling by hand)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { buildsToCompare, median, ROOT, removeCheckOut, spread } from "./builds.js";
import { cpuMs, startTack, type TackProcess, waitForIdle } from "./lib.js";

const TICKETS = 20_000;
const ENTRIES_PER_TICKET = 5;
const DAY = 86_400_000;
const END = Date.parse("2026-03-01T00:00:00.000Z");

interface Statement {
  run(...values: unknown[]): { lastInsertRowid: number | bigint };
}
interface SeedDb {
  prepare(sql: string): Statement;
  transaction(work: () => void): () => void;
  close(): void;
}

/**
 * Writes the board with `root`'s build of the storage (its own migrations, its own triggers); its
 * history ends at `end` (bench/insights-view.ts passes now).
 */
export async function seed(root: string, dbFile: string, end = END): Promise<number> {
  const START = end - 60 * DAY;
  const storage = pathToFileURL(join(root, "dist", "storage", "database.js")).href;
  const { openDatabase } = (await import(storage)) as { openDatabase(file: string): SeedDb };
  const db = openDatabase(dbFile);
  const iso = (millis: number) => new Date(millis).toISOString();
  const at = iso(START);
  const boardId = Number(
    db
      .prepare("INSERT INTO boards (name, position, created_at, updated_at) VALUES (?, 0, ?, ?)")
      .run("Insights bench", at, at).lastInsertRowid,
  );
  const lane = db.prepare("INSERT INTO lanes (board_id, name, position) VALUES (?, ?, ?)");
  const [todo, doing, review, done] = ["todo", "doing", "review", "done"].map((name, position) =>
    Number(lane.run(boardId, name, position).lastInsertRowid),
  ) as [number, number, number, number];
  const ticket = db.prepare(
    `INSERT INTO tickets (board_id, lane_id, title, is_resolved, position, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  // Every ticket has its text row, as tack writes it (a single-ticket read or write needs it).
  // Written as every build's schema takes it: since migration 014 the title's search text belongs
  // on the ticket row (here it stays in the text row, and the ticket row's copy empty), which
  // only a search would notice, and this bench does not search.
  const text = db.prepare(
    "INSERT INTO ticket_texts (ticket_id, search_text, body_markdown, body_html) VALUES (?, ?, '', '')",
  );
  const activity = db.prepare(
    `INSERT INTO activity (board_id, ticket_id, subject_ticket_id, action, message, details_json,
       created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  let entries = 0;
  const positions = new Map<number, number>();
  db.transaction(() => {
    for (let i = 0; i < TICKETS; i++) {
      const created = START + Math.floor((i / TICKETS) * 55 * DAY);
      const open = i % 5 === 0; // a fifth still open: they age in review
      const lastLane = open ? review : done;
      const position = positions.get(lastLane) ?? 0;
      positions.set(lastLane, position + 1);
      const id = Number(
        ticket.run(boardId, lastLane, `Ticket ${i}`, open ? 0 : 1, position, iso(created), at)
          .lastInsertRowid,
      );
      text.run(id, `Ticket ${i}`);
      const actor = `agent-${i % 7}`;
      const step = (hours: number) => iso(created + hours * 3_600_000 + (i % 3_600) * 1000);
      const write = (action: string, message: string, details: unknown, when: string) => {
        activity.run(boardId, id, id, action, message, JSON.stringify(details), when);
        entries++;
      };
      write(
        "ticket_created",
        "Ticket created",
        {
          title: `Ticket ${i}`,
          laneId: todo,
          priority: 2,
          isResolved: false,
          isArchived: false,
          parentTicketId: null,
          tagIds: [],
          blockerIds: [],
          relatedIds: [],
        },
        step(0),
      );
      write("ticket_claimed", `Claimed by ${actor}`, { actor, expiresAt: step(3) }, step(2));
      write(
        "ticket_transitioned",
        "Moved to doing",
        { fromLaneId: todo, toLaneId: doing },
        step(2.5),
      );
      if (open) {
        write("ticket_released", `Released by ${actor}`, { actor, reason: "released" }, step(20));
        write(
          "ticket_transitioned",
          "Moved to review",
          { fromLaneId: doing, toLaneId: review },
          step(21),
        );
      } else {
        write(
          "ticket_updated",
          "Ticket resolved",
          {
            changed: ["isResolved"],
            before: { isResolved: false },
            after: { isResolved: true },
          },
          step(30 + (i % 50)),
        );
        write(
          "ticket_released",
          `Claim of ${actor} ended: resolved`,
          { actor, reason: "resolved" },
          step(30 + (i % 50)),
        );
      }
    }
  })();
  db.close();
  if (entries !== TICKETS * ENTRIES_PER_TICKET) throw new Error(`wrote ${entries} entries`);
  return boardId;
}

interface Build {
  name: string;
  root: string;
  tack: TackProcess;
  url: string;
  body: string;
  /** The ticket `--after-write` resolves and reopens before each request. */
  ticketUrl: string;
  resolved: boolean;
  cpu: number[];
  wall: number[];
}

const QUERY = `from=${new Date(END - 30 * DAY).toISOString()}&to=${new Date(END).toISOString()}&bucket=day`;

/** `requests` requests one after another: server CPU and wall time per request. */
async function batch(build: Build, requests: number, afterWrite: boolean): Promise<void> {
  const cpuBefore = cpuMs(build.tack.pid) as number;
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    if (afterWrite) {
      // A write that adds a flow entry (a resolution or a reopening): the insights after it must
      // read that ticket's history again. Its own CPU (~1-2 ms) is counted in the request's.
      build.resolved = !build.resolved;
      const patched = await fetch(build.ticketUrl, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ isResolved: build.resolved }),
      });
      if (patched.status !== 200)
        throw new Error(
          `PATCH ${build.ticketUrl} answered ${patched.status} ${await patched.text()}`,
        );
      await patched.arrayBuffer();
    }
    // tack does not cache insights answers; it keeps parsed histories by revision, so a
    // repeated request on an unchanged board parses none of them again.
    const response = await fetch(build.url);
    await response.arrayBuffer();
  }
  build.wall.push((performance.now() - started) / requests);
  build.cpu.push(((cpuMs(build.tack.pid) as number) - cpuBefore) / requests);
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: "string", default: "10" },
      compare: { type: "string" },
      rounds: { type: "string", default: "3" },
      "after-write": { type: "boolean", default: false },
      "seed-only": { type: "string" },
    },
  });
  if (values["seed-only"]) {
    console.log(`board ${await seed(ROOT, values["seed-only"])}`);
    return;
  }
  const requests = Number(values.requests);
  const rounds = values.compare ? Number(values.rounds) : 1;
  const folder = mkdtempSync(join(tmpdir(), "tack-bench-insights-"));
  const checkouts: string[] = [];
  const builds: Build[] = [];
  try {
    const roots = buildsToCompare(values.compare, checkouts);
    for (const [index, { name, root }] of roots.entries()) {
      const dbFile = join(folder, `tack-${index}.sqlite`);
      const boardId = await seed(root, dbFile);
      const tack = await startTack([], root, { dbFile, settleMs: 500 });
      await waitForIdle(tack.pid);
      const url = `${tack.url}/api/boards/${boardId}/insights?${QUERY}`;
      const first = await fetch(url);
      const body = await first.text();
      const parsed = JSON.parse(body) as { flow: unknown[] };
      if (first.status !== 200 || parsed.flow.length !== 30)
        throw new Error(`answer ${first.status}`);
      const listed = (await (
        await fetch(`${tack.url}/api/boards/${boardId}/tickets?archived=all`)
      ).json()) as { tickets: Array<{ id: number; isResolved: boolean }> };
      const ticket = listed.tickets[0] as { id: number; isResolved: boolean };
      builds.push({
        name,
        root,
        tack,
        url,
        body,
        ticketUrl: `${tack.url}/api/tickets/${ticket.id}`,
        resolved: ticket.isResolved,
        cpu: [],
        wall: [],
      });
    }
    // The same figures from both builds (ageSeconds left out: it counts to each one's now).
    const figures = (body: string) =>
      JSON.stringify(JSON.parse(body), (key, value) => (key === "ageSeconds" ? undefined : value));
    if (builds.length > 1 && figures(builds[0]?.body ?? "") !== figures(builds[1]?.body ?? "")) {
      throw new Error("the two builds answer differently");
    }
    console.log(
      `insights of ${TICKETS} tickets / ${TICKETS * ENTRIES_PER_TICKET} activity entries, 30 daily buckets, ${requests} requests a batch, load average ${load()}`,
    );
    for (let round = 1; round <= rounds; round++) {
      for (const build of builds) await batch(build, requests, values["after-write"] === true);
      if (builds.length > 1) console.log(`  round ${round} of ${rounds} done, load ${load()}`);
    }
    for (const build of builds) {
      console.log(
        `  ${build.name}: server CPU ${spread(build.cpu, 1)} ms per request (target <= 200), wall ${spread(build.wall, 1)} ms`,
      );
    }
    if (builds.length > 1) {
      const [old, now] = builds as [Build, Build];
      console.log(
        `  ratio ${old.name} / this tree: CPU ${(median(old.cpu) / median(now.cpu)).toFixed(2)}x (answers identical), load average ${load()}`,
      );
    }
    const sample = JSON.parse(builds[builds.length - 1]?.body as string);
    console.log(
      `  aging ${sample.aging.length} tickets, leadTime ${JSON.stringify(sample.leadTime)}`,
    );
  } finally {
    for (const build of builds) await build.tack.stop();
    for (const checkout of checkouts) removeCheckOut(checkout);
    rmSync(folder, { recursive: true, force: true });
  }
}

// Only when run (bench/insights-view.ts imports seed).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: unknown) => {
    console.error(
      `bench insights: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exit(1);
  });
}
