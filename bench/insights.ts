/**
 * `npm run bench:insights [-- rounds]`: server CPU of `GET /api/boards/{id}/insights` on a board
 * of 20,000 tickets with 100,000 activity entries, 30 daily buckets (the target of issue #23:
 * at most 200 ms). The history is written straight into a fresh database (as tack records it:
 * created, claimed, moved, resolved or released, five entries per ticket over 60 days), then the
 * built server (`dist/`) answers `rounds` requests one after another; the CPU the server process
 * used per request is read from /proc (10 ms ticks, so the total is divided by the rounds).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase } from "../src/storage/database.js";
import { cpuMs, startTack, waitForIdle } from "./lib.js";

const TICKETS = 20_000;
const ENTRIES_PER_TICKET = 5;
const DAY = 86_400_000;
const END = Date.parse("2026-03-01T00:00:00.000Z");
const START = END - 60 * DAY;

function seed(dbFile: string): number {
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

if (process.argv[2] === "--seed-only") {
  // For profiling by hand: `node --import tsx bench/insights.ts --seed-only /tmp/x.sqlite`.
  console.log(`board ${seed(process.argv[3] as string)}`);
  process.exit(0);
}
const rounds = Number(process.argv[2] ?? 20);
const folder = mkdtempSync(join(tmpdir(), "tack-bench-insights-"));
const dbFile = join(folder, "tack.sqlite");
const boardId = seed(dbFile);
const tack = await startTack([], undefined, { dbFile, settleMs: 500 });
try {
  await waitForIdle(tack.pid);
  const query = `from=${new Date(END - 30 * DAY).toISOString()}&to=${new Date(END).toISOString()}&bucket=day`;
  const url = `${tack.url}/api/boards/${boardId}/insights?${query}`;
  const first = await fetch(url);
  const body = (await first.json()) as { flow: unknown[]; aging: unknown[]; leadTime: unknown };
  if (first.status !== 200 || body.flow.length !== 30) throw new Error(`answer ${first.status}`);
  const cpuBefore = cpuMs(tack.pid) as number;
  const started = performance.now();
  for (let i = 0; i < rounds; i++) {
    // A fresh `to` each time would defeat nothing here: tack does not cache insights answers.
    const response = await fetch(url);
    await response.arrayBuffer();
  }
  const wallMs = (performance.now() - started) / rounds;
  const cpuPerRequest = ((cpuMs(tack.pid) as number) - cpuBefore) / rounds;
  console.log(
    `insights of ${TICKETS} tickets / ${TICKETS * ENTRIES_PER_TICKET} activity entries, 30 daily buckets, ${rounds} requests:`,
  );
  console.log(
    `  server CPU ${cpuPerRequest.toFixed(1)} ms per request (target <= 200), wall ${wallMs.toFixed(1)} ms; aging ${body.aging.length} tickets, leadTime ${JSON.stringify(body.leadTime)}`,
  );
} finally {
  await tack.stop();
  rmSync(folder, { recursive: true, force: true });
}
