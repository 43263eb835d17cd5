import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { credentialsEnv, TOKENS } from "../api/remote-fixtures.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github.js";
import { startTestServer } from "../helpers/server.js";
import { everyLaneLoaded, openPage, until } from "./browser.js";
import { seedDemoBoard } from "./seed.js";

// The ticket dialog in a real browser: Markdown body editing, live changes from the API while
// it is open (never overwriting a draft), and remote import against a fake GitHub.

const gh: FakeGitHub = await startFakeGitHub({ token: TOKENS.github });
after(() => gh.close());
const api = await startTestServer({
  env: credentialsEnv({ [`github:${gh.instanceUrl}`]: TOKENS.github }),
});
const seeded = await seedDemoBoard(api, "Dialog");
const ticketId = seeded.epicId;

describe("body", () => {
  test("write Markdown, preview it exactly as the server will store it, save with Ctrl+Enter", async () => {
    const { page, context, errors } = await openPage(`${api.url}/tickets/${ticketId}`);
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("tab", { name: "Write" }).click();
    const body = dialog.getByRole("textbox", { name: "Body (Markdown)" });
    const markdown =
      "# Plan\n\nSome **bold** and `code`.\n\n- [ ] one\n- [x] two\n\n| a | b |\n|--:|---|\n| 1 | 2 |\n\n<script>alert(1)</script>\n";
    await body.fill(markdown);
    // Ctrl+B wraps the selection.
    await body.press("End");
    await body.type("x");
    await body.press("Shift+ArrowLeft");
    await body.press("Control+b");
    await dialog.getByRole("tab", { name: "Preview" }).click();
    const preview = dialog.locator(".body-preview");
    await preview.locator("h1", { hasText: "Plan" }).waitFor();
    // The UI labels task checkboxes for screen readers, and a saved body's boxes tick (enabled,
    // through the checklist endpoint); compare without the labels and the disabled flag.
    const unlabelled = (html: string) =>
      html
        .replace(/ aria-label="(done|to do|Checklist item \d+)"/g, "")
        .replace(/ disabled=""/g, "");
    const previewHtml = unlabelled(await preview.innerHTML());
    assert.match(previewHtml, /<strong>bold<\/strong>/);
    // Raw HTML is sanitized: no script element reaches the page.
    assert.doesNotMatch(previewHtml, /<script/);
    // Saved with Ctrl/Cmd+Enter from the editor.
    await dialog.getByRole("tab", { name: "Write" }).click();
    await body.press("Control+Enter");
    const saved = await until(
      async () => (await api.get(`/api/tickets/${ticketId}`)).body,
      (ticket) => ticket.bodyMarkdown === `${markdown}**x**`,
      "body saved",
    );
    // The preview was exactly the HTML the server stored (both as the DOM serializes them).
    const serverHtml = unlabelled(
      await page.evaluate((html) => {
        const element = document.createElement("div");
        element.innerHTML = html;
        return element.innerHTML;
      }, saved.bodyHtml as string),
    );
    assert.equal(previewHtml, serverHtml);
    await dialog.getByRole("tab", { name: "Preview" }).click();
    await until(
      async () => unlabelled(await preview.innerHTML()),
      (html) => html === serverHtml,
      "server HTML shown",
    );
    // The draft is gone once the server confirmed it.
    assert.equal(
      await page.evaluate((id) => localStorage.getItem(`tack.draft.${id}`), ticketId),
      null,
    );
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("an unsaved draft survives a reload, and closing with it asks first", async () => {
    const { page, context } = await openPage(`${api.url}/tickets/${ticketId}`);
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("tab", { name: "Write" }).click();
    await dialog
      .getByRole("textbox", { name: "Body (Markdown)" })
      .fill("draft text that must not be lost");
    await page.reload();
    await dialog.getByText("Restored your unsaved draft").waitFor();
    await dialog.getByRole("tab", { name: "Write" }).click();
    assert.equal(
      await dialog.getByRole("textbox", { name: "Body (Markdown)" }).inputValue(),
      "draft text that must not be lost",
    );
    // Escape asks; dismissing keeps the dialog and the text.
    let asked = "";
    page.once("dialog", (question) => {
      asked = question.message();
      void question.dismiss();
    });
    await page.keyboard.press("Escape");
    await until(
      async () => asked,
      (message) => message !== "",
      "asked before closing",
    );
    assert.match(asked, /unsaved text/);
    assert.equal(await page.getByRole("dialog").count(), 1);
    page.once("dialog", (question) => void question.accept());
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await context.close();
  });
});

describe("live", () => {
  test("a change made through the API appears in the open dialog and on the board", async () => {
    const { page, context, errors } = await openPage(`${api.url}/tickets/${ticketId}`);
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { level: 2 }).waitFor();
    await api.patch(`/api/tickets/${ticketId}`, { title: "Renamed by an agent", priority: 4 });
    await dialog.getByRole("heading", { name: "Renamed by an agent" }).waitFor();
    assert.equal(await dialog.getByRole("combobox", { name: "Priority" }).inputValue(), "4");
    await page
      .locator(`#card-${ticketId}`, { hasText: "Renamed by an agent" })
      .waitFor({ state: "attached" });
    // A new ticket from an agent shows up on the board behind the dialog.
    const created = (
      await api.post(`/api/boards/${seeded.boardId}/tickets`, {
        laneId: seeded.lanes[0]?.id,
        title: "From an agent",
      })
    ).body;
    await page.locator(`#card-${created.id}`).waitFor({ state: "attached" });
    await everyLaneLoaded(page);
    // An agent's event on the open ticket reaches its timeline, and a new lane the board, with
    // no refetch of the board's whole list: those messages name the ticket, or no ticket.
    const lists: string[] = [];
    page.on("request", (request) => {
      if (/\/api\/boards\/\d+\/tickets/.test(request.url())) lists.push(request.url());
    });
    await api.post(`/api/tickets/${ticketId}/events`, {
      source: "ci",
      kind: "check",
      title: "Build 7 passed",
    });
    await dialog.getByText("ci: Build 7 passed").waitFor();
    await api.post(`/api/boards/${seeded.boardId}/lanes`, { name: "Agents' lane" });
    await page.getByText("Agents' lane").first().waitFor({ state: "attached" });
    assert.deepEqual(lists, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("a burst naming 51-100 tickets updates the board 50 tickets at a time; more than 100, by the whole list", async () => {
    // 24 lanes of 55 (none long enough to be drawn lazily) and an empty one: 1,320 tickets, so
    // the answers of 60 and of 108 named tickets weigh less than the list (ui/src/refetch-cost.ts,
    // wholeListIsCheaper): only the count decides the second burst.
    const lanes = Array.from({ length: 25 }, (_, index) => ({
      id: index + 1,
      name: index === 24 ? "Landing" : `lane ${index + 1}`,
    }));
    const tickets = Array.from({ length: 24 * 55 }, (_, index) => ({
      id: index + 1,
      laneId: (index % 24) + 1,
      title: `busy ${index + 1}`,
    }));
    const imported = (
      await api.post("/api/boards/import", { board: { name: "Busy" }, lanes, tickets })
    ).body;
    const { page, context, errors } = await openPage(`${api.url}/boards/${imported.board.id}`);
    const landing = imported.lanes.find((lane: { name: string }) => lane.name === "Landing");
    // The last five tickets of twelve lanes: moving them renumbers no other ticket.
    const byLane = new Map<number, number[]>();
    for (const ticket of imported.tickets as { id: number; laneId: number }[])
      byLane.set(ticket.laneId, [...(byLane.get(ticket.laneId) ?? []), ticket.id]);
    const moved = [...byLane.values()].slice(0, 12).flatMap((ids) => ids.slice(-5));
    await page.locator(`#card-${moved[0]}`).waitFor({ state: "attached" });
    await everyLaneLoaded(page);
    const lists: string[] = [];
    const ticketReads: string[] = [];
    page.on("request", (request) => {
      if (/\/api\/boards\/\d+\/tickets/.test(request.url())) lists.push(request.url());
      if (/\/api\/tickets\/\d+$/.test(request.url())) ticketReads.push(request.url());
    });
    const bulk = await api.post(`/api/boards/${imported.board.id}/tickets/bulk-transition`, {
      ticketIds: moved,
      laneName: "Landing",
    });
    assert.equal(bulk.status, 200);
    await until(
      () =>
        page
          .locator(`[data-lane-id="${landing.id}"] [data-ticket-id]`)
          .evaluateAll((cards) => cards.length),
      (count) => count === moved.length,
      "the 60 moved cards in Landing",
    );
    assert.deepEqual(lists, []);
    assert.ok(ticketReads.length >= moved.length, `${ticketReads.length} ticket reads`);
    // The last nine tickets of the other twelve lanes: 108 named, past two pages.
    const many = [...byLane.values()].slice(12, 24).flatMap((ids) => ids.slice(-9));
    const manyBulk = await api.post(`/api/boards/${imported.board.id}/tickets/bulk-transition`, {
      ticketIds: many,
      laneName: "Landing",
    });
    assert.equal(manyBulk.status, 200);
    // Landing now draws only the cards near the visible part: its count says what it holds.
    await until(
      () => page.locator(`[data-lane-id="${landing.id}"] .lane-count`).first().textContent(),
      (count) => count === String(moved.length + many.length),
      "168 cards in Landing",
    );
    assert.equal(lists.length, 1, lists.join(", "));
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("when the open ticket's body changes elsewhere, the draft is kept and the change is shown", async () => {
    const { page, context } = await openPage(`${api.url}/tickets/${ticketId}`);
    const dialog = page.getByRole("dialog");
    // Without a draft, a change elsewhere (a new version) is only announced.
    await dialog.getByRole("tab", { name: "Write" }).waitFor();
    const changed = (await api.patch(`/api/tickets/${ticketId}`, { priority: 2 })).body;
    await page.getByText(`${changed.shortRef} was updated elsewhere.`).waitFor();
    await dialog.getByRole("tab", { name: "Write" }).click();
    const body = dialog.getByRole("textbox", { name: "Body (Markdown)" });
    await body.fill("my careful edit");
    await api.patch(`/api/tickets/${ticketId}`, { bodyMarkdown: "their edit" });
    await dialog.getByText("This ticket changed elsewhere").waitFor();
    assert.equal(await body.inputValue(), "my careful edit");
    await dialog.getByText("What changed").click();
    await dialog.locator(".diff-add", { hasText: "their edit" }).waitFor();
    // Saving mine over theirs is an explicit choice.
    await dialog.getByRole("button", { name: "Save mine over theirs" }).click();
    await until(
      async () => (await api.get(`/api/tickets/${ticketId}`)).body.bodyMarkdown,
      (text) => text === "my careful edit",
      "mine saved",
    );
    await context.close();
  });
});

describe("remote import", () => {
  test("preview, import, and 'already imported' with a link", async () => {
    gh.addIssue({
      owner: "octo",
      repo: "hello",
      number: 7,
      title: "Printer on fire",
      body: "Steps: **smoke**",
    });
    const { page, context } = await openPage(`${api.url}/boards/${seeded.boardId}`);
    await page.getByRole("button", { name: "Import issue" }).click();
    const dialog = page.getByRole("dialog", { name: "Import a remote issue" });
    await dialog
      .getByRole("textbox", { name: "Issue URL" })
      .fill(`${gh.instanceUrl}/octo/hello/issues/7`);
    await dialog.getByRole("button", { name: "Preview" }).click();
    await dialog.getByText("Printer on fire").waitFor();
    await dialog.getByText("octo/hello#7").waitFor();
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    // The new ticket opens; its title is read-only and says why.
    const ticket = page.getByRole("dialog", { name: /Printer on fire/ });
    await ticket.getByText(/Title is read-only: it is copied from octo\/hello#7/).waitFor();
    await ticket.getByRole("tab", { name: "Remote" }).click();
    await ticket.locator("strong", { hasText: "smoke" }).waitFor();
    await page.keyboard.press("Escape");
    await ticket.waitFor({ state: "detached" });

    // Importing it again is refused before anything is created.
    await page.getByRole("button", { name: "Import issue" }).click();
    await dialog
      .getByRole("textbox", { name: "Issue URL" })
      .fill(`${gh.instanceUrl}/octo/hello/issues/7`);
    await dialog.getByRole("button", { name: "Preview" }).click();
    await dialog.getByText(/Already imported as/).waitFor();
    assert.equal(
      await dialog.getByRole("button", { name: "Import", exact: true }).isDisabled(),
      true,
    );
    // Errors show inline.
    await dialog
      .getByRole("textbox", { name: "Issue URL" })
      .fill(`${gh.instanceUrl}/octo/hello/issues/404`);
    await dialog.getByRole("button", { name: "Preview" }).click();
    await dialog.getByRole("alert").waitFor();
    await context.close();
  });
});

describe("external references", () => {
  test("add one from a pasted issue URL with the keyboard, see its badge, remove it", async () => {
    const { page, context, errors } = await openPage(`${api.url}/tickets/${ticketId}`);
    const dialog = page.getByRole("dialog");
    const form = dialog.getByRole("form", { name: "Add reference" });
    const url = form.getByRole("textbox", { name: "Issue URL" });
    const provider = form.getByRole("combobox", { name: "Provider" });

    // A Redmine URL is not recognisable by itself: the provider choice decides how it is read.
    await url.fill("https://tracker.example.com/redmine/issues/5");
    await form.getByText("Not a github issue URL").waitFor();
    await provider.selectOption("redmine");
    assert.equal(
      await form.getByRole("textbox", { name: "Instance URL" }).inputValue(),
      "https://tracker.example.com/redmine",
    );
    assert.equal(await form.getByRole("textbox", { name: "Shown as" }).inputValue(), "Redmine #5");

    // A GitLab URL picks its provider; a nested group stays in the project key.
    await url.fill("https://gitlab.example.com/group/sub/project/-/issues/12#note_1");
    assert.equal(await provider.inputValue(), "gitlab");
    await form.getByText("Fields: group/sub/project#12").waitFor();
    // The server's message shows inline and nothing is written.
    const kind = form.getByRole("combobox", { name: "Kind" });
    await kind.fill("spec");
    await form.getByRole("textbox", { name: "Title (optional)" }).fill("x".repeat(10));
    await form.getByRole("textbox", { name: "Project" }).fill("p".repeat(2001));
    await kind.press("Enter");
    await form.getByRole("alert").getByText("projectKey must be at most 2000 characters").waitFor();
    await form.getByRole("textbox", { name: "Project" }).fill("group/sub/project");
    await kind.press("Enter");

    const card = page.locator(`#card-${ticketId} .badge-ref`, { hasText: "group/sub/project#12" });
    await card.waitFor({ state: "attached" });
    const link = dialog.getByRole("link", { name: "↗ group/sub/project#12" });
    await link.waitFor();
    assert.equal(
      await link.getAttribute("href"),
      "https://gitlab.example.com/group/sub/project/-/issues/12",
    );
    const stored = (await api.get(`/api/tickets/${ticketId}`)).body.externalReferences;
    assert.deepEqual(
      stored.map((r: Record<string, unknown>) => [r.kind, r.provider, r.instanceUrl, r.issueKey]),
      [["spec", "gitlab", "https://gitlab.example.com", "12"]],
    );
    // The form is empty again, ready for the next one.
    assert.equal(await url.inputValue(), "");

    await dialog.getByRole("button", { name: "Remove reference spec" }).click();
    await card.waitFor({ state: "detached" });
    await link.waitFor({ state: "detached" });
    assert.deepEqual((await api.get(`/api/tickets/${ticketId}`)).body.externalReferences, []);
    // The only console error is the browser logging the refused write above.
    assert.deepEqual(errors, [
      "Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ]);
    await context.close();
  });
});
