/**
 * `npm run bench -- first-card [--sizes 10000,20000,100000] [--rounds N] [--compare <ref>]
 * [--db-dir DIR]`: how soon the web UI shows a big board. Boards of bench/dataset.ts's generator
 * (8 lanes, half as many comments as tickets) are written into database files with a build's
 * own import code (bench/first-card-seed.ts); the built server serves the built UI; Debian's
 * Chromium (/usr/bin/chromium, headless, 1440×900) opens /boards/{id} in fresh contexts:
 *
 * - cold: the first open after the server started (its kept lists empty) and went idle;
 * - warm: two more opens, each in a fresh browser context (no HTTP cache);
 * - first card: navigation start to the first card's paint (Element Timing's render time): the
 *   server-drawn first view's card (ui/ARCHITECTURE.md, "The first view") or the app's, whichever
 *   enters the page first;
 * - scrolled lane: once the whole list is in, the first lane (2,500 tickets at 20,000, 12,500
 *   at 100,000) scrolled to its end, until its last open card is in the page, a frame later;
 * - 5-ticket board: the first card of a board of 5 tickets made on the same server, opened as
 *   the warm ones are: the page's own start, which the big board's figure cannot go below.
 *
 * With `--compare <ref>`, that commit's build (server and UI) and this tree's take turns round
 * by round, each on its own copy of the same database. `--db-dir` keeps the seeded databases
 * (first-card-<tickets>.sqlite) for the next run; seeding 100,000 tickets takes minutes.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type Browser, chromium, type Page } from "playwright-core";
import { type BuildRoot, buildsToCompare, median, ROOT, removeCheckOut, spread } from "./builds.js";
import { Client, startTack, waitForIdle } from "./lib.js";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "10000,20000,100000" },
    rounds: { type: "string", default: "2" },
    compare: { type: "string" },
    "db-dir": { type: "string" },
  },
});
const sizes = String(values.sizes).split(",").map(Number);
const rounds = Number(values.rounds);
const WARM_OPENS = 2;

/**
 * Records, in the page, when the first card was painted: the Element Timing API's render time of
 * its first text, marked as the card enters the page. (The frame after the card's entry, then a
 * task, came later by whatever the page ran first in that task: the parse of the lane's next run.)
 */
const WATCH_FIRST_CARD = `
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.identifier === "first-card") window.__firstCard = entry.renderTime || entry.loadTime;
    }
  }).observe({ type: "element", buffered: true });
  const observer = new MutationObserver(() => {
    const card = document.querySelector("[data-ticket-id], [data-first-card]");
    if (!card) return;
    observer.disconnect();
    const text = document.createTreeWalker(card, NodeFilter.SHOW_TEXT).nextNode();
    (text?.parentElement ?? card).setAttribute("elementtiming", "first-card");
  });
  observer.observe(document, { childList: true, subtree: true });
`;

/** Scrolls the first lane to its end until card `id` is in it; the time it took, a frame later. */
const scrollToCard = (id: number) => `new Promise((resolve) => {
  const body = document.querySelector("[data-lane-scroller]");
  const start = performance.now();
  const step = () => {
    if (body.querySelector('[data-ticket-id="${id}"]')) {
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
      return;
    }
    body.scrollTop = body.scrollHeight;
    requestAnimationFrame(step);
  };
  step();
})`;

/** The UI of a checkout, built as `npm run build` builds it (builds.ts builds the server only). */
function buildUi(root: string): void {
  if (root === ROOT) return; // the runner built this tree
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--config", "ui/vite.config.ts"],
    { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
  );
}

function seeded(root: string, folder: string, tickets: number): string {
  const file = join(folder, `first-card-${tickets}.sqlite`);
  if (existsSync(file)) return file;
  console.log(`seeding ${tickets.toLocaleString("en")} tickets…`);
  execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      join(ROOT, "bench/first-card-seed.ts"),
      root,
      `${file}.part`,
      String(tickets),
    ],
    { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] },
  );
  copyFileSync(`${file}.part`, file);
  rmSync(`${file}.part`, { force: true });
  return file;
}

/** The last card the first lane shows (open tickets; done ones wait behind "show more"). */
async function lastOpenCard(url: string): Promise<number> {
  const shell = (await (await fetch(`${url}/api/boards/1`)).json()) as {
    lanes: { id: number; position: number }[];
  };
  const first = [...shell.lanes].sort((a, b) => a.position - b.position || a.id - b.id)[0];
  const answer = (await (
    await fetch(`${url}/api/boards/1/tickets?archived=all&lane_id=${first?.id}`)
  ).json()) as { tickets: { id: number; isResolved: boolean; isArchived: boolean }[] };
  const open = answer.tickets.filter((ticket) => !ticket.isResolved && !ticket.isArchived);
  return open[open.length - 1]?.id as number;
}

/** The page's first-card time, polled (the CSP allows no eval, which waitForFunction needs). */
async function firstCardAt(page: Page): Promise<number> {
  for (;;) {
    const at = (await page.evaluate("window.__firstCard")) as number | undefined;
    if (at !== undefined) return at;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Figures {
  cold: number[];
  warm: number[];
  scroll: number[];
  /** First card of a 5-ticket board on the same server: the page's own start. */
  floor: number[];
}

/** A board of 5 tickets beside the big one: its first card is the page's own start. */
async function smallBoard(url: string): Promise<number> {
  const client = new Client(url, 1);
  try {
    const shell = await client.ok(
      { method: "POST", path: "/api/boards", body: { name: "Five tickets" } },
      201,
    );
    for (let i = 1; i <= 5; i++) {
      await client.ok(
        {
          method: "POST",
          path: `/api/boards/${shell.board.id}/tickets`,
          body: { laneId: shell.lanes[0].id, title: `Ticket ${i}` },
        },
        201,
      );
    }
    return shell.board.id as number;
  } finally {
    client.close();
  }
}

async function open(browser: Browser, url: string, lastCard: number | null, boardId = 1) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(300_000);
    await page.addInitScript(WATCH_FIRST_CARD);
    await page.goto(`${url}/boards/${boardId}`);
    // CSP allows no eval: poll from here instead of waitForFunction.
    const first = await firstCardAt(page);
    if (lastCard === null) return { first, scroll: null };
    // The whole list is in once no lane says it is still loading (this tree's UI shows lanes as
    // their tickets arrive; before, cards showed only once the whole list was in).
    await page.locator(".lane-arriving").first().waitFor({ state: "detached" });
    const scroll = (await page.evaluate(scrollToCard(lastCard))) as number;
    return { first, scroll };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const checkouts: string[] = [];
  const folder = mkdtempSync(join(tmpdir(), "tack-bench-first-card-"));
  const dbDir = values["db-dir"] ?? folder;
  mkdirSync(dbDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.TACK_CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const builds: BuildRoot[] = buildsToCompare(values.compare, checkouts);
    for (const build of builds) buildUi(build.root);
    const table: string[] = [];
    for (const tickets of sizes) {
      // Seeded by the oldest build: a newer one migrates it forward when it opens its copy.
      const base = seeded((builds[0] as BuildRoot).root, dbDir, tickets);
      const figures = new Map<string, Figures>();
      for (const build of builds) {
        copyFileSync(base, join(folder, `${build.name.replace(/\W/g, "_")}.sqlite`));
        figures.set(build.name, { cold: [], warm: [], scroll: [], floor: [] });
      }
      for (let round = 0; round < rounds; round++) {
        for (const build of builds) {
          const dbFile = join(folder, `${build.name.replace(/\W/g, "_")}.sqlite`);
          const tack = await startTack([], build.root, {
            dbFile,
            settleMs: 0,
            startTimeoutMs: 600_000,
          });
          try {
            await waitForIdle(tack.pid, 120_000);
            const mine = figures.get(build.name) as Figures;
            mine.cold.push((await open(browser, tack.url, null)).first);
            const last = await lastOpenCard(tack.url);
            for (let i = 0; i < WARM_OPENS; i++) {
              const { first, scroll } = await open(browser, tack.url, i === 0 ? last : null);
              mine.warm.push(first);
              if (scroll !== null) mine.scroll.push(scroll);
            }
            const small = await smallBoard(tack.url);
            await open(browser, tack.url, null, small); // its first open reads it on the server
            for (let i = 0; i < WARM_OPENS; i++) {
              mine.floor.push((await open(browser, tack.url, null, small)).first);
            }
          } finally {
            await tack.stop();
          }
        }
      }
      for (const build of builds) {
        const mine = figures.get(build.name) as Figures;
        table.push(
          `${tickets.toLocaleString("en").padStart(7)}  ${build.name.padEnd(12)}  first card warm ${spread(mine.warm)} ms, cold ${spread(mine.cold)} ms; scrolled lane ${spread(mine.scroll)} ms; 5-ticket board ${spread(mine.floor)} ms`,
        );
      }
      if (builds.length === 2) {
        const [old, current] = builds.map((build) => figures.get(build.name) as Figures);
        const ratio = (a: number[], b: number[]) => `${(median(b) / median(a)).toFixed(2)}x`;
        table.push(
          `         this tree / ${values.compare}: first card warm ${ratio(old?.warm ?? [], current?.warm ?? [])}, cold ${ratio(old?.cold ?? [], current?.cold ?? [])}; scrolled lane ${ratio(old?.scroll ?? [], current?.scroll ?? [])}; 5-ticket board ${ratio(old?.floor ?? [], current?.floor ?? [])}`,
        );
      }
      console.log(table.slice(-builds.length - (builds.length === 2 ? 1 : 0)).join("\n"));
    }
    console.log(
      `\nfirst card: navigation start to the first card's paint (median (min-max), ${rounds} round(s); warm: ${WARM_OPENS} opens a round)`,
    );
    console.log(table.join("\n"));
  } finally {
    await browser.close();
    for (const checkout of checkouts) removeCheckOut(checkout);
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
