import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { startTestServer } from "../helpers/server.js";
import { centerOf, dragTo, everyLaneLoaded, openPage, until } from "./browser.js";
import { seedDemoBoard } from "./seed.js";

// The board in a real browser against a real tack: creating things, dragging, the keyboard,
// filters and search, the list's bulk actions, deep links, phone layout and dark mode.

const api = await startTestServer();
/** An empty tack, for the first-run experience. */
const empty = await startTestServer();
// Seeded one after another, before any suite runs (suites' bodies would interleave their ids).
const movesBoard = await seedDemoBoard(api, "Moves");
const searchBoard = await seedDemoBoard(api, "Search");
const bulkBoard = await seedDemoBoard(api, "Bulk");
const elsewhere = (await api.post("/api/boards", { name: "Elsewhere" })).body;
const linksBoard = await seedDemoBoard(api, "Links");

async function laneIdsOf(boardId: number): Promise<Map<number, number[]>> {
  const tickets = (await api.get(`/api/boards/${boardId}/tickets?archived=all`)).body.tickets as {
    id: number;
    laneId: number;
  }[];
  const byLane = new Map<number, number[]>();
  for (const ticket of tickets)
    byLane.set(ticket.laneId, [...(byLane.get(ticket.laneId) ?? []), ticket.id]);
  return byLane;
}

async function cardIdsIn(page: Page, laneId: number): Promise<number[]> {
  return page
    .locator(`[data-lane-id="${laneId}"] [data-ticket-id]`)
    .evaluateAll((cards) => cards.map((card) => Number((card as HTMLElement).dataset.ticketId)));
}

describe("a first board, made in the browser", () => {
  test("create a board, a lane, a tag and tickets without leaving the page", async () => {
    const { page, context, errors } = await openPage(`${empty.url}/`);
    await page.getByRole("textbox", { name: "Board name" }).fill("Home");
    await page.getByRole("button", { name: "Create board" }).click();
    await page.getByRole("heading", { name: "Home", level: 1 }).waitFor();
    assert.match(page.url(), /\/boards\/\d+$/);
    const boardId = Number(/\/boards\/(\d+)/.exec(page.url())?.[1]);

    // A lane.
    await page.getByRole("button", { name: "+ Add lane" }).click();
    await page.getByRole("textbox", { name: "New lane name" }).fill("blocked");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "blocked", level: 2 }).waitFor();

    // A tag.
    await page.getByRole("button", { name: "New tag" }).click();
    await page.getByRole("textbox", { name: "New tag name" }).fill("errand");
    await page.keyboard.press("Enter");
    await page.locator(".tag-item", { hasText: "errand" }).waitFor();

    // Tickets by quick-add (Enter adds, the field stays open for the next one).
    await page.getByRole("button", { name: "Add a ticket to todo" }).click();
    await page.getByRole("textbox", { name: "New ticket title" }).fill("Buy milk");
    await page.keyboard.press("Enter");
    await page.locator(".card", { hasText: "Buy milk" }).waitFor();
    await page.getByRole("textbox", { name: "New ticket title" }).fill("Fix the bike");
    await page.keyboard.press("Enter");
    await page.locator(".card", { hasText: "Fix the bike" }).waitFor();

    const shell = (await empty.get(`/api/boards/${boardId}`)).body;
    assert.deepEqual(
      shell.lanes.map((lane: { name: string }) => lane.name),
      ["todo", "doing", "done", "blocked"],
    );
    assert.deepEqual(
      shell.tags.map((tag: { name: string }) => tag.name),
      ["errand"],
    );
    const tickets = (await empty.get(`/api/boards/${boardId}/tickets`)).body.tickets;
    assert.deepEqual(
      tickets.map((ticket: { title: string }) => ticket.title),
      ["Buy milk", "Fix the bike"],
    );
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe("moving cards", () => {
  const seeded = movesBoard;
  const [backlog, doing] = seeded.lanes.map((lane) => lane.id) as [number, number];

  test("drag a card to another lane, then reorder it there, with the pointer", async () => {
    const { page, context, errors } = await openPage(`${api.url}/boards/${seeded.boardId}`, {
      width: 1800,
    });
    await everyLaneLoaded(page);
    const before = await laneIdsOf(seeded.boardId);
    const moving = (before.get(backlog) as number[])[3] as number; // "Export a board as JSON"
    const doingBefore = before.get(doing) as number[];

    // Onto the top half of Doing's first card: it goes first in Doing.
    const target = await page.locator(`#card-${doingBefore[0]}`).boundingBox();
    assert.ok(target);
    await dragTo(page, await centerOf(page, `#card-${moving}`), {
      x: target.x + target.width / 2,
      y: target.y + 8,
    });
    await until(
      () => laneIdsOf(seeded.boardId),
      (lanes) => lanes.get(doing)?.[0] === moving,
      "moved to the top of Doing",
    );
    assert.deepEqual(await cardIdsIn(page, doing), [moving, ...doingBefore]);

    // Then below the last card of Doing: reordered within the lane.
    const last = await page.locator(`#card-${doingBefore.at(-1)}`).boundingBox();
    assert.ok(last);
    await dragTo(page, await centerOf(page, `#card-${moving}`), {
      x: last.x + last.width / 2,
      y: last.y + last.height + 30,
    });
    await until(
      () => laneIdsOf(seeded.boardId),
      (lanes) => lanes.get(doing)?.at(-1) === moving,
      "moved to the end of Doing",
    );
    assert.deepEqual(await cardIdsIn(page, doing), [...doingBefore, moving]);

    // An empty lane's whole column takes a drop.
    const emptyLane = (await api.post(`/api/boards/${seeded.boardId}/lanes`, { name: "Empty" }))
      .body.id as number;
    await page.locator(`[data-lane-id="${emptyLane}"]`).waitFor();
    await page.locator(`[data-lane-id="${emptyLane}"]`).scrollIntoViewIfNeeded();
    const column = await page.locator(`[data-lane-id="${emptyLane}"] .lane-body`).boundingBox();
    assert.ok(column);
    await dragTo(page, await centerOf(page, `#card-${moving}`), {
      x: column.x + column.width / 2,
      y: column.y + column.height - 20,
    });
    await until(
      () => laneIdsOf(seeded.boardId),
      (lanes) => lanes.get(emptyLane)?.[0] === moving,
      "moved into the empty lane",
    );
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("a refused move rolls back and shows the server's reason", async () => {
    // The page's event stream is cut, so it does not learn that a lane was deleted meanwhile.
    const { page, context } = await openPage(`${api.url}/boards/${seeded.boardId}`, {
      width: 1800,
      prepare: (browserContext) => browserContext.route(/\/events$/, (route) => route.abort()),
    });
    const doomed = (await api.post(`/api/boards/${seeded.boardId}/lanes`, { name: "Doomed" })).body
      .id as number;
    await page.reload();
    await everyLaneLoaded(page);
    await page.locator(`[data-lane-id="${doomed}"]`).scrollIntoViewIfNeeded();
    const before = await laneIdsOf(seeded.boardId);
    const first = (before.get(doing) as number[])[0] as number;
    await api.delete(`/api/lanes/${doomed}`);
    const column = await page.locator(`[data-lane-id="${doomed}"] .lane-body`).boundingBox();
    assert.ok(column);
    await dragTo(page, await centerOf(page, `#card-${first}`), {
      x: column.x + 40,
      y: column.y + 40,
    });
    await page.locator(".toast-error").waitFor();
    assert.match(await page.locator(".toast-error").innerText(), /Move failed: lane/);
    // The server's order is unchanged, and the page shows the card back where it was.
    assert.deepEqual((await laneIdsOf(seeded.boardId)).get(doing), before.get(doing));
    assert.deepEqual(await cardIdsIn(page, doing), before.get(doing));
    assert.deepEqual(await cardIdsIn(page, doomed), []);
    await context.close();
  });

  test("the same moves from the keyboard: lift, move, drop, with announcements", async () => {
    const { page, context, errors } = await openPage(`${api.url}/boards/${seeded.boardId}`);
    await everyLaneLoaded(page);
    const before = await laneIdsOf(seeded.boardId);
    const first = (before.get(backlog) as number[])[0] as number;
    await page.locator(`#card-${first}`).focus();
    await page.keyboard.press("Space");
    assert.match(await page.locator("[aria-live=assertive]").innerText(), /Lifted #\d+/);
    await page.keyboard.press("ArrowRight"); // to Doing, same index (top)
    await page.keyboard.press("ArrowDown"); // second place
    assert.match(await page.locator("[aria-live=assertive]").innerText(), /Doing, position 2/);
    await page.keyboard.press("Space");
    await until(
      () => laneIdsOf(seeded.boardId),
      (lanes) => lanes.get(doing)?.[1] === first,
      "dropped second in Doing",
    );
    // The page announces the drop once it has the server's answer, which may come after the
    // server's state already shows the move.
    await until(
      () => page.locator("[aria-live=assertive]").innerText(),
      (text) => /moved to Doing, position 2/.test(text),
      "drop announced",
    );

    // Escape cancels a lift: nothing moves.
    await page.locator(`#card-${first}`).focus();
    await page.keyboard.press("Space");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Escape");
    assert.equal((await laneIdsOf(seeded.boardId)).get(doing)?.[1], first);

    // Shift+← moves it one lane over at once; focus stays on it.
    await page.locator(`#card-${first}`).focus();
    await page.keyboard.press("Shift+ArrowLeft");
    await until(
      () => laneIdsOf(seeded.boardId),
      (lanes) => lanes.get(backlog)?.includes(first) ?? false,
      "back in Backlog",
    );

    // Arrows move focus; Enter opens; 3 sets priority; x selects.
    await page.locator(`#card-${first}`).focus();
    await page.keyboard.press("3");
    await until(
      async () => (await api.get(`/api/tickets/${first}`)).body.priority,
      (p) => p === 3,
      "priority 3",
    );
    await page.keyboard.press("x");
    await page.getByRole("region", { name: "Selected tickets" }).waitFor();
    // k moves focus to the card above during the key press itself. It used to move on the next
    // animation frame, and a read of the focus right after the press raced that frame; so the
    // focus is read by a keydown listener that runs after the page's own. The listener then puts
    // focus back on the first card, as a user moving on at once would: the frame after must
    // leave it there.
    const shown = await cardIdsIn(page, backlog);
    const above = shown[shown.indexOf(first) - 1];
    assert.ok(above !== undefined, `a card above #${first} in Backlog: ${shown.join(", ")}`);
    await page.evaluate((movedOnTo) => {
      const probe = window as unknown as { focusAfterKey?: string };
      window.addEventListener(
        "keydown",
        () => {
          probe.focusAfterKey = document.activeElement?.id;
          document.getElementById(movedOnTo)?.focus();
        },
        { once: true },
      );
    }, `card-${first}`);
    await page.keyboard.press("k");
    assert.equal(
      await page.evaluate(() => (window as unknown as { focusAfterKey?: string }).focusAfterKey),
      `card-${above}`,
    );
    const afterTwoFrames = () =>
      new Promise<string | undefined>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => resolve(document.activeElement?.id)),
        ),
      );
    assert.equal(await page.evaluate(afterTwoFrames), `card-${first}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("m opens Move to…, which moves without dragging", async () => {
    const { page, context } = await openPage(`${api.url}/boards/${seeded.boardId}`);
    await everyLaneLoaded(page);
    const lanes = await laneIdsOf(seeded.boardId);
    const id = (lanes.get(backlog) as number[])[0] as number;
    await page.locator(`#card-${id}`).focus();
    await page.keyboard.press("m");
    const dialog = page.getByRole("dialog", { name: /^Move #/ });
    await dialog.getByRole("combobox", { name: "Lane" }).selectOption({ label: "Review" });
    await dialog.getByRole("button", { name: "Move" }).click();
    const review = (seeded.lanes[2] as { id: number }).id;
    await until(
      () => laneIdsOf(seeded.boardId),
      (after) => after.get(review)?.at(-1) === id,
      "moved to Review",
    );
    await context.close();
  });
});

describe("finding tickets", () => {
  const seeded = searchBoard;

  test("search by #id and text, filter by tag, 'no tag', priority and status; state in the URL", async () => {
    const { page, context, errors } = await openPage(`${api.url}/boards/${seeded.boardId}`);
    await everyLaneLoaded(page);
    const all = (await api.get(`/api/boards/${seeded.boardId}/tickets`)).body.tickets as {
      id: number;
      title: string;
    }[];
    const target = all[5] as { id: number; title: string };

    await page.keyboard.press("/");
    await page.keyboard.type(`#${target.id}`);
    await until(
      () => page.locator(".card").count(),
      (count) => count === 1,
      "one card for #id",
    );
    assert.match(await page.locator(".card").innerText(), new RegExp(target.title));
    await until(
      async () => new URL(page.url()).searchParams.get("q"),
      (q) => q === `#${target.id}`,
      "q in the URL",
    );

    // The URL brings the same view back after a reload.
    await page.reload();
    await everyLaneLoaded(page);
    await until(
      () => page.locator(".card").count(),
      (count) => count === 1,
      "one card after reload",
    );
    assert.equal(
      await page.getByRole("searchbox", { name: "Search tickets" }).inputValue(),
      `#${target.id}`,
    );

    await page.getByRole("button", { name: "Reset" }).click();
    await until(
      () => page.locator(".card").count(),
      (count) => count === 10,
      "all open cards back",
    );

    await page.getByRole("combobox", { name: "Tag filter" }).selectOption({ label: "bug" });
    await until(
      () => page.locator(".card").count(),
      (count) => count === 2,
      "two bug cards",
    );
    assert.equal(new URL(page.url()).searchParams.get("tag"), "bug");
    await page.getByRole("combobox", { name: "Tag filter" }).selectOption({ label: "No tag" });
    await until(
      () => page.locator(".card").count(),
      (count) => count === 2,
      "open cards with no tag",
    );

    await page.getByRole("combobox", { name: "Tag filter" }).selectOption({ label: "All tags" });
    await page.getByRole("combobox", { name: "Priority filter" }).selectOption({ label: "Urgent" });
    await until(
      () => page.locator(".card").count(),
      (count) => count === 2,
      "two urgent cards",
    );
    await page
      .getByRole("combobox", { name: "Priority filter" })
      .selectOption({ label: "Any priority" });
    await page.getByRole("combobox", { name: "Status filter" }).selectOption({ label: "Resolved" });
    await until(
      () => page.locator(".card").count(),
      (count) => count === 2,
      "two resolved cards",
    );

    // Remembered per board: leaving and coming back restores the filter.
    await page
      .getByRole("link", { name: "Moves" })
      .click()
      .catch(() => {});
    await page.goto(`${api.url}/boards/${seeded.boardId}`);
    await everyLaneLoaded(page);
    await until(
      () => page.locator(".card").count(),
      (count) => count === 2,
      "filter restored",
    );
    assert.equal(new URL(page.url()).searchParams.get("status"), "resolved");
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("filtering 1,000 cards in memory: time reported", async () => {
    const big = (await api.post("/api/boards", { name: "Filter 1000" })).body;
    const lanes = big.lanes as { id: number }[];
    const tag = (await api.post(`/api/boards/${big.board.id}/tags`, { name: "odd" })).body;
    const importBody = {
      board: { name: "Filter 1000" },
      lanes: lanes.map((lane, index) => ({ id: lane.id, name: `lane ${index}`, position: index })),
      tags: [{ id: tag.id, name: "odd", color: "#dc2626" }],
      tickets: Array.from({ length: 1000 }, (_, index) => ({
        id: index + 1,
        laneId: (lanes[index % 3] as { id: number }).id,
        title: `Ticket ${index + 1}`,
        priority: (index % 4) + 1,
        tags: index % 2 ? [{ id: tag.id, name: "odd", color: "#dc2626" }] : [],
      })),
    };
    const imported = (await api.post("/api/boards/import", importBody)).body;
    const { page, context } = await openPage(`${api.url}/boards/${imported.board.id}/list`);
    await everyLaneLoaded(page);
    const ms = await page.evaluate(async () => {
      const select = document.querySelector<HTMLSelectElement>('select[aria-label="Tag filter"]');
      if (!select) return -1;
      const start = performance.now();
      select.value = "odd";
      select.dispatchEvent(new Event("change", { bubbles: true }));
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - start;
    });
    console.log(`# filter 1,000 tickets by tag, to the next frame: ${ms.toFixed(1)} ms`);
    await until(
      () => page.locator(".list-row[data-ticket-id]").first().getAttribute("data-ticket-id"),
      (id) => Number(id) > 0,
      "rows",
    );
    await context.close();
  });
});

describe("list view", () => {
  const seeded = bulkBoard;
  const other = elsewhere;

  test("children under parents, sort, multi-select and every bulk action", async () => {
    const { page, context, errors } = await openPage(`${api.url}/boards/${seeded.boardId}/list`);
    await everyLaneLoaded(page);
    const rows = () =>
      page.locator(".list-body .list-row").evaluateAll((elements) =>
        elements
          .map((element) => ({
            id: Number((element as HTMLElement).dataset.ticketId),
            y: (element as HTMLElement).getBoundingClientRect().top,
            child: element.classList.contains("is-child"),
          }))
          .sort((a, b) => a.y - b.y),
      );
    const ordered = await rows();
    const parentAt = ordered.findIndex((row) => row.id === seeded.epicId);
    assert.equal(ordered[parentAt + 1]?.child, true, "the child follows its parent");

    const byTitle = new Map(
      (
        (await api.get(`/api/boards/${seeded.boardId}/tickets`)).body.tickets as {
          id: number;
          title: string;
        }[]
      ).map((ticket) => [ticket.title, ticket.id]),
    );
    const idOf = (title: string) => byTitle.get(title) as number;
    await page.getByRole("button", { name: "ID", exact: true }).click();
    await page.getByRole("button", { name: "ID ▲", exact: true }).waitFor();
    await page.getByRole("button", { name: "ID ▲", exact: true }).click();
    await until(
      async () => (await rows()).map((row) => row.id)[0],
      (first) => first === Math.max(...byTitle.values()),
      "sorted by id, descending",
    );

    // Selecting a parent selects its child too.
    await page.getByRole("checkbox", { name: `Select #${seeded.epicId}`, exact: true }).check();
    await page.getByText("2 selected").waitFor();
    await page.getByRole("button", { name: "Resolve" }).click();
    await until(
      async () => (await api.get(`/api/tickets/${seeded.epicId + 1}`)).body.isResolved,
      (resolved) => resolved === true,
      "child resolved",
    );
    await page.getByRole("button", { name: "Reopen" }).click();
    await until(
      async () => (await api.get(`/api/tickets/${seeded.epicId}`)).body.isResolved,
      (r) => r === false,
      "reopened",
    );
    await page
      .getByRole("combobox", { name: "Move selected to lane" })
      .selectOption({ label: "Review" });
    await until(
      async () => (await api.get(`/api/tickets/${seeded.epicId}`)).body.laneId,
      (laneId) => laneId === (seeded.lanes[2] as { id: number }).id,
      "moved to Review",
    );
    await page.getByRole("button", { name: "Archive" }).click();
    await until(
      async () => (await api.get(`/api/tickets/${seeded.epicId}`)).body.isArchived,
      (a) => a === true,
      "archived",
    );
    await page.getByRole("button", { name: "Restore" }).click();
    await until(
      async () => (await api.get(`/api/tickets/${seeded.epicId}`)).body.isArchived,
      (a) => a === false,
      "restored",
    );

    // Select all, clear, then move two to another board.
    await page.getByRole("checkbox", { name: "Select all shown tickets" }).check();
    await page.getByText("12 selected").waitFor();
    await page.getByRole("button", { name: "Clear" }).click();
    const exported = idOf("Export a board as JSON");
    const crash = idOf("Crash when a lane name is empty");
    const doomed = idOf("Document the ready queue for agents");
    // What the page asks about the tickets it moves away or deletes, from here on.
    const requested: string[] = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if ([exported, crash, doomed].some((id) => path === `/api/tickets/${id}`))
        requested.push(`${request.method()} ${path}`);
    });
    await page.getByRole("checkbox", { name: `Select #${exported}`, exact: true }).check();
    await page.getByRole("checkbox", { name: `Select #${crash}`, exact: true }).check();
    await page
      .getByRole("combobox", { name: "Move selected to board" })
      .selectOption({ label: "Elsewhere" });
    await page
      .getByRole("combobox", { name: "Lane on the target board" })
      .selectOption({ label: "doing" });
    await until(
      async () => (await api.get(`/api/tickets/${crash}`)).body.boardId,
      (b) => b === other.board.id,
      "moved board",
    );
    assert.equal((await api.get(`/api/tickets/${exported}`)).body.laneId, other.lanes[1].id);

    // Delete asks first and says what goes.
    await page.getByRole("checkbox", { name: `Select #${doomed}`, exact: true }).check();
    await page.getByRole("button", { name: "Delete…" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete 1 ticket(s)?" });
    await confirm.getByText(/to the trash \(Undo brings them back\)/).waitFor();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await until(
      async () => (await api.get(`/api/tickets/${doomed}`)).status,
      (status) => status === 404,
      "deleted",
    );
    // The move's and the delete's stream messages name those tickets; the page, which took them
    // off the board itself, does not fetch them again (a wasted request each, and a 404 in the
    // console for the deleted one). A later change made elsewhere is still fetched, and once it
    // shows, the page has handled the earlier messages (one refresh at a time, in order).
    const renamed = idOf("Dark mode contrast of tag chips");
    await api.patch(`/api/tickets/${renamed}`, { title: "Dark mode contrast, renamed elsewhere" });
    await page.getByText("Dark mode contrast, renamed elsewhere").waitFor();
    assert.deepEqual(requested, [`DELETE /api/tickets/${doomed}`]);
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe("links, layouts and themes", () => {
  const seeded = linksBoard;

  test("deep links load on direct navigation and reload: board, list, ticket", async () => {
    const { page, context, errors } = await openPage(`${api.url}/boards/${seeded.boardId}/list`);
    await page.getByRole("grid", { name: "Tickets" }).waitFor();
    await page.reload();
    await page.getByRole("grid", { name: "Tickets" }).waitFor();
    await page.goto(`${api.url}/tickets/${seeded.epicId}`);
    const dialog = page.getByRole("dialog", { name: /Keyboard-first board navigation/ });
    await dialog.waitFor();
    await page.reload();
    await dialog.waitFor();
    // Escape closes it and lands on the ticket's board.
    await page.keyboard.press("Escape");
    await until(
      async () => new URL(page.url()).pathname,
      (path) => path.startsWith(`/boards/${seeded.boardId}`),
      "back on the board",
    );
    await page.goto(`${api.url}/tickets/999999`);
    await page.getByText(/Ticket #999999 cannot be opened/).waitFor();
    assert.ok(
      errors.every((error) => /404/.test(error)),
      errors.join("\n"),
    );
    await context.close();
  });

  test("a 390-px phone shows one lane at a time behind lane tabs with counts", async () => {
    const { page, context, errors } = await openPage(`${api.url}/boards/${seeded.boardId}`, {
      width: 390,
      height: 844,
      hasTouch: true,
    });
    const tabs = page.getByRole("tab");
    await everyLaneLoaded(page);
    assert.equal(await tabs.count(), 4);
    assert.equal(await page.locator(".lane").count(), 1);
    assert.match((await tabs.nth(1).innerText()).trim(), /^Doing\s*3$/);
    await tabs.nth(1).click();
    await page.getByRole("heading", { name: "Doing", level: 2 }).waitFor();
    // Nothing overflows sideways.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `page is ${overflow}px too wide`);
    // The ticket opens as a full-screen sheet.
    await page.locator(".card").first().click();
    const sheet = await page.locator("dialog.ticket-dialog").boundingBox();
    assert.ok(sheet && sheet.width >= 389 && sheet.height >= 843, JSON.stringify(sheet));
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("dark mode follows the system, and the toggle overrides it", async () => {
    const { page, context } = await openPage(`${api.url}/boards/${seeded.boardId}`, {
      colorScheme: "dark",
    });
    await page.locator(".card").first().waitFor();
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const card = () =>
      page.evaluate(() => getComputedStyle(document.querySelector(".card") as Element).color);
    assert.equal(await background(), "rgb(17, 19, 23)");
    assert.equal(await card(), "rgb(230, 232, 235)");
    // system → dark → light
    await page.getByRole("button", { name: /Colour theme/ }).click();
    await page.getByRole("button", { name: /Colour theme/ }).click();
    assert.equal(await background(), "rgb(246, 247, 249)");
    await page.reload();
    await page.locator(".card").first().waitFor();
    assert.equal(await background(), "rgb(246, 247, 249)", "the choice is remembered");
    await context.close();
  });

  test("? shows every shortcut, and shortcuts never fire while typing", async () => {
    const { page, context } = await openPage(`${api.url}/boards/${seeded.boardId}`);
    await page.locator(".card").first().waitFor();
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.waitFor();
    for (const key of ["/", "Enter", "Esc", "x", "m", "n", "1 – 4"])
      await help.getByText(key, { exact: true }).waitFor();
    await page.keyboard.press("Escape");
    await help.waitFor({ state: "detached" });
    await page.getByRole("searchbox", { name: "Search tickets" }).focus();
    await page.keyboard.type("?n/x");
    assert.equal(
      await page.getByRole("searchbox", { name: "Search tickets" }).inputValue(),
      "?n/x",
    );
    assert.equal(await page.getByRole("dialog").count(), 0);
    await context.close();
  });
});

describe("the live stream", () => {
  test("a stream refused with an error status is opened again, and the page catches up", async () => {
    const created = (await api.post("/api/boards", { name: "Refused", laneNames: ["todo"] })).body;
    const ticket = (
      await api.post(`/api/boards/${created.board.id}/tickets`, {
        laneId: created.lanes[0].id,
        title: "Seen before the stream was refused",
      })
    ).body;
    let streams = 0;
    const { page, context, errors } = await openPage(`${api.url}/boards/${created.board.id}`, {
      // The first stream is refused as the server refuses one past its limit (EventSource then
      // gives up, and the page opens a new one); the ticket changes before the second opens, and
      // no message can tell that stream of it.
      prepare: (browserContext) =>
        browserContext.route(/\/events$/, async (route) => {
          if (++streams === 1) {
            await route.fulfill({ status: 429, json: { error: "too many streams" } });
            return;
          }
          if (streams === 2) {
            await api.patch(`/api/tickets/${ticket.id}`, { title: "Changed while refused" });
          }
          await route.continue();
        }),
    });
    await page.getByText("Changed while refused").waitFor();
    assert.equal(streams, 2);
    assert.deepEqual(
      errors.filter(
        (error) => !/^Failed to load resource: .* 429 \(Too Many Requests\)$/.test(error),
      ),
      [],
    );
    await context.close();
  });

  test("writes that never pause still reach the page while they go on", async () => {
    const created = (await api.post("/api/boards", { name: "Busy", laneNames: ["todo"] })).body;
    const laneId = created.lanes[0].id;
    const watched = (
      await api.post(`/api/boards/${created.board.id}/tickets`, {
        laneId,
        title: "Not yet renamed",
      })
    ).body;
    const busy = (
      await api.post(`/api/boards/${created.board.id}/tickets`, {
        laneId,
        title: "busy 0",
      })
    ).body;
    const { page, context, errors } = await openPage(`${api.url}/boards/${created.board.id}`);
    await page.getByText("busy 0").waitFor();
    // Agents writing without pause: a message every few ms, far less than the page's 60 ms
    // window. The watched ticket changes once, early; the page must show it while the writes go
    // on, not only once they stop.
    let writing = true;
    // Three writers, so the stream never goes quiet for the page's 60 ms.
    const writes = Promise.all(
      [0, 1, 2].map(async (writer) => {
        for (let n = 1; writing; n++) {
          await api.patch(`/api/tickets/${busy.id}`, { title: `busy ${writer}.${n}` });
        }
      }),
    );
    await api.patch(`/api/tickets/${watched.id}`, { title: "Renamed amid the writes" });
    try {
      await page.getByText("Renamed amid the writes").waitFor();
    } finally {
      writing = false;
      await writes;
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
});
