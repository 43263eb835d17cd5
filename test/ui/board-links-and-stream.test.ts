import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { everyLaneLoaded, openPage, until } from "./browser.js";
import { seedDemoBoard } from "./seed.js";

// The board in a real browser against a real tack: deep links, the phone's lane tabs, dark
// mode, the shortcuts' help, and the live stream reopened and kept up under writes.

const api = await startTestServer();
const linksBoard = await seedDemoBoard(api, "Links");

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
