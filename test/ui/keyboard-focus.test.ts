import assert from "node:assert/strict";
import { test } from "node:test";
import { heldSync } from "../helpers/held-sync.js";
import { startTestServer } from "../helpers/server.js";
import { everyLaneLoaded, openPage, until } from "./browser.js";
import { seedDemoBoard } from "./seed.js";

// A move's answer can come late (here: held at the server's fsync, which every answer waits
// for). Focus must not jump back to the moved card if the user has gone on meanwhile.

const sync = heldSync();
const api = await startTestServer({ syncFile: sync.syncFile });
const { boardId, lanes } = await seedDemoBoard(api);

test("Shift+← keeps the moved card focused, unless focus moved on before the answer came", async () => {
  const backlog = lanes[0] as { id: number };
  const doing = lanes[1] as { id: number };
  const review = lanes[2] as { id: number };
  const { page, context, errors } = await openPage(`${api.url}/boards/${boardId}`);
  await everyLaneLoaded(page);
  const cardsOf = (laneId: number) =>
    page
      .locator(`[data-lane-id="${laneId}"] [data-ticket-id]`)
      .evaluateAll((cards) => cards.map((card) => (card as HTMLElement).id));
  const focused = () => page.evaluate(() => document.activeElement?.id);

  // Answered at once: the card lands at the end of Backlog and keeps the focus.
  const [moved] = await cardsOf(doing.id);
  await page.locator(`#${moved}`).focus();
  await page.keyboard.press("Shift+ArrowLeft");
  await until(
    () => cardsOf(backlog.id),
    (ids) => ids.at(-1) === moved,
    "moved to Backlog",
  );
  await until(focused, (id) => id === moved, "the moved card keeps the focus");

  // Answer held: the user goes on to a card in another lane; when the answer comes, focus
  // stays there.
  // Focused again: the stream's refresh after the first move may have re-rendered the card.
  await page.locator(`#${moved}`).focus();
  sync.holding = true;
  await page.keyboard.press("Shift+ArrowRight");
  const held = await sync.next(); // the move's answer waits for this sync
  let movedOn: string | undefined;
  try {
    await until(
      () => cardsOf(doing.id),
      (ids) => ids.includes(moved as string),
      "shown in Doing",
    );
    const [elsewhere] = await cardsOf(review.id);
    await page.locator(`#${elsewhere}`).focus();
    movedOn = await focused();
    assert.equal(movedOn, elsewhere, "the user moved on");
  } finally {
    // Released even when an assertion fails: a held fsync keeps the server (and this file's
    // process) from ever finishing. Every held call, not only the move's: a refetch or the
    // background indexer may have committed meanwhile and be waiting for a sync of its own.
    held.release();
    sync.stop();
  }
  const movedId = Number((moved as string).replace("card-", ""));
  await until(
    async () => (await api.get(`/api/tickets/${movedId}`)).body.laneId,
    (laneId) => laneId === doing.id,
    "the move answered",
  );
  await page.waitForTimeout(300);
  assert.equal(await focused(), movedOn, "focus stays where the user put it");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a refetch read before a move does not put the moved card back while the move is on its way", async () => {
  const byTitle = async (title: string) =>
    (
      (await api.get(`/api/boards/${boardId}/tickets`)).body.tickets as {
        id: number;
        title: string;
      }[]
    ).find((ticket) => ticket.title === title)?.id as number;
  const moved = await byTitle("Export a board as JSON"); // in Backlog
  const parent = await byTitle("Dark mode contrast of tag chips"); // in Review, no children
  const { page, context, errors } = await openPage(`${api.url}/boards/${boardId}`);
  await everyLaneLoaded(page);
  // The page's refetch of the ticket is held in the browser, and so is its move.
  let releaseRead = () => {};
  const readHeld = new Promise<void>((held) => {
    void page.route(`**/api/tickets/${moved}`, async (route) => {
      held();
      await new Promise<void>((release) => (releaseRead = release));
      await route.continue();
    });
  });
  let releaseMove = () => {};
  const moveHeld = new Promise<void>((held) => {
    void page.route(`**/api/tickets/${moved}/position`, async (route) => {
      held();
      await new Promise<void>((release) => (releaseMove = release));
      await route.continue();
    });
  });
  const laneOfCard = () =>
    page
      .locator(`#card-${moved}`)
      .evaluate((card) => Number(card.closest<HTMLElement>("[data-lane-id]")?.dataset.laneId));

  // One change names both tickets (a parent gains a child): the refetch reads them, the read of
  // the moved ticket answered (by the server) before the move.
  await api.patch(`/api/tickets/${moved}`, { parentTicketId: parent });
  await readHeld;
  await page.locator(`#card-${moved}`).focus();
  await page.keyboard.press("Shift+ArrowRight");
  await until(laneOfCard, (laneId) => laneId === (lanes[1] as { id: number }).id, "shown moved");
  await moveHeld;
  await page.unroute(`**/api/tickets/${moved}`);
  releaseRead();
  // The same refetch's answer for the parent shows (its children badge), so the stale one for
  // the card came too.
  await page.locator(`#card-${parent} [title$=" child ticket(s)"]`).waitFor();
  assert.equal(await laneOfCard(), (lanes[1] as { id: number }).id, "still shown moved");
  releaseMove();
  await until(
    async () => (await api.get(`/api/tickets/${moved}`)).body.laneId,
    (laneId) => laneId === (lanes[1] as { id: number }).id,
    "moved",
  );
  assert.deepEqual(errors, []);
  await context.close();
});

test("a failed move puts the card back with what changed elsewhere meanwhile, and keeps the rest", async () => {
  const doing = (lanes[1] as { id: number }).id;
  const inDoing = (
    (await api.get(`/api/boards/${boardId}/tickets`)).body.tickets as {
      id: number;
      laneId: number;
    }[]
  ).filter((ticket) => ticket.laneId === doing);
  const [moved, neighbour] = inDoing.map((ticket) => ticket.id) as [number, number];
  const { page, context, errors } = await openPage(`${api.url}/boards/${boardId}`);
  await everyLaneLoaded(page);
  // The move is held in the browser, then refused.
  let refuse = () => {};
  const moveHeld = new Promise<void>((held) => {
    void page.route(`**/api/tickets/${moved}/position`, async (route) => {
      held();
      await new Promise<void>((release) => (refuse = release));
      await route.fulfill({ status: 409, json: { error: "refused by the test" } });
    });
  });
  const laneOfCard = () =>
    page
      .locator(`#card-${moved}`)
      .evaluate((card) => Number(card.closest<HTMLElement>("[data-lane-id]")?.dataset.laneId));
  await page.locator(`#card-${moved}`).focus();
  await page.keyboard.press("Shift+ArrowRight");
  await until(laneOfCard, (laneId) => laneId !== doing, "shown moved");
  await moveHeld;
  // Another client retitles both; the refetch shows the neighbour's (the moved card's read is
  // left aside while its move is on the way). Its message comes after the moved one's.
  await api.patch(`/api/tickets/${moved}`, { title: "Retitled during the move" });
  await api.patch(`/api/tickets/${neighbour}`, { title: "Neighbour retitled" });
  await page.locator(`#card-${neighbour}`).getByText("Neighbour retitled").waitFor();
  refuse();
  await page.locator(".toast-error").getByText("Move failed: refused by the test").waitFor();
  await page.locator(`#card-${moved}`).getByText("Retitled during the move").waitFor();
  assert.equal(await laneOfCard(), doing, "back where it was");
  await page.locator(`#card-${neighbour}`).getByText("Neighbour retitled").waitFor();
  assert.deepEqual(
    errors.filter((error) => !/status of 409 \(Conflict\)$/.test(error)),
    [],
  );
  await context.close();
});
