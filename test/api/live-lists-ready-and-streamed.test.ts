import assert from "node:assert/strict";
import { after, test } from "node:test";
import { useClock } from "../../src/domain/clock.js";
import { type BoardState, liveLists } from "./live-lists-setup.js";

// Ready lists the live server keeps, after changes that reach them through other rows or the
// clock alone, and lists too big to copy, streamed as they are kept; each compared with the
// reference server's (live-lists-setup.ts).

const { compareLists, fresh, importBoard, live } = await liveLists();
let clock = Date.parse("2030-01-01T00:00:00.000Z");
after(useClock(() => clock));
const boards = [await importBoard("Main", 36)];

test("the ready list follows a parent's blocker, which changes no row of the child", async () => {
  const board = await importBoard("Family", 0);
  const create = async (title: string, extra: Record<string, unknown> = {}) =>
    (
      await live.post(`/api/boards/${board.id}/tickets`, {
        laneId: board.laneIds[0],
        title,
        ...extra,
      })
    ).body.id;
  const blocker = await create("blocker");
  const parent = await create("parent", { blockerIds: [blocker] });
  // In a lane of its own: nothing in its lane changes when the parent's blocker is resolved.
  const child = await create("child", {
    parentTicketId: parent,
    isResolved: true,
    laneId: board.laneIds[1],
  });
  await live.patch(`/api/tickets/${child}`, { isResolved: false });
  await compareLists(board, "parent blocked");
  await live.patch(`/api/tickets/${blocker}`, { isResolved: true });
  await compareLists(board, "parent's blocker resolved");
  const ready = await live.get(`/api/boards/${board.id}/tickets?ready=true`);
  assert.ok(ready.body.tickets.some((ticket: { id: number }) => ticket.id === child));
});

test("a claim ending by the clock puts its ticket back in a ready list no other list showed", async () => {
  const board = await importBoard("Claims", 4);
  const ready = `/api/boards/${board.id}/tickets?ready=true`;
  const claimed = (await live.get(ready)).body.tickets[1].id;
  const claim = await live.post(`/api/tickets/${claimed}/claim`, {
    actor: "agent",
    leaseSeconds: 60,
  });
  assert.equal(claim.status, 200);
  // Only ready lists are read: no piece showing the claim is ever made.
  const during = await live.get(ready);
  assert.ok(!during.body.tickets.some((ticket: { id: number }) => ticket.id === claimed));
  clock += 61_000;
  const [mine, reference] = [await live.get(ready), await fresh.get(ready)];
  assert.equal(mine.text, reference.text, "the ready list after the claim ended differs");
  assert.ok(mine.body.tickets.some((ticket: { id: number }) => ticket.id === claimed));
});

test("a priority changed in place moves the ticket within the kept ready queue", async () => {
  const board = await importBoard("Priorities", 0);
  for (const priority of [1, 2, 3]) {
    await live.post(`/api/boards/${board.id}/tickets`, {
      laneId: board.laneIds[0],
      title: `p${priority}`,
      priority,
    });
  }
  const ready = `/api/boards/${board.id}/tickets?ready=true`;
  const [first] = (await live.get(ready)).body.tickets;
  await live.patch(`/api/tickets/${first.id}`, { priority: 1 });
  const [mine, reference] = [await live.get(ready), await fresh.get(ready)];
  assert.equal(mine.text, reference.text, "the ready list after a priority change differs");
});

test("a list too big to copy is streamed as it is kept: the same bytes, length and headers", async () => {
  // 800 tickets make a list of more than 256 KB (the route streams those).
  const board = await importBoard("Big", 800);
  const path = `/api/boards/${board.id}/tickets?archived=all`;
  const [mine, reference] = [await live.get(path), await fresh.get(path)];
  assert.ok(mine.text.length > 256 * 1024, `only ${mine.text.length} characters`);
  assert.equal(mine.text, reference.text, "the streamed list differs");
  assert.equal(mine.headers.get("content-length"), String(Buffer.byteLength(mine.text)));
  assert.equal(mine.headers.get("transfer-encoding"), null);
  assert.equal(mine.headers.get("content-type"), "application/json; charset=utf-8");
  const head = await live.request("HEAD", path);
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-length"), mine.headers.get("content-length"));
  assert.equal(head.headers.get("etag"), mine.headers.get("etag"));
  const again = await live.request("GET", path, undefined, {
    "if-none-match": mine.headers.get("etag") as string,
  });
  assert.equal(again.status, 304);
});

test("a list above Node's pooled size is streamed too, with its length; a smaller one is copied", async () => {
  // From 4 KB on the route sends a list as its kept parts (a buffer of its own per answer would
  // outlive its request in the old generation); below it, one copy from Node's pool.
  const board = boards[0] as BoardState;
  for (const path of [
    `/api/boards/${board.id}/tickets?archived=all`,
    `/api/boards/${board.id}/tickets?q=%23999`,
  ]) {
    const [mine, reference] = [await live.get(path), await fresh.get(path)];
    assert.equal(mine.text, reference.text, `${path} differs`);
    assert.equal(mine.headers.get("content-length"), String(Buffer.byteLength(mine.text)));
    assert.equal(mine.headers.get("transfer-encoding"), null);
    const head = await live.request("HEAD", path);
    assert.equal(head.headers.get("content-length"), mine.headers.get("content-length"));
  }
  const big = await live.get(`/api/boards/${board.id}/tickets?archived=all`);
  assert.ok(big.text.length > 4096, `only ${big.text.length} characters`);
});
