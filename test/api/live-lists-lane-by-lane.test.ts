import assert from "node:assert/strict";
import { test } from "node:test";
import { liveLists } from "./live-lists-setup.js";

// A board read one lane at a time, as the UI reads it: the kept list then holds the lanes read so
// far (src/kept-answers/board-lists.ts `current`) while tickets move in and out of the others;
// each answer compared with the reference server's (live-lists-setup.ts).

const { compareLists, fresh, importBoard, live } = await liveLists();

test("a board read lane by lane answers what a fresh computation gives while other lanes are unread", async () => {
  const board = await importBoard("Lanes", 30);
  const [first, second, third] = board.laneIds as [number, number, number];
  const compareLane = async (laneId: number, step: string) => {
    for (const form of [`?lane_id=${laneId}&archived=all`, `?lane_id=${laneId}`]) {
      const path = `/api/boards/${board.id}/tickets${form}`;
      const [mine, reference] = [await live.get(path), await fresh.get(path)];
      assert.equal(mine.status, 200, `${step}: ${path}`);
      assert.equal(mine.text, reference.text, `${step}: ${path} differs`);
    }
  };
  const inLane = async (laneId: number) =>
    (await fresh.get(`/api/boards/${board.id}/tickets?lane_id=${laneId}`)).body.tickets.map(
      (ticket: { id: number }) => ticket.id,
    ) as number[];
  await compareLane(first, "the first lane read");
  const steps: Array<[string, () => Promise<unknown>]> = [
    [
      "a ticket of an unread lane moved into the read one",
      async () => live.patch(`/api/tickets/${(await inLane(second))[0]}`, { laneId: first }),
    ],
    [
      "a ticket of the read lane moved to an unread one",
      async () => live.patch(`/api/tickets/${(await inLane(first))[1]}`, { laneId: third }),
    ],
    [
      "a ticket created in an unread lane",
      () => live.post(`/api/boards/${board.id}/tickets`, { laneId: second, title: "new" }),
    ],
    [
      "a ticket of an unread lane retitled",
      async () => live.patch(`/api/tickets/${(await inLane(third))[0]}`, { title: "retitled" }),
    ],
    [
      "a ticket of the read lane archived",
      async () => live.patch(`/api/tickets/${(await inLane(first))[0]}`, { isArchived: true }),
    ],
    [
      "a ticket placed at the top of the read lane from an unread one",
      async () =>
        live.patch(`/api/tickets/${(await inLane(third))[1]}/position`, {
          laneId: first,
          position: 0,
        }),
    ],
  ];
  for (const [change, write] of steps) {
    await write();
    await compareLane(first, `after ${change}`);
  }
  // claim-next while two lanes are unread: its pick is the ready queue's head.
  const queue = await fresh.get(`/api/boards/${board.id}/tickets?ready=true`);
  const claimed = await live.post(`/api/boards/${board.id}/claim-next`, { actor: "agent" });
  assert.equal(claimed.status, 200, claimed.text);
  assert.equal(claimed.body.id, queue.body.tickets[0].id);
  await compareLane(second, "the second lane read after the changes");
  await live.patch(`/api/tickets/${(await inLane(third))[0]}`, { laneId: second });
  await compareLane(second, "after a ticket of the unread lane moved into the second");
  await compareLane(first, "the first lane again");
  await compareLane(third, "the last lane read");
  await compareLists(board, "the whole board after it was read lane by lane");
});
