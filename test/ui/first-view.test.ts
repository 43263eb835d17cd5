import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { startTestServer } from "../helpers/server.js";
import { bearer, tokensOf } from "../helpers/tokens.js";
import { ensureUiBuilt, everyLaneLoaded, openPage } from "./browser.js";

// The board page's first view (ui/ARCHITECTURE.md, "The first view"): the server draws the
// board's first cards into the page, and the app takes their place once its own are painted.

ensureUiBuilt();
const api = await startTestServer();
const shell = (await api.post("/api/boards", { name: "Launch <plan>" })).body;
const boardId = shell.board.id as number;
const [todo, doing] = shell.lanes.map((lane: { id: number }) => lane.id) as number[];
const HOSTILE = `<img src=x onerror="alert(1)"> & "quotes"`;

async function add(laneId: number, title: string, fields: object = {}): Promise<number> {
  const created = await api.post(`/api/boards/${boardId}/tickets`, { laneId, title, ...fields });
  assert.equal(created.status, 201, created.text);
  return created.body.id as number;
}

// todo: 14 tickets, the first one archived, the third High, the second and fourth tagged;
// doing: a hostile title, an urgent one and a resolved one; done: empty. Resolved and archived cards are not shown unless asked for (the app's "show
// more"), so the first view leaves them out.
const todoIds: number[] = [];
for (let i = 0; i < 14; i++) {
  todoIds.push(await add(todo as number, `Todo ${i}`, i === 2 ? { priority: 3 } : {}));
}
await api.patch(`/api/tickets/${todoIds[0]}`, { isArchived: true });
const ui = (await api.post(`/api/boards/${boardId}/tags`, { name: "ui", color: "#2563eb" })).body;
const odd = (await api.post(`/api/boards/${boardId}/tags`, { name: "<b>odd</b>", color: "" })).body;
await api.patch(`/api/tickets/${todoIds[1]}`, { tagIds: [ui.id, odd.id] });
await api.patch(`/api/tickets/${todoIds[3]}`, { tagIds: [ui.id] });
const hostileId = await add(doing as number, HOSTILE);
const urgentId = await add(doing as number, "Urgent one", { priority: 4 });
const resolvedId = await add(doing as number, "Resolved one");
await api.patch(`/api/tickets/${resolvedId}`, { isResolved: true });

/** The first view's cards, lane by lane: [lane name, card ids]. */
function cardsOf(html: string): Array<[string, number[]]> {
  const view = html.slice(html.indexOf('id="first-view"'));
  return [...view.matchAll(/<section class="lane">(.*?)<\/section>/g)].map((lane) => [
    /<h2 class="lane-title">(.*?)<\/h2>/.exec(lane[1] as string)?.[1] as string,
    [...(lane[1] as string).matchAll(/data-first-card="(\d+)"/g)].map((card) => Number(card[1])),
  ]);
}

describe("the board page's HTML", () => {
  test("carries each lane's first 12 open cards in board order, every text escaped", async () => {
    const page = await api.get(`/boards/${boardId}`);
    assert.equal(page.status, 200);
    assert.deepEqual(cardsOf(page.text), [
      ["todo", todoIds.slice(1, 13)],
      ["doing", [hostileId, urgentId]],
      ["done", []],
    ]);
    assert.match(page.text, /<h1 class="board-name">Launch &lt;plan&gt;<\/h1>/);
    assert.ok(
      page.text.includes("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &quot;quotes&quot;"),
    );
    assert.ok(!page.text.includes("<img src=x"), "a title is never markup");
    assert.match(page.text, new RegExp(`data-first-card="${urgentId}".*?prio-4.*?Urgent`));
    // Tags as the app's chips, by name; a tag's name is never markup either.
    const tagged = new RegExp(
      `data-first-card="${todoIds[1]}".*?<div class="card-meta">` +
        `<span class="tag" title="&lt;b&gt;odd&lt;/b&gt;">.*?tag-dot-none.*?</span></span>` +
        `<span class="tag" title="ui"><svg class="tag-dot".*?fill="#2563eb"`,
    );
    assert.match(page.text, tagged);
    assert.ok(!page.text.includes("<b>odd</b>"));
    // Hidden from assistive technology, inert, and not the app's cards.
    assert.match(page.text, /<div class="app first-view" id="first-view" aria-hidden="true"/);
    assert.ok(!page.text.includes("data-ticket-id"));
    assert.doesNotMatch(page.text, /<script(?![^>]*\bsrc=)[^>]*>/);
  });

  test("only the board page without a query has one; an unknown, trashed, empty or all-resolved board has none", async () => {
    const empty = (await api.post("/api/boards", { name: "Empty" })).body.board.id as number;
    const trashed = (await api.post("/api/boards", { name: "Trashed" })).body;
    const laneId = trashed.lanes[0].id;
    await api.post(`/api/boards/${trashed.board.id}/tickets`, { laneId, title: "Gone" });
    assert.equal((await api.delete(`/api/boards/${trashed.board.id}`)).status, 204);
    const allDone = (await api.post("/api/boards", { name: "All done" })).body;
    const doneTicket = (
      await api.post(`/api/boards/${allDone.board.id}/tickets`, {
        laneId: allDone.lanes[0].id,
        title: "Finished",
      })
    ).body.id;
    await api.patch(`/api/tickets/${doneTicket}`, { isResolved: true });
    for (const path of [
      `/boards/${allDone.board.id}`,
      `/boards/${trashed.board.id}`,
      `/boards/${boardId}?q=todo`,
      `/boards/${boardId}/list`,
      "/boards/999999",
      `/boards/${empty}`,
      "/",
    ]) {
      const page = await api.get(path);
      assert.equal(page.status, 200, path);
      assert.ok(!page.text.includes("first-view"), path);
    }
  });
});

describe("access", () => {
  test("the first view is behind the access guard: without a usable token, no title", async () => {
    const guarded = await startTestServer({ requireToken: true });
    const tokens = tokensOf(guarded.dbFile);
    const writer = bearer(tokens.create({ name: "writer", readOnly: false }).token);
    const viewer = bearer(tokens.create({ name: "viewer", readOnly: true }).token);
    const { board, lanes } = (await guarded.request("POST", "/api/boards", { name: "G" }, writer))
      .body;
    const ticket = { laneId: lanes[0].id, title: "Secret plan" };
    await guarded.request("POST", `/api/boards/${board.id}/tickets`, ticket, writer);

    const refused = await guarded.get(`/boards/${board.id}`);
    assert.equal(refused.status, 401);
    assert.ok(!refused.text.includes("Secret plan"));
    const allowed = await guarded.request("GET", `/boards/${board.id}`, undefined, viewer);
    assert.equal(allowed.status, 200);
    assert.match(allowed.text, /<div class="card-title">Secret plan<\/div>/);
  });
});

/**
 * Each card as the page shows it: ticket id → where its title is and the texts of its top row
 * (reference, priority) and title.
 */
function cardsShown(
  page: Page,
  selector: string,
  idAttribute: string,
): Promise<Record<string, { x: number; y: number; top: string; title: string }>> {
  return page.evaluate(
    ({ selector, idAttribute }) =>
      Object.fromEntries(
        [...document.querySelectorAll<HTMLElement>(selector)].map((card) => {
          const title = card.querySelector<HTMLElement>(".card-title");
          const box = title?.getBoundingClientRect();
          const top = card.querySelector<HTMLElement>(".card-top")?.innerText ?? "";
          return [
            card.getAttribute(idAttribute),
            { x: box?.x ?? 0, y: box?.y ?? 0, top, title: title?.innerText ?? "" },
          ];
        }),
      ),
    { selector, idAttribute },
  );
}

describe("in the browser", () => {
  for (const size of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${size.width} px: the first cards show before the script runs, where the app draws them; the app replaces them`, async () => {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const { page, context, errors } = await openPage("about:blank", {
        ...size,
        // The app's script held back: what shows is the server's first view alone.
        prepare: (browserContext) =>
          browserContext.route(/\/assets\/.*\.js$/, async (route) => {
            await released;
            await route.continue();
          }),
      });
      await page.goto(`${api.url}/boards/${boardId}`, { waitUntil: "commit" });
      await page.locator("#first-view .card").first().waitFor();
      const early = await cardsShown(page, "#first-view [data-first-card]", "data-first-card");
      assert.equal(await page.locator("#first-view .card-title").first().innerText(), "Todo 1");

      release();
      await everyLaneLoaded(page);
      assert.equal(await page.locator("#first-view").count(), 0, "the first view is gone");
      const live = await cardsShown(page, "#app [data-ticket-id]", "data-ticket-id");
      // Every card the first view showed on screen stands where the app's own card stands, and
      // reads the same: reference, priority (the server writes the UI's words and glyphs) and
      // title.
      const shown = Object.entries(early).filter(([, card]) => card.x !== 0 || card.y !== 0);
      assert.ok(shown.length >= 3, JSON.stringify(early));
      for (const [id, card] of shown) {
        const own = live[id];
        assert.ok(own, `card ${id} is on the app's board`);
        assert.ok(
          Math.abs(own.x - card.x) <= 2 && Math.abs(own.y - card.y) <= 2,
          `card ${id}: first view at ${card.x},${card.y}, app at ${own.x},${own.y}`,
        );
        assert.deepEqual([card.top, card.title], [own.top, own.title], `card ${id}'s texts`);
      }
      assert.ok(
        shown.some(([, card]) => /High|Urgent/.test(card.top)),
        "a card with a priority badge is among them",
      );
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});
