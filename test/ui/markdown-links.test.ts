import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { openPage } from "./browser.js";

// In-page links of rendered Markdown in the ticket dialog, in a real browser: the server gives
// each heading GitHub's `user-content-<slug>` id and keeps `#slug` links in the page; the UI
// (ui/src/markdown-html.ts, followInPageLink) resolves `#slug` as GitHub's page does and scrolls
// the heading into view, in the body and from a comment, while other links open a new tab.

const api = await startTestServer();
const board = (await api.post("/api/boards", { name: "Links", laneNames: ["Todo"] })).body;
const filler = Array.from({ length: 60 }, (_, index) => `Paragraph ${index} of the plan.`).join(
  "\n\n",
);
const ticket = (
  await api.post(`/api/boards/${board.board.id}/tickets`, {
    laneId: board.lanes[0].id,
    title: "A long plan",
    bodyMarkdown: `[jump](#hello-world) and [out](https://example.com/docs#hello-world)\n\n${filler}\n\n## Hello World\n\nThe end.`,
  })
).body as { id: number };
await api.post(`/api/tickets/${ticket.id}/comments`, {
  bodyMarkdown: "See [the end of the plan](#hello-world).",
});

/** Whether the heading's top is inside the dialog's visible area. */
const headingShown = `(() => {
  const heading = document.getElementById("user-content-hello-world");
  const top = heading.getBoundingClientRect().top;
  return top >= 0 && top < window.innerHeight;
})()`;

test("a #slug link scrolls to its heading in the dialog; the URL stays, nothing opens", async () => {
  const { page, context, errors } = await openPage(`${api.url}/tickets/${ticket.id}`);
  const dialog = page.locator(".ticket-dialog");
  await dialog.getByRole("tab", { name: "Preview" }).click();
  const body = dialog.locator(".body-preview");
  const heading = body.locator("h2#user-content-hello-world");
  await heading.waitFor();
  assert.equal(await page.evaluate(headingShown), false, "the heading starts out of view");
  const url = page.url();
  let opened = 0;
  context.on("page", () => opened++);

  await body.getByRole("link", { name: "jump" }).click();
  await page.waitForFunction(headingShown);
  assert.equal(page.url(), url);
  assert.equal(
    await page.evaluate(() => document.activeElement?.id),
    "user-content-hello-world",
    "the heading has the focus",
  );
  // A link elsewhere keeps opening a new tab (not followed here: the machine has no network).
  const out = body.getByRole("link", { name: "out" });
  assert.equal(await out.getAttribute("target"), "_blank");
  assert.equal(await out.getAttribute("rel"), "noopener noreferrer");
  assert.equal(await body.getByRole("link", { name: "jump" }).getAttribute("target"), null);

  // From a comment, the link leads to the body's heading.
  await page.evaluate(() => {
    for (const element of document.querySelectorAll(".ticket-dialog *")) element.scrollTop = 0;
  });
  assert.equal(await page.evaluate(headingShown), false, "scrolled back up");
  const comment = dialog.locator(".markdown", { hasText: "See the end of the plan" });
  await comment.getByRole("link", { name: "the end of the plan" }).click();
  await page.waitForFunction(headingShown);
  assert.equal(page.url(), url);
  assert.equal(opened, 0, "no tab opened");
  assert.deepEqual(errors, []);
  await context.close();
});

test.after(() => api.close());
