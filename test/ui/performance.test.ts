import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { startTestServer } from "../helpers/server.js";
import { everyLaneLoaded, openPage } from "./browser.js";

// Time to first card on large boards, and to a lane switch on a phone. Reported, not asserted
// (timings depend on the machine); what is asserted is that long lanes are virtualized.

const api = await startTestServer();

async function importBoard(count: number): Promise<{ boardId: number; laneIds: number[] }> {
  const lanes = ["Backlog", "Doing", "Review", "Done"].map((name, index) => ({
    id: index + 1,
    name,
    position: index,
  }));
  const tags = [
    { id: 1, name: "bug", color: "#dc2626" },
    { id: 2, name: "ui", color: "#2563eb" },
  ];
  const tickets = Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    laneId: (index % 4) + 1,
    title: `Ticket ${index + 1}: ${index % 3 ? "make the board faster" : "fix the thing that broke on Tuesday"}`,
    priority: (index % 4) + 1,
    isResolved: index % 4 === 3 && index % 8 !== 3,
    tags: index % 5 === 0 ? [tags[0]] : index % 7 === 0 ? [tags[1]] : [],
    position: Math.floor(index / 4),
  }));
  const answer = await api.request("POST", "/api/boards/import", {
    board: { name: `Big ${count}` },
    lanes,
    tags,
    tickets,
  });
  assert.equal(answer.status, 201, answer.text.slice(0, 200));
  return {
    boardId: answer.body.board.id,
    laneIds: answer.body.lanes.map((lane: { id: number }) => lane.id),
  };
}

/** Records, in the page, when the first card appears (ms since navigation start). */
async function firstCardTime(page: Page): Promise<number> {
  await page.locator(".card").first().waitFor();
  return page.evaluate(() => (window as unknown as { __firstCard: number }).__firstCard);
}

const watchFirstCard = () => {
  new MutationObserver((_, observer) => {
    if (document.querySelector(".card")) {
      (window as unknown as { __firstCard: number }).__firstCard = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
};

describe("large boards", () => {
  test("warm-up: the browser has loaded the app once", async () => {
    const { page, context } = await openPage(`${api.url}/`);
    await page.getByRole("heading", { name: "Welcome to tack" }).waitFor();
    await context.close();
  });

  for (const count of [1000, 5000]) {
    test(`${count} tickets: time to first card and to a lane switch (reported)`, async () => {
      const { boardId, laneIds } = await importBoard(count);
      const { page, context, errors } = await openPage("about:blank", {
        prepare: (browserContext) => browserContext.addInitScript(watchFirstCard),
      });
      await page.goto(`${api.url}/boards/${boardId}`);
      const firstCard = await firstCardTime(page);
      // Long lanes mount only the cards near the visible part (counted once every lane is in).
      await everyLaneLoaded(page);
      const mounted = await page.locator(".card").count();
      assert.ok(mounted < count / 2, `${mounted} cards mounted of ${count}`);
      await context.close();

      const phone = await openPage("about:blank", { width: 390, height: 844, hasTouch: true });
      await phone.page.goto(`${api.url}/boards/${boardId}`);
      // The switch shows a lane already in, not one still arriving.
      await everyLaneLoaded(phone.page);
      const switchMs = await phone.page.evaluate(async (laneId) => {
        const tab = [...document.querySelectorAll<HTMLElement>("[role=tab]")][1];
        const start = performance.now();
        tab?.click();
        while (!document.querySelector(`[data-lane-id="${laneId}"] .card`)) {
          if (performance.now() - start > 30_000) throw new Error("the second lane's cards");
          await new Promise((resolve) => requestAnimationFrame(resolve));
        }
        await new Promise((resolve) => requestAnimationFrame(resolve));
        return performance.now() - start;
      }, laneIds[1] as number);
      console.log(
        `# ${count} tickets: first card ${firstCard.toFixed(0)} ms after navigation start; ` +
          `lane switch on a phone ${switchMs.toFixed(0)} ms; ${mounted} cards mounted`,
      );
      assert.deepEqual([...errors, ...phone.errors], []);
      await phone.context.close();
    });
  }
});
