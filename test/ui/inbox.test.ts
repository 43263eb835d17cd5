import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { openPage, until } from "./browser.js";
import { seedDemoBoard } from "./seed.js";

// The inbox (/inbox) in Chromium: every open ask of every board, answered by an option's button
// or in words, the title's "(N)" on every page, and asks opened, answered or withdrawn elsewhere
// arriving and leaving without a reload (docs/api.md, "Asks"; ui/ARCHITECTURE.md, "The inbox").

const api = await startTestServer();
const product = await seedDemoBoard(api, "Product");
const other = (await api.post("/api/boards", { name: "Personal", laneNames: ["Todo", "Done"] }))
  .body;
const elsewhere = (
  await api.post(`/api/boards/${other.board.id}/tickets`, {
    laneId: other.lanes[0].id,
    title: "Pick a date for the dentist",
  })
).body;
const tickets = (await api.get(`/api/boards/${product.boardId}/tickets`)).body.tickets as {
  id: number;
  title: string;
  shortRef: string;
}[];
const asked = tickets[2] as { id: number; title: string; shortRef: string };

async function openAsk(ticketId: number, body: Record<string, unknown>) {
  const answer = await api.post(`/api/tickets/${ticketId}/asks`, { actor: "agent-7", ...body });
  assert.equal(answer.status, 201, answer.text);
  return answer.body as { id: number };
}
const LIVE = { timeout: 30_000 };

/** A stand-in Notification that records what the page shows, and a tab that the test hides. */
const NOTIFICATION_STAND_IN = `
  const state = { hidden: false, shown: [], asked: 0, permission: "default" };
  window.__test = state;
  Object.defineProperty(document, "visibilityState", {
    get: () => (state.hidden ? "hidden" : "visible"),
  });
  window.Notification = class {
    static get permission() { return state.permission; }
    static async requestPermission() {
      state.asked++;
      state.permission = "granted";
      return "granted";
    }
    constructor(title) { state.shown.push(title); }
  };
`;

test("an open ask shows in /inbox with its ticket, board, actor, question and age; an option's button answers it", async () => {
  const ask = await openAsk(asked.id, {
    question: "Ship **ids only** or whole tickets?",
    options: ["Ids only", "Whole tickets"],
  });
  const { page, context, errors } = await openPage(`${api.url}/inbox`);
  const item = page.locator(".ask").filter({ hasText: "Ship ids only or whole tickets?" });
  await item.waitFor();
  // The question is the server's rendering: the Markdown's bold is <strong>.
  assert.equal(await item.locator(".ask-question strong").textContent(), "ids only");
  await item.getByRole("link", { name: `${asked.shortRef} ${asked.title}` }).waitFor();
  await item.getByText("Product", { exact: true }).waitFor();
  await item.getByText("agent-7").waitFor();
  await item.getByText("just now").waitFor();
  assert.equal(await page.title(), "(1) tack");
  await page.getByRole("link", { name: /Inbox\s*1 open/ }).waitFor();

  // The ticket's link opens its dialog over the inbox; closing it comes back to the inbox.
  await item.getByRole("link", { name: `${asked.shortRef} ${asked.title}` }).click();
  await page.waitForURL(new RegExp(`/tickets/${asked.id}$`));
  await page.getByRole("dialog").locator(".ticket-asks").getByText("Ship").waitFor();
  await page.keyboard.press("Escape");
  await page.waitForURL(/\/inbox$/);

  await item.getByRole("button", { name: "Whole tickets" }).click();
  const answered = await until(
    async () => (await api.get(`/api/asks/${ask.id}`)).body,
    (body) => body.status === "answered",
    "answered",
  );
  assert.equal(answered.answer.option, "Whole tickets");
  assert.equal(answered.answer.by, "you");
  await page.getByText("Nothing to answer").waitFor();
  await until(
    () => page.title(),
    (title) => title === "tack",
    "the count left the title",
  );
  assert.deepEqual(errors, []);
  await context.close();
});

test("asks arrive and leave live, from every board; a free-text answer; the title counts on a board page", async () => {
  const { page, context, errors } = await openPage(`${api.url}/boards/${product.boardId}`);
  await page.locator(".card").first().waitFor();
  assert.equal(await page.title(), "tack");
  // Opened on another board than the one shown: the board's page counts it in its title.
  const first = await openAsk(elsewhere.id, { question: "Tuesday or Thursday?" });
  await until(
    () => page.title(),
    (title) => title === "(1) tack",
    "counted on the board page",
  );
  await page.locator("body").press("a");
  await page.waitForURL(/\/inbox$/);
  const firstItem = page.locator(".ask").filter({ hasText: "Tuesday or Thursday?" });
  await firstItem.getByText("Personal", { exact: true }).waitFor();

  // A new ask appears while the inbox is open, after the older one.
  const second = await openAsk(asked.id, {
    question: "Rename the lane to Review?",
    blocking: false,
  });
  const secondItem = page.locator(".ask").filter({ hasText: "Rename the lane to Review?" });
  await secondItem.waitFor(LIVE);
  const questions = await page.locator(".ask .ask-question").allTextContents();
  assert.deepEqual(
    questions.map((text) => text.trim()),
    ["Tuesday or Thursday?", "Rename the lane to Review?"],
  );
  assert.equal(await page.title(), "(2) tack");

  // Withdrawn by its agent: it leaves.
  assert.equal(
    (await api.post(`/api/asks/${second.id}/withdraw`, { actor: "agent-7" })).status,
    200,
  );
  await secondItem.waitFor({ state: "detached", ...LIVE });

  // Answered elsewhere (another tab, the CLI): it leaves too.
  const third = await openAsk(asked.id, { question: "Merge now?", options: ["Yes", "No"] });
  const thirdItem = page.locator(".ask").filter({ hasText: "Merge now?" });
  await thirdItem.waitFor(LIVE);
  await api.post(`/api/asks/${third.id}/answer`, { by: "someone", option: "No" });
  await thirdItem.waitFor({ state: "detached", ...LIVE });

  // Answered here in words, under the name chosen for the person.
  await page.getByRole("textbox", { name: "Answer as" }).fill("Dana");
  await page.getByRole("textbox", { name: "Answer as" }).press("Tab");
  await firstItem
    .getByRole("textbox", { name: "Answer agent-7 in your own words" })
    .fill("Thursday, after 3 pm");
  await firstItem.getByRole("button", { name: "Send answer" }).click();
  const answered = await until(
    async () => (await api.get(`/api/asks/${first.id}`)).body,
    (body) => body.status === "answered",
    "answered in words",
  );
  assert.deepEqual(
    { text: answered.answer.text, option: answered.answer.option, by: answered.answer.by },
    { text: "Thursday, after 3 pm", option: null, by: "Dana" },
  );
  await page.getByText("Nothing to answer").waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("notifications are off until turned on in the inbox; then a new ask is notified while the tab is hidden", async () => {
  const { page, context, errors } = await openPage(`${api.url}/inbox`, {
    // A stand-in Notification that records what the page shows, and a tab that the test hides.
    // A string, not a function: the test runner's transform would add helpers the page lacks.
    prepare: (context) => context.addInitScript({ content: NOTIFICATION_STAND_IN }),
  });
  const read = () =>
    page.evaluate(() => (window as any).__test as { shown: string[]; asked: number });
  await page.getByRole("button", { name: "Notify me of new questions" }).waitFor();
  await page.evaluate(() => ((window as any).__test.hidden = true));
  const open = (await api.get("/api/asks")).body.asks.length as number;
  await openAsk(asked.id, { question: "Unnoticed while off?" });
  await until(
    () => page.title(),
    (title) => title === `(${open + 1}) tack`,
    "counted while hidden",
  );
  const off = await read();
  assert.deepEqual([off.shown, off.asked], [[], 0]);

  await page.evaluate(() => {
    (window as any).__test.hidden = false;
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await page.getByRole("button", { name: "Notify me of new questions" }).click();
  await page.getByRole("button", { name: /Notifying/ }).waitFor();
  assert.equal((await read()).asked, 1);
  await page.evaluate(() => ((window as any).__test.hidden = true));
  await openAsk(asked.id, { question: "Noticed now?" });
  const seen = await until(read, (state) => state.shown.length > 0, "notified");
  assert.deepEqual(seen.shown, [`agent-7 asks (#${asked.id})`]);
  assert.deepEqual(errors, []);
  await context.close();
});
