import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { openPage, until } from "./browser.js";
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

  test("the lane header shows load / limit, marked at the limit", async () => {
    const lanes = (await api.get(`/api/boards/${first.boardId}/lanes`)).body.lanes;
    const tickets = (await api.get(`/api/boards/${first.boardId}/tickets`)).body.tickets as Array<{
      laneId: number;
      isResolved: boolean;
      isArchived: boolean;
    }>;
    const lane = lanes[0];
    const load = tickets.filter(
      (t) => t.laneId === lane.id && !t.isResolved && !t.isArchived,
    ).length;
    await api.patch(`/api/lanes/${lane.id}`, { wipLimit: Math.max(load, 1) });
    const { page, context, errors } = await openPage(`${api.url}/boards/${first.boardId}`);
    const badge = page.locator(`[data-lane-id="${lane.id}"] .lane-wip`);
    await badge.waitFor();
    assert.equal(
      (await badge.locator('[aria-hidden="true"]').innerText()).trim(),
      `${load} / ${Math.max(load, 1)}`,
    );
    assert.match((await badge.getAttribute("class")) ?? "", load >= 1 ? /is-full/ : /is-under/);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
