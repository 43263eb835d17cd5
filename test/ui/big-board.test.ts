import assert from "node:assert/strict";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { everyLaneLoaded, openPage, until } from "./browser.js";

// A big board shows its first lane's cards while its ticket list is still arriving
// (ui/src/ticket-list-reader.ts, board-sync.ts: the list is read lane by lane, each lane's as a
// stream): the page reaches tack through a proxy that sends the first bytes of one lane's list
// and holds the rest until the test lets it go.

const api = await startTestServer();
const LANE_SIZES = [1500, 600, 600, 300] as const;

/**
 * A proxy to tack that sends the first `sent` bytes of the next answer to lane `laneId`'s list
 * (`?archived=all&lane_id=`, as the page asks for it), then holds the rest until `release()`
 * sends it or `cut()` drops the connection. Other requests, and later lists, go straight
 * through.
 */
async function holdingProxy(laneId: number, sent: number) {
  let held = false;
  let signalHeld = () => {};
  const holding = new Promise<void>((resolve) => (signalHeld = resolve));
  let finish: (how: "rest" | "cut") => void = () => {};
  const finished = new Promise<"rest" | "cut">((resolve) => (finish = resolve));
  const target = new URL(api.url);
  const listOfLane = new RegExp(`^/api/boards/\\d+/tickets\\?archived=all&lane_id=${laneId}$`);
  const proxy = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const hold = listOfLane.test(incoming.url ?? "") && !held;
    if (hold) held = true;
    const upstream = request(
      {
        hostname: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        // As if the page were tack's own (its same-origin checks compare Origin with Host).
        headers: {
          ...incoming.headers,
          host: target.host,
          ...(incoming.headers.origin ? { origin: target.origin } : {}),
        },
      },
      async (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!hold) {
          answer.pipe(outgoing);
          return;
        }
        const chunks: Buffer[] = [];
        for await (const chunk of answer) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks);
        outgoing.write(body.subarray(0, sent));
        signalHeld();
        if ((await finished) === "rest") outgoing.end(body.subarray(sent));
        else outgoing.destroy();
      },
    );
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  after(() => {
    finish("cut");
    proxy.closeAllConnections();
    proxy.close();
  });
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    /** Resolves once the lane's first bytes are sent and the rest is held (fails after 30 s). */
    held: () => withinSeconds(30, holding, `the list of lane ${laneId} held by the proxy`),
    release: () => finish("rest"),
    cut: () => finish("cut"),
  };
}

/** `promise`, or a failure naming `what` once `seconds` have passed. */
async function withinSeconds<T>(seconds: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${seconds} s`)), seconds * 1000);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function importBoard() {
  const lanes = ["Backlog", "Doing", "Review", "Done"].map((name, index) => ({
    id: index + 1,
    name,
    position: index,
  }));
  const tickets = LANE_SIZES.flatMap((size, lane) =>
    Array.from({ length: size }, (_, index) => ({
      id: lane * 10_000 + index + 1,
      laneId: lane + 1,
      title: `Lane ${lane + 1} ticket ${index + 1}`,
      priority: (index % 4) + 1,
      position: index,
    })),
  );
  const answer = await api.request("POST", "/api/boards/import", {
    board: { name: "Huge" },
    lanes,
    tags: [],
    tickets,
  });
  assert.equal(answer.status, 201, answer.text.slice(0, 200));
  const laneIds: number[] = answer.body.lanes.map((lane: { id: number }) => lane.id);
  const list = await api.request("GET", `/api/boards/${answer.body.board.id}/tickets`);
  const first = list.body.tickets.filter((t: { laneId: number }) => t.laneId === laneIds[0]);
  return {
    boardId: answer.body.board.id as number,
    laneIds,
    firstTicket: first[0] as { id: number },
    lastTicket: first[first.length - 1] as { id: number; title: string },
  };
}

describe("a board of thousands of tickets", () => {
  test("is asked for before the page's first render: its shell ahead of the page's other first requests", async () => {
    const { board } = (await api.request("POST", "/api/boards", { name: "Opened first" })).body;
    const asked: string[] = [];
    const { page, context, errors } = await openPage(`${api.url}/boards/${board.id}`, {
      prepare: async (browserContext) =>
        browserContext.on("request", (sent) => asked.push(new URL(sent.url()).pathname)),
    });
    const shell = `/api/boards/${board.id}`;
    // /api/meta is asked for by an effect, which runs after the first paint.
    await until(
      async () => asked.includes(shell) && asked.includes("/api/meta"),
      (both) => both,
      `the board's shell and /api/meta asked for (so far: ${asked.join(", ")})`,
    );
    const before = asked.slice(0, asked.indexOf(shell));
    assert.ok(!before.includes("/api/meta") && !before.includes("/api/asks"), asked.join(", "));
    await page.getByRole("heading", { name: "Opened first", level: 1 }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("shows its first lane's cards while that lane's list arrives, keeps a change made meanwhile, and scrolls to the last card", async () => {
    const board = await importBoard();
    const proxy = await holdingProxy(board.laneIds[0] as number, 64 * 1024);
    const { page, context, errors } = await openPage(`${proxy.url}/boards/${board.boardId}`);
    const [first, , , last] = board.laneIds.map((id) => page.locator(`[data-lane-id="${id}"]`));
    await proxy.held();

    // Only the first lane's first 64 KiB are in: it has cards, the last lane is loading.
    await first?.locator(".card").first().waitFor();
    await last?.getByText("Loading tickets…").waitFor();
    assert.equal(await last?.locator(".card").count(), 0);
    const early = await first?.locator(".card").count();
    assert.ok(early && early < LANE_SIZES[0], `${early} cards of the first lane in the page`);

    // A change made while the list arrives shows once it is in (the stream opened first).
    const renamed = await api.request("PATCH", `/api/tickets/${board.firstTicket.id}`, {
      title: "Renamed while the list arrived",
    });
    assert.equal(renamed.status, 200);
    proxy.release();
    await page.locator(".lane-arriving").first().waitFor({ state: "detached" });
    await last?.locator(".card").first().waitFor();
    await first?.getByText("Renamed while the list arrived").waitFor();
    assert.equal(await first?.locator(".lane-count").textContent(), String(LANE_SIZES[0]));

    // Scrolling the long lane to its end reaches its last card; the lane stays windowed.
    const lastCard = first?.locator(`[data-ticket-id="${board.lastTicket.id}"]`);
    await until(
      async () => {
        await first
          ?.locator("[data-lane-scroller]")
          .evaluate((body) => (body.scrollTop = body.scrollHeight));
        return lastCard?.count();
      },
      (count) => count === 1,
      "the last card of the first lane",
    );
    await lastCard?.getByText(board.lastTicket.title).waitFor();
    const mounted = await first?.locator(".card").count();
    assert.ok(mounted && mounted < 200, `${mounted} cards of ${LANE_SIZES[0]} mounted`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("shows its first lane whole while the next lane's list has not come: the first lane waits for no other lane", async () => {
    const board = await importBoard();
    // Not one byte of the second lane's list: a page that asked for the whole board's list, or
    // for every lane's at once and showed them together, would show no complete first lane.
    const proxy = await holdingProxy(board.laneIds[1] as number, 0);
    const { page, context, errors } = await openPage(`${proxy.url}/boards/${board.boardId}`);
    const lanes = board.laneIds.map((id) => page.locator(`[data-lane-id="${id}"]`));
    const [first, second, , last] = lanes;
    await proxy.held();
    await until(
      async () => first?.locator(".lane-count").textContent(),
      (count) => count === String(LANE_SIZES[0]),
      "the first lane's count, complete",
    );
    assert.equal(await first?.locator(".lane-arriving").count(), 0);
    await first?.locator(`[data-ticket-id="${board.firstTicket.id}"]`).waitFor();
    // Tests wait for every lane (everyLaneLoaded) before they read what the board shows: it
    // cannot pass while a lane is held.
    let loaded = false;
    const waiting = everyLaneLoaded(page).then(() => (loaded = true));
    await second?.getByText("Loading tickets…").waitFor();
    await last?.getByText("Loading tickets…").waitFor();
    assert.equal(await second?.locator(".card").count(), 0);
    assert.equal(await last?.locator(".card").count(), 0);
    // The lanes still loading say so to assistive technology too; the complete one does not.
    assert.deepEqual(await Promise.all(lanes.map((lane) => lane.getAttribute("aria-busy"))), [
      null,
      "true",
      "true",
      "true",
    ]);
    assert.equal(loaded, false, "everyLaneLoaded passed while a lane was held");

    proxy.release();
    await waiting;
    assert.equal(await page.locator(".lane-arriving").count(), 0);
    for (const [index, lane] of lanes.entries()) {
      assert.equal(await lane.locator(".lane-count").textContent(), String(LANE_SIZES[index]));
      assert.equal(await lane.getAttribute("aria-busy"), null);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("the list view and a phone's lane tabs say they are loading until the whole list is in", async () => {
    const board = await importBoard();
    const total = LANE_SIZES.reduce((sum, size) => sum + size, 0);
    const listProxy = await holdingProxy(board.laneIds[1] as number, 0);
    const list = await openPage(`${listProxy.url}/boards/${board.boardId}/list`);
    const grid = list.page.getByRole("grid", { name: "Tickets" });
    await listProxy.held();
    await until(
      () => grid.getAttribute("aria-rowcount"),
      (rows) => rows === String(LANE_SIZES[0] + 1),
      "the first lane's rows",
    );
    assert.equal(await grid.getAttribute("aria-busy"), "true");
    listProxy.release();
    await everyLaneLoaded(list.page);
    assert.equal(await grid.getAttribute("aria-rowcount"), String(total + 1));
    assert.equal(await grid.getAttribute("aria-busy"), null);
    assert.deepEqual(list.errors, []);
    await list.context.close();

    // A WIP limit on the held lane: its tab names no load until the lane is in.
    assert.equal(
      (await api.request("PATCH", `/api/lanes/${board.laneIds[1]}`, { wipLimit: 5 })).status,
      200,
    );
    const phoneProxy = await holdingProxy(board.laneIds[1] as number, 0);
    const phone = await openPage(`${phoneProxy.url}/boards/${board.boardId}`, {
      width: 390,
      height: 844,
      hasTouch: true,
    });
    await phoneProxy.held();
    const tabs = phone.page.getByRole("tab");
    await until(
      () => tabs.first().innerText(),
      (text) => /^Backlog\s*1500$/.test(text.trim()),
      "the first lane's tab, complete",
    );
    assert.match((await tabs.nth(1).innerText()).trim(), /^Doing\s*0…$/);
    assert.equal(await tabs.nth(1).getAttribute("aria-busy"), "true");
    assert.equal(await tabs.nth(1).getAttribute("aria-label"), null);
    assert.equal(await tabs.first().getAttribute("aria-busy"), null);
    phoneProxy.release();
    await everyLaneLoaded(phone.page);
    await phone.page
      .getByRole("tab", { name: "Doing, over its WIP limit: 600 open, limit 5" })
      .waitFor();
    assert.deepEqual(phone.errors, []);
    await phone.context.close();
  });

  test("a list cut off halfway says the board cannot be shown instead of showing half of it", async () => {
    const board = await importBoard();
    const proxy = await holdingProxy(board.laneIds[0] as number, 64 * 1024);
    const { page, context } = await openPage(`${proxy.url}/boards/${board.boardId}`);
    await proxy.held();
    await page.locator(".card").first().waitFor();
    proxy.cut();
    await page.getByRole("heading", { name: "This board cannot be shown" }).waitFor();
    assert.equal(await page.locator(".card").count(), 0);
    await context.close();
  });
});
