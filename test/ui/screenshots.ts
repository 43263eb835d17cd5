// `npm run screenshots`: the README's screenshots (docs/screenshots/), from a demo board on a
// temporary database, in Debian's Chromium: desktop light and dark, phone, list, ticket dialog.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startTestServer } from "../helpers/server.js";
import { openPage, type PageOptions } from "./browser.js";
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
void lanes;

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
for (const [name, options, path] of shots) {
  const { page, context } = await openPage(api.url + path, options);
  await page.locator(".card, .list-row[data-ticket-id], .ticket").first().waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${folder}${name}.png` });
  await context.close();
  console.log(`docs/screenshots/${name}.png`);
}

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
for (const [name, options] of trashShots) {
  const { page, context } = await openPage(`${api.url}/boards/${boardId}`, options);
  await page.locator(".card, .list-row[data-ticket-id]").first().waitFor();
  await page.locator("body").press("Shift+T");
  await page.getByRole("button", { name: "All boards" }).click();
  await page.locator(".trash-item").first().waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${folder}${name}.png` });
  await context.close();
  console.log(`docs/screenshots/${name}.png`);
}
process.exit(0);
