import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { startTestServer } from "../helpers/server.js";
import { seriousViolations } from "./axe.js";
import { openPage, until } from "./browser.js";
import { seedFlowHistory } from "./flow-seed.js";
import { seedDemoBoard } from "./seed.js";

// The Insights view (/boards/{id}/insights) in Chromium on a board with three weeks of recorded
// flow: reached by URL and by `i`, its charts drawn, its tables and CSV files equal to the API's
// answer the page received, aging tickets that open, live updates, the period picker, and a
// 390 px phone without sideways overflow. No console errors anywhere.

const api = await startTestServer();
const { boardId, lanes } = await seedDemoBoard(api, "Flow");
await seedFlowHistory(
  api,
  boardId,
  lanes.map((lane: { id: number }) => lane.id),
);
const summaries = (await api.get(`/api/boards/${boardId}/tickets?archived=all`)).body.tickets as {
  id: number;
  shortRef: string;
}[];
const refOf = (id: number) => summaries.find((ticket) => ticket.id === id)?.shortRef;

type Insights = {
  flow: { at: string; lanes: { laneId: number; count: number }[] }[];
  throughput: { at: string; resolved: number }[];
  aging: { ticketId: number }[];
  actors: { actor: string; claimed: number; resolved: number }[];
};

/** The next insights answer the page receives (what its charts and tables must show). */
const nextAnswer = (page: Page) =>
  page
    .waitForResponse((response) => /\/api\/boards\/\d+\/insights\?/.test(response.url()))
    .then(async (response) => (await response.json()) as Insights);

async function tableRows(page: Page, name: string): Promise<string[][]> {
  const table = page.locator(`table[data-table="${name}"]`);
  if (!(await table.isVisible())) {
    await page
      .locator(".insights-data", { has: page.locator(`[data-csv="${name}"]`) })
      .locator("summary")
      .click();
    // The table is built when its <details> opens (a render later).
    await table.waitFor();
  }
  return table
    .locator("tbody tr")
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? "")),
    );
}

test("by keyboard and URL: charts, tables and CSV match the API; aging dots open tickets; live", async () => {
  const { page, context, errors } = await openPage(`${api.url}/boards/${boardId}`);
  await page.locator(".card").first().waitFor();
  const answered = nextAnswer(page);
  await page.locator("body").press("i");
  const insights = await answered;
  assert.equal(new URL(page.url()).pathname, `/boards/${boardId}/insights`);
  await page.locator(".insights[data-drawn]").waitFor();
  // Four uPlot charts drew on their canvases.
  assert.equal(await page.locator(".insights-chart canvas").count(), 4);

  // Tables: every count as the API answered it.
  const flow = await tableRows(page, "cumulative-flow");
  assert.equal(flow.length, 30);
  assert.deepEqual(
    flow.map((row) => row.slice(1).map(Number)),
    insights.flow.map((bucket) => bucket.lanes.map((lane) => lane.count)),
  );
  const throughput = await tableRows(page, "throughput");
  assert.deepEqual(
    throughput.map((row) => Number(row[1])),
    insights.throughput.map((bucket) => bucket.resolved),
  );
  const resolved = insights.throughput.reduce((sum, bucket) => sum + bucket.resolved, 0);
  assert.ok(resolved > 10, `the seeded history resolves tickets (${resolved})`);
  assert.equal(
    await page.locator('[data-figure="resolved"] .insights-figure-value').textContent(),
    String(resolved),
  );
  const aging = await tableRows(page, "aging");
  assert.deepEqual(
    aging.map((row) => row[0]?.split(" ")[0]),
    insights.aging.map((entry) => refOf(entry.ticketId)),
  );
  assert.ok(insights.actors.length > 0);
  assert.deepEqual(
    await tableRows(page, "actors"),
    insights.actors.map((actor) => [actor.actor, String(actor.claimed), String(actor.resolved)]),
  );
  // With every table open: no serious accessibility violation (axe, WCAG 2 A and AA).
  await tableRows(page, "cycle-time");
  assert.deepEqual(await seriousViolations(page), []);

  // The CSV file carries the same rows, with raw values.
  const downloading = page.waitForEvent("download");
  await page.locator('[data-csv="throughput"]').click();
  const download = await downloading;
  assert.equal(download.suggestedFilename(), "throughput.csv");
  const csv = readFileSync(await download.path(), "utf8")
    .trim()
    .split("\r\n");
  assert.equal(csv[0], "bucket start,resolved");
  assert.deepEqual(
    csv.slice(1),
    insights.throughput.map((bucket) => `${bucket.at},${bucket.resolved}`),
  );

  // An aging ticket opens from its table row, and from its dot on the chart; the view stays
  // behind the dialog and comes back when it closes.
  const oldest = insights.aging[0]?.ticketId as number;
  await page.locator('table[data-table="aging"] tbody tr').first().locator("button").click();
  await page.waitForURL(`**/tickets/${oldest}`);
  await page.getByRole("dialog").waitFor();
  assert.ok(await page.locator(".insights").isVisible());
  await page.keyboard.press("Escape");
  await page.waitForURL(`**/boards/${boardId}/insights`);
  const plot = page.locator('.insights-chart[aria-label^="Aging"] .u-over');
  const box = await plot.boundingBox();
  assert.ok(box);
  await page.mouse.move(box.x + 4, box.y + box.height / 2);
  await page.mouse.click(box.x + 4, box.y + box.height / 2);
  await page.waitForURL(`**/tickets/${oldest}`);
  await page.keyboard.press("Escape");
  await page.waitForURL(`**/boards/${boardId}/insights`);

  // Live: a ticket resolved elsewhere shows in the figures without a reload.
  const created = await api.post(`/api/boards/${boardId}/tickets`, {
    laneId: lanes[0]?.id,
    title: "Resolved while watching",
  });
  await api.patch(`/api/tickets/${created.body.id}`, { isResolved: true });
  await until(
    () => page.locator('[data-figure="resolved"] .insights-figure-value').textContent(),
    (text) => text === String(resolved + 1),
    "the resolved figure after a live resolution",
  );

  // The period picker: 7 daily buckets, kept in the URL.
  const weekly = nextAnswer(page);
  await page.getByLabel("Period").selectOption("7d");
  assert.equal((await weekly).flow.length, 7);
  assert.equal(new URL(page.url()).searchParams.get("period"), "7d");
  await until(
    async () => (await tableRows(page, "cumulative-flow")).length,
    (rows) => rows === 7,
    "flow rows for 7 days",
  );

  // `i` again: back to the board.
  await page.locator("body").press("i");
  await page.waitForURL(`**/boards/${boardId}`);
  await page.locator(".card").first().waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("at 390 px in dark the view fits the width, no sideways scrolling; axe finds nothing serious", async () => {
  const { page, context, errors } = await openPage(`${api.url}/boards/${boardId}/insights`, {
    width: 390,
    height: 844,
    hasTouch: true,
    colorScheme: "dark",
  });
  await page.locator(".insights[data-drawn]").waitFor();
  assert.equal(await page.locator(".insights-chart canvas").count(), 4);
  const widths = await page.evaluate(() => {
    const body = document.querySelector(".insights-body") as HTMLElement;
    return {
      page: document.documentElement.scrollWidth,
      body: body.scrollWidth - body.clientWidth,
      charts: [...document.querySelectorAll(".insights-chart canvas")].map(
        (canvas) => canvas.getBoundingClientRect().right,
      ),
    };
  });
  assert.ok(widths.page <= 390, `page ${widths.page} px wide`);
  assert.equal(widths.body, 0);
  for (const right of widths.charts) assert.ok(right <= 390, `a chart ends at ${right} px`);
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});
