import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { seriousViolations } from "./axe.js";
import { everyLaneLoaded, openPage, type PageOptions } from "./browser.js";
import { seedDemoBoard } from "./seed.js";

// An axe-core scan of each view finds no serious or critical violation (WCAG 2 A and AA rules),
// in light and dark. axe is evaluated through the DevTools protocol, which the page's CSP allows.

const api = await startTestServer();
const seeded = await seedDemoBoard(api, "Accessible");
// WIP limits: Backlog at its limit, Doing over it, so the scans include the marked badges (in the
// lane headers and the phone's lane tabs, the selected one included).
for (const [index, excess] of [
  [0, 0],
  [1, 1],
] as const) {
  const lane = seeded.lanes[index] as { id: number };
  const open = (await api.get(`/api/boards/${seeded.boardId}/tickets`)).body.tickets.filter(
    (ticket: { laneId: number; isResolved: boolean; isArchived: boolean }) =>
      ticket.laneId === lane.id && !ticket.isResolved && !ticket.isArchived,
  ).length;
  await api.patch(`/api/lanes/${lane.id}`, { wipLimit: open - excess });
}

// An open ask with options, so the inbox, the cards' question badge and the dialog's questions are
// scanned with their buttons and answer fields.
await api.post(`/api/tickets/${seeded.epicId}/asks`, {
  actor: "agent-3",
  question: "Split this epic **before** the release?",
  options: ["Split it", "Keep it whole"],
});

const views: [string, string, PageOptions][] = [
  ["board", `/boards/${seeded.boardId}`, {}],
  ["board, dark", `/boards/${seeded.boardId}`, { colorScheme: "dark" }],
  ["list, dark", `/boards/${seeded.boardId}/list`, { colorScheme: "dark" }],
  ["ticket dialog, dark", `/tickets/${seeded.epicId + 5}`, { colorScheme: "dark" }],
  ["phone, light", `/boards/${seeded.boardId}`, { width: 390, height: 844, hasTouch: true }],
  ["inbox", "/inbox", {}],
  ["inbox, dark phone", "/inbox", { width: 390, height: 844, hasTouch: true, colorScheme: "dark" }],
  ["ticket dialog with its question", `/tickets/${seeded.epicId}#asks`, {}],
];

describe("axe scan", () => {
  for (const [name, path, options] of views) {
    test(`${name}: no serious violation`, async () => {
      const { page, context } = await openPage(api.url + path, options);
      await page.locator(".card, .list-row[data-ticket-id], .ticket-title, .ask").first().waitFor();
      // The board, behind a ticket's dialog too, is scanned whole (a lane's WIP badge shows
      // once its list is in).
      if (!path.startsWith("/inbox")) await everyLaneLoaded(page);
      if (path.endsWith("#asks")) await page.locator(".ticket-asks .ask").waitFor();
      await page.waitForTimeout(200);
      assert.deepEqual(await seriousViolations(page), []);
      await context.close();
    });
  }
});
