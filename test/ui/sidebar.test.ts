import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import type { Locator } from "playwright-core";
import { startTestServer } from "../helpers/server.js";
import { everyLaneLoaded, openPage, until } from "./browser.js";
import { seedDemoBoard } from "./seed.js";

// The sidebar: boards (rename inline, reorder from the keyboard, delete with what goes), tags
// (rename, recolour, no colour), export and import.

const api = await startTestServer();
const first = await seedDemoBoard(api, "Alpha");
await api.post("/api/boards", { name: "Beta" });

const boardNames = async () =>
  ((await api.get("/api/boards")).body.boards as { name: string }[]).map((board) => board.name);

describe("sidebar", () => {
  test("boards: rename inline, reorder with Alt+↓, delete after a confirmation naming what goes", async () => {
    const { page, context, errors } = await openPage(`${api.url}/boards/${first.boardId}`);
    const link = page.getByRole("link", { name: "Alpha", exact: true });
    await link.focus();
    await page.keyboard.press("F2");
    const input = page.getByRole("textbox", { name: "Board name" });
    await input.fill("Alpha one");
    await input.press("Enter");
    await until(boardNames, (names) => names[0] === "Alpha one", "renamed");
    await page.getByRole("heading", { name: "Alpha one", level: 1 }).waitFor();

    await page.getByRole("link", { name: "Alpha one", exact: true }).focus();
    await page.keyboard.press("Alt+ArrowDown");
    await until(boardNames, (names) => names.join() === "Beta,Alpha one", "reordered");
    await until(
      () => page.locator(".board-link").allInnerTexts(),
      (names) => names.join() === "Beta,Alpha one",
      "reordered on the page",
    );

    await page.getByRole("button", { name: "Board Beta actions" }).click();
    await page.getByRole("menuitem", { name: "Delete board…" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete board “Beta”?" });
    await confirm.getByText(/deletes 0 ticket\(s\).*3 lane\(s\)/).waitFor();
    await confirm.getByRole("button", { name: "Delete board" }).click();
    await until(boardNames, (names) => names.join() === "Alpha one", "deleted");
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("deleting the open board ends on the first board, whether its answer or its stream's board_deleted comes first", async () => {
    const make = async (name: string) =>
      (await api.post("/api/boards", { name })).body.board as { id: number; name: string };
    const [early, late] = [await make("Gamma"), await make("Delta")];
    const { page, context, errors } = await openPage(`${api.url}/boards/${early.id}`, {
      // Records the messages of the page's board streams, before the page's handler runs.
      prepare: (browserContext) =>
        browserContext.addInitScript(() => {
          const seen: string[] = [];
          Object.assign(window, { streamEvents: seen });
          window.EventSource = class extends window.EventSource {
            constructor(url: string | URL, init?: EventSourceInit) {
              super(url, init);
              this.addEventListener("message", (message) => {
                seen.push(JSON.parse((message as MessageEvent).data).event);
              });
            }
          };
        }),
    });
    const deleteFromSidebar = async (target: { id: number; name: string }) => {
      await page.getByRole("heading", { name: target.name, level: 1 }).waitFor();
      await page.locator(".live-live").waitFor();
      await page.getByRole("button", { name: `Board ${target.name} actions` }).click();
      await page.getByRole("menuitem", { name: "Delete board…" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete board" }).click();
    };
    const endsOnTheFirstBoard = async (target: { name: string }) => {
      await page.locator(".toast").getByText(`Board “${target.name}” deleted.`).waitFor();
      await until(
        async () => new URL(page.url()).pathname,
        (path) => path === `/boards/${first.boardId}`,
        "navigated to the first board",
      );
      await page.getByRole("heading", { name: "Alpha one", level: 1 }).waitFor();
      assert.equal(await page.locator(".toast-error").count(), 0);
      // Not told, as for a board deleted elsewhere, that the board it deleted itself was deleted.
      const notices = page.locator(".toast").getByText(/was deleted/);
      assert.equal(await notices.count(), 0);
      assert.deepEqual(errors, []);
    };

    // The DELETE's answer is held in the browser until the stream has brought board_deleted.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/boards/${early.id}`, async (route) => {
      if (route.request().method() !== "DELETE") return route.continue();
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    });
    await deleteFromSidebar(early);
    await until(
      () => page.evaluate(() => (window as unknown as { streamEvents: string[] }).streamEvents),
      (events) => events.includes("board_deleted"),
      "board_deleted came first",
    );
    release();
    await endsOnTheFirstBoard(early);

    // Answered as usual.
    await page.getByRole("link", { name: late.name, exact: true }).click();
    await deleteFromSidebar(late);
    await endsOnTheFirstBoard(late);
    await context.close();
  });

  test("a board deleted elsewhere while open: the page says so and ends on the first board", async () => {
    const gone = (await api.post("/api/boards", { name: "Epsilon" })).body.board as { id: number };
    const { page, context } = await openPage(`${api.url}/boards/${gone.id}`);
    await page.getByRole("heading", { name: "Epsilon", level: 1 }).waitFor();
    await page.locator(".live-live").waitFor();
    assert.ok((await api.delete(`/api/boards/${gone.id}`)).status < 300);
    await page.locator(".toast").getByText("Board “Epsilon” was deleted elsewhere.").waitFor();
    await until(
      async () => new URL(page.url()).pathname,
      (path) => path === `/boards/${first.boardId}`,
      "navigated to the first board",
    );
    await page.getByRole("heading", { name: "Alpha one", level: 1 }).waitFor();
    await context.close();
  });

  test("tags: rename, recolour and no colour", async () => {
    const { page, context } = await openPage(`${api.url}/boards/${first.boardId}`);
    await page.getByRole("button", { name: "Tag bug actions" }).click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    await page.getByRole("textbox", { name: "Tag name" }).fill("defect");
    await page.keyboard.press("Enter");
    const tags = async () =>
      (await api.get(`/api/boards/${first.boardId}/tags`)).body.tags as {
        id: number;
        name: string;
        color: string;
      }[];
    await until(
      async () => (await tags()).find((tag) => tag.id === first.tags.bug.id)?.name,
      (name) => name === "defect",
      "renamed",
    );
    await page.getByLabel("Colour of defect").fill("#00aa55");
    await until(
      async () => (await tags()).find((tag) => tag.id === first.tags.bug.id)?.color,
      (color) => color === "#00aa55",
      "recoloured",
    );
    await page.getByRole("button", { name: "Tag defect actions" }).click();
    await page.getByRole("menuitem", { name: "No colour" }).click();
    await until(
      async () => (await tags()).find((tag) => tag.id === first.tags.bug.id)?.color,
      (color) => color === "",
      "no colour",
    );
    // Cards show the new name.
    await page.locator(".card .tag", { hasText: "defect" }).first().waitFor();
    await context.close();
  });

  test("export downloads the board's JSON; importing it creates a new board and opens it", async () => {
    const { page, context } = await openPage(`${api.url}/boards/${first.boardId}`);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: /Export as JSON/ }).click(),
    ]);
    const file = await download.path();
    const exported = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(exported.format, "tack.board");
    assert.equal(exported.tickets.length, 12);
    await page.getByLabel("Import a board from a JSON export").setInputFiles(file);
    await page.getByText(/Imported “Alpha one”/).waitFor();
    const boards = (await api.get("/api/boards")).body.boards as { id: number }[];
    const imported = boards.at(-1)?.id as number;
    await until(
      async () => new URL(page.url()).pathname,
      (path) => path === `/boards/${imported}`,
      "opened the new board",
    );
    await page.locator(".card").first().waitFor();
    await context.close();
  });
});

describe("narrow windows and lane WIP limits", () => {
  test("a board link opened at 420 px shows the board, not the sidebar saved open on a wide window", async () => {
    const { page, context, errors } = await openPage(`${api.url}/boards/${first.boardId}`, {
      width: 420,
      prepare: (opened) =>
        opened.addInitScript(() => localStorage.setItem("tack.sidebarCollapsed", "false")),
    });
    await page.locator(".lane").first().waitFor();
    assert.equal(await page.locator(".sidebar:not(.is-collapsed)").count(), 0);
    assert.equal(await page.evaluate(() => localStorage.getItem("tack.sidebarCollapsed")), "false");
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("with a WIP limit the lane header and the phone tab show load / limit once, marked at and over it", async () => {
    const lanes = (await api.get(`/api/boards/${first.boardId}/lanes`)).body.lanes as Array<{
      id: number;
      name: string;
    }>;
    const tickets = (await api.get(`/api/boards/${first.boardId}/tickets`)).body.tickets as Array<{
      laneId: number;
      isResolved: boolean;
      isArchived: boolean;
    }>;
    const loadOf = (laneId: number) =>
      tickets.filter((t) => t.laneId === laneId && !t.isResolved && !t.isArchived).length;
    const [full, over, plain] = lanes as [(typeof lanes)[0], (typeof lanes)[0], (typeof lanes)[0]];
    const fullLoad = loadOf(full.id);
    const overLoad = loadOf(over.id);
    assert.ok(fullLoad >= 1 && overLoad >= 2, "the demo board fills its first two lanes");
    await api.patch(`/api/lanes/${full.id}`, { wipLimit: fullLoad });
    await api.patch(`/api/lanes/${over.id}`, { wipLimit: overLoad - 1 });

    // Desktop, light: the figure once per header; a lane without a limit keeps its count.
    const desktop = await openPage(`${api.url}/boards/${first.boardId}`);
    await everyLaneLoaded(desktop.page);
    const header = (laneId: number) =>
      desktop.page.locator(`[data-lane-id="${laneId}"] .lane-header`);
    await header(over.id).locator(".lane-wip").waitFor();
    for (const [lane, text, state] of [
      [full, `${fullLoad} / ${fullLoad}`, "is-full"],
      [over, `${overLoad} / ${overLoad - 1}`, "is-over"],
    ] as const) {
      const badge = header(lane.id).locator(".lane-wip");
      assert.equal((await badge.locator('[aria-hidden="true"]').innerText()).trim(), text);
      assert.match((await badge.getAttribute("class")) ?? "", new RegExp(state));
      assert.equal(await header(lane.id).locator(".lane-count").count(), 0, "no second count");
    }
    assert.equal(await header(plain.id).locator(".lane-wip").count(), 0);
    assert.equal(await header(plain.id).locator(".lane-count").count(), 1);
    await markedApart(
      header(over.id).locator(".lane-wip"),
      header(plain.id).locator(".lane-count"),
    );
    assert.deepEqual(desktop.errors, []);
    await desktop.context.close();

    // A 390-px phone, dark: the lane tabs carry the same figure, compact, and say it in words.
    const phone = await openPage(`${api.url}/boards/${first.boardId}`, {
      width: 390,
      height: 844,
      hasTouch: true,
      colorScheme: "dark",
    });
    await everyLaneLoaded(phone.page);
    const overTab = phone.page.getByRole("tab", {
      name: `${over.name}, over its WIP limit: ${overLoad} open, limit ${overLoad - 1}`,
    });
    await overTab.waitFor();
    assert.match(
      await overTab.innerText(),
      new RegExp(`${over.name}\\s*${overLoad}/${overLoad - 1}`),
    );
    assert.match((await overTab.locator(".lane-wip").getAttribute("class")) ?? "", /is-over/);
    const fullTab = phone.page.getByRole("tab", {
      name: `${full.name}, at its WIP limit: ${fullLoad} open, limit ${fullLoad}`,
    });
    assert.match((await fullTab.locator(".lane-wip").getAttribute("class")) ?? "", /is-full/);
    const plainTab = phone.page.getByRole("tab", { name: plain.name });
    assert.equal(await plainTab.locator(".lane-wip").count(), 0);
    assert.equal(await plainTab.locator(".lane-count").count(), 1);
    await markedApart(overTab.locator(".lane-wip"), plainTab.locator(".lane-count"));
    assert.deepEqual(phone.errors, []);
    await phone.context.close();
  });
});

/** The marked badge does not look like a plain count: its text colour differs, and it is bold. */
async function markedApart(marked: Locator, plain: Locator): Promise<void> {
  const style = (locator: Locator) =>
    locator.evaluate((element) => {
      const computed = getComputedStyle(element);
      return { color: computed.color, weight: Number(computed.fontWeight) };
    });
  const [a, b] = [await style(marked), await style(plain)];
  assert.notEqual(a.color, b.color);
  assert.ok(a.weight > b.weight, JSON.stringify({ a, b }));
}
