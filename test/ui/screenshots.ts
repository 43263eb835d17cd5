// `npm run screenshots`: the README's screenshots (docs/screenshots/), from a demo board on a
// temporary database, in Debian's Chromium: desktop light and dark, phone, list, ticket dialog,
// trash, lane WIP limits, insights, the inbox, the template form. `npm run screenshots -- wip`
// makes only those whose name starts so.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startTestServer } from "../helpers/server.js";
import { everyLaneLoaded, openPage, type PageOptions } from "./browser.js";
import { seedFlowHistory } from "./flow-seed.js";
import { seedDemoBoard } from "./seed.js";

const folder = fileURLToPath(new URL("../../docs/screenshots/", import.meta.url));
mkdirSync(folder, { recursive: true });
const api = await startTestServer();
const { boardId, lanes } = await seedDemoBoard(api);
await api.post("/api/boards", { name: "Personal" });
await api.post("/api/boards", { name: "Release 0.2" });
const detailed = 6;
await api.post(`/api/tickets/${detailed}/comments`, {
  bodyMarkdown: "Measured: 5,000 cards scroll at 60 fps once lanes are windowed.",
});
await api.post(`/api/tickets/${detailed}/events`, {
  source: "agent",
  kind: "run",
  title: "benchmark finished",
  summary: "p50 first card 0.4 s",
});
const only = process.argv[2] ?? "";
const wanted = (name: string) => name.startsWith(only);

const shots: [string, PageOptions, string][] = [
  ["board-light", { width: 1440, height: 900 }, `/boards/${boardId}`],
  ["board-dark", { width: 1440, height: 900, colorScheme: "dark" }, `/boards/${boardId}`],
  ["list-light", { width: 1440, height: 900 }, `/boards/${boardId}/list`],
  ["ticket-light", { width: 1440, height: 900 }, `/tickets/${detailed}`],
  ["ticket-dark", { width: 1440, height: 900, colorScheme: "dark" }, `/tickets/${detailed}`],
  ["phone", { width: 390, height: 844, hasTouch: true }, `/boards/${boardId}`],
  [
    "phone-dark",
    { width: 390, height: 844, hasTouch: true, colorScheme: "dark" },
    `/boards/${boardId}`,
  ],
  ["ticket-phone", { width: 390, height: 844, hasTouch: true }, `/tickets/${detailed}`],
  ["list-dark", { width: 1440, height: 900, colorScheme: "dark" }, `/boards/${boardId}/list`],
  ["list-phone", { width: 390, height: 844, hasTouch: true }, `/boards/${boardId}/list`],
  [
    "list-phone-dark",
    { width: 390, height: 844, hasTouch: true, colorScheme: "dark" },
    `/boards/${boardId}/list`,
  ],
  [
    "ticket-phone-dark",
    { width: 390, height: 844, hasTouch: true, colorScheme: "dark" },
    `/tickets/${detailed}`,
  ],
];
for (const [name, options, path] of shots.filter(([name]) => wanted(name))) {
  const { page, context } = await openPage(api.url + path, options);
  await page.locator(".card, .list-row[data-ticket-id], .ticket").first().waitFor();
  // Every lane shown whole (the ticket's shots show the board behind the dialog).
  await everyLaneLoaded(page);
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${folder}${name}.png` });
  await context.close();
  console.log(`docs/screenshots/${name}.png`);
}

// The inbox (a) with two agents' questions on two tickets, desktop light and phone dark, and the
// template form (the board's Templates) with a two-ticket template that has a variable.
const [askedFirst, askedSecond] = (await api.get(`/api/boards/${boardId}/tickets`)).body
  .tickets as { id: number }[];
await api.post(`/api/tickets/${(askedFirst as { id: number }).id}/asks`, {
  actor: "claude-code",
  question:
    "Should the stream send **changed ticket ids** or whole tickets? Whole tickets cost ~12x the bytes.",
  options: ["Ids only", "Whole tickets"],
});
await api.post(`/api/tickets/${(askedSecond as { id: number }).id}/asks`, {
  actor: "codex",
  question:
    "The migration drops `legacy_rank`. Is a backup before upgrading enough, or do you want a down migration?",
});
await api.post(`/api/boards/${boardId}/templates`, {
  name: "Release",
  description: "Cut, check and announce a release.",
  tickets: [
    { key: "cut", title: "Release {{version}}", laneName: "Doing", priority: 3, tagNames: ["api"] },
    {
      key: "notes",
      title: "Release notes for {{version}}",
      bodyMarkdown: "- [ ] changelog\n- [ ] upgrade steps",
      parentKey: "cut",
    },
  ],
});
const inboxShots: [string, PageOptions][] = [
  ["inbox-light", { width: 1280, height: 800 }],
  ["inbox-dark-phone", { width: 390, height: 844, hasTouch: true, colorScheme: "dark" }],
];
for (const [name, options] of inboxShots.filter(([name]) => wanted(name))) {
  const { page, context } = await openPage(`${api.url}/inbox`, options);
  await page.locator(".ask").first().waitFor();
  // The tickets' titles come a moment after the asks.
  await page.waitForFunction(() =>
    [...document.querySelectorAll(".ask-ticket")].every(
      (link) => (link.textContent ?? "").trim().length > 4,
    ),
  );
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${folder}${name}.png` });
  await context.close();
  console.log(`docs/screenshots/${name}.png`);
}
if (wanted("template-form-light")) {
  const { page, context } = await openPage(`${api.url}/boards/${boardId}`, {
    width: 1280,
    height: 800,
  });
  await page.getByRole("button", { name: "▦ Templates" }).click();
  await page.getByRole("button", { name: "Edit template Release" }).click();
  await page.getByRole("group", { name: "Ticket 2" }).waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${folder}template-form-light.png` });
  await context.close();
  console.log("docs/screenshots/template-form-light.png");
}

// Lane WIP limits: Backlog at its limit, Doing over it, Review without one. The lane headers on a
// desktop and the lane tabs on a phone, light and dark, clipped to where the figures are.
const loadOf = async (laneId: number) =>
  (
    (await api.get(`/api/boards/${boardId}/tickets`)).body.tickets as Array<{
      laneId: number;
      isResolved: boolean;
      isArchived: boolean;
    }>
  ).filter((ticket) => ticket.laneId === laneId && !ticket.isResolved && !ticket.isArchived).length;
const backlog = lanes[0] as { id: number };
const doing = lanes[1] as { id: number };
await api.patch(`/api/lanes/${backlog.id}`, { wipLimit: await loadOf(backlog.id) });
await api.patch(`/api/lanes/${doing.id}`, { wipLimit: (await loadOf(doing.id)) - 1 });
const wipShots: [string, PageOptions, { width: number; height: number }][] = [
  ["wip-light", { width: 1440, height: 900 }, { width: 1200, height: 220 }],
  ["wip-dark", { width: 1440, height: 900, colorScheme: "dark" }, { width: 1200, height: 220 }],
  ["wip-phone", { width: 390, height: 844, hasTouch: true }, { width: 390, height: 300 }],
  [
    "wip-phone-dark",
    { width: 390, height: 844, hasTouch: true, colorScheme: "dark" },
    { width: 390, height: 300 },
  ],
];
for (const [name, options, size] of wipShots.filter(([name]) => wanted(name))) {
  const { page, context } = await openPage(`${api.url}/boards/${boardId}`, options);
  await everyLaneLoaded(page);
  await page.waitForTimeout(300);
  const board = await page.locator(".kanban").boundingBox();
  if (!board) throw new Error("no board on the page");
  const x = options.hasTouch ? 0 : board.x;
  const y = options.hasTouch ? 0 : board.y;
  await page.screenshot({ path: `${folder}${name}.png`, clip: { x, y, ...size } });
  await context.close();
  console.log(`docs/screenshots/${name}.png`);
}
await api.patch(`/api/lanes/${backlog.id}`, { wipLimit: null });
await api.patch(`/api/lanes/${doing.id}`, { wipLimit: null });

// The Trash view (Shift+T) with a few deleted things, desktop and phone, light and dark.
const trashed = (await api.get(`/api/boards/${boardId}/tickets`)).body.tickets.slice(-2);
for (const ticket of trashed) await api.delete(`/api/tickets/${ticket.id}`);
await api.delete(`/api/boards/${(await api.get("/api/boards")).body.boards.at(-1).id}`);
const trashShots: [string, PageOptions][] = [
  ["trash-light", { width: 1440, height: 900 }],
  ["trash-dark", { width: 1440, height: 900, colorScheme: "dark" }],
  ["trash-phone", { width: 390, height: 844, hasTouch: true }],
  ["trash-phone-dark", { width: 390, height: 844, hasTouch: true, colorScheme: "dark" }],
];
for (const [name, options] of trashShots.filter(([name]) => wanted(name))) {
  const { page, context } = await openPage(`${api.url}/boards/${boardId}`, options);
  await everyLaneLoaded(page);
  await page.locator("body").press("Shift+T");
  await page.getByRole("button", { name: "All boards" }).click();
  await page.locator(".trash-item").first().waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${folder}${name}.png` });
  await context.close();
  console.log(`docs/screenshots/${name}.png`);
}

// The Insights view (i) after three weeks of recorded flow on the demo board, desktop and phone,
// light and dark.
await seedFlowHistory(
  api,
  boardId,
  lanes.map((lane) => lane.id),
);
const insightsShots: [string, PageOptions][] = [
  ["insights-light", { width: 1440, height: 1300 }],
  ["insights-dark", { width: 1440, height: 1300, colorScheme: "dark" }],
  ["insights-phone", { width: 390, height: 844, hasTouch: true }],
  ["insights-phone-dark", { width: 390, height: 844, hasTouch: true, colorScheme: "dark" }],
];
for (const [name, options] of insightsShots.filter(([name]) => wanted(name))) {
  const { page, context } = await openPage(`${api.url}/boards/${boardId}/insights`, options);
  await page.locator(".insights[data-drawn]").waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${folder}${name}.png` });
  await context.close();
  console.log(`docs/screenshots/${name}.png`);
}
process.exit(0);
