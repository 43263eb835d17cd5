/**
 * `npm run bench -- insights-view [--rounds N]`: how long the web UI's Insights view takes to
 * draw on the board of `npm run bench -- insights` (20,000 tickets, 100,000 activity entries), its history
 * ending now so the default period (30 days, daily buckets) is full. The built server (`dist/`)
 * serves the built UI; Debian's Chromium (/usr/bin/chromium, headless) opens
 * /boards/{id}/insights `rounds` times in fresh contexts and reads the view's performance marks:
 *
 * - draw: from the insights answer parsed (`insights-data`) to the frame after every chart drew
 *   (`insights-drawn`): the view's own work (target: at most 500 ms);
 * - fetch: request to parsed answer (the server's time plus the transfer of ~1 MB of JSON);
 * - redraw: the same draw after the period changes to 7 days.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { ROOT } from "./builds.js";
import { seed } from "./insights.js";
import { startTack, waitForIdle } from "./lib.js";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" } } });
const rounds = Number(values.rounds);
const folder = mkdtempSync(join(tmpdir(), "tack-bench-insights-view-"));
const dbFile = join(folder, "tack.sqlite");
const boardId = await seed(ROOT, dbFile, Date.now());
const tack = await startTack([], undefined, { dbFile, settleMs: 500 });
const browser = await chromium.launch({
  executablePath: process.env.TACK_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const lastDuration = (name: string) =>
  `performance.getEntriesByName(${JSON.stringify(name)}).at(-1)?.duration ?? NaN`;

try {
  await waitForIdle(tack.pid);
  const draws: number[] = [];
  const fetches: number[] = [];
  const redraws: number[] = [];
  let points = "";
  for (let round = 0; round < rounds; round++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await page.goto(`${tack.url}/boards/${boardId}/insights`);
    await page.locator(".insights[data-drawn]").waitFor();
    const figures = await page.evaluate(`({
      draw: ${lastDuration("insights-draw")},
      request: performance.getEntriesByName("insights-request").at(-1).startTime,
      data: performance.getEntriesByName("insights-data").at(-1).startTime,
    })`);
    const { draw, request, data } = figures as { draw: number; request: number; data: number };
    draws.push(draw);
    fetches.push(data - request);
    points = await page.evaluate(
      `document.querySelectorAll(".insights-data summary").length + " tables; " +
       [...document.querySelectorAll(".insights-data summary")].map((s) => s.textContent).join(", ")`,
    );
    const before = await page.locator(".insights").getAttribute("data-drawn");
    await page.getByLabel("Period").selectOption("7d");
    await page.waitForFunction(
      (previous) => document.querySelector(".insights")?.getAttribute("data-drawn") !== previous,
      before,
    );
    redraws.push((await page.evaluate(lastDuration("insights-draw"))) as number);
    await context.close();
  }
  console.log(
    `Insights view, 20,000-ticket board with 100,000 activity entries, 30 daily buckets, ${rounds} page loads (${points}):`,
  );
  const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(", ");
  console.log(`  draw   median ${median(draws).toFixed(0)} ms (target <= 500) [${list(draws)}]`);
  console.log(`  fetch  median ${median(fetches).toFixed(0)} ms [${list(fetches)}]`);
  console.log(`  redraw median ${median(redraws).toFixed(0)} ms after 7 days [${list(redraws)}]`);
} finally {
  await browser.close();
  await tack.stop();
  rmSync(folder, { recursive: true, force: true });
}
