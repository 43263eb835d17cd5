import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError, createBoard, createTicket } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";

// docs/api.md, "Lanes": lanes carry a soft WIP limit.
const api = await startTestServer();

describe("Lane.wipLimit", () => {
  test("is null by default and set by create and PATCH; null clears it", async () => {
    const { board, lanes } = await createBoard(api, "Limits", ["todo"]);
    assert.equal(lanes[0]?.wipLimit, null);
    const doing = await api.post(`/api/boards/${board.id}/lanes`, { name: "doing", wipLimit: 3 });
    assert.equal(doing.status, 201, doing.text);
    assert.equal(doing.body.wipLimit, 3);

    const limited = await api.patch(`/api/lanes/${lanes[0]?.id}`, { wipLimit: 10_000 });
    assert.equal(limited.status, 200, limited.text);
    assert.deepEqual(limited.body, { ...lanes[0], wipLimit: 10_000 });

    const both = await api.patch(`/api/lanes/${doing.body.id}`, { name: "wip", wipLimit: 1 });
    assert.deepEqual([both.body.name, both.body.wipLimit], ["wip", 1]);
    const cleared = await api.patch(`/api/lanes/${doing.body.id}`, { wipLimit: null });
    assert.deepEqual([cleared.body.name, cleared.body.wipLimit], ["wip", null]);
  });

  test("shows in lane lists, board shells, BoardDetail and the export", async () => {
    const { board, lanes } = await createBoard(api, "Everywhere", ["a", "b"]);
    await api.patch(`/api/lanes/${lanes[1]?.id}`, { wipLimit: 2 });
    const limits = (list: Array<{ wipLimit: unknown }>) => list.map((lane) => lane.wipLimit);
    assert.deepEqual(limits((await api.get(`/api/boards/${board.id}/lanes`)).body.lanes), [
      null,
      2,
    ]);
    assert.deepEqual(limits((await api.get(`/api/boards/${board.id}`)).body.lanes), [null, 2]);
    const detail = await api.get(`/api/boards/${board.id}?include=tickets`);
    assert.deepEqual(limits(detail.body.lanes), [null, 2]);
    const exported = await api.get(`/api/boards/${board.id}/export`);
    assert.deepEqual(limits(exported.body.lanes), [null, 2]);
  });

  test("rejects limits outside 1-10,000 and an empty PATCH with 400, changing nothing", async () => {
    const { board, lanes } = await createBoard(api, "Bad limits", ["a"]);
    const laneId = lanes[0]?.id as number;
    for (const wipLimit of [0, -1, 10_001, 1.5, "3", true]) {
      assertError(await api.patch(`/api/lanes/${laneId}`, { wipLimit }), 400, /wipLimit/);
      assertError(
        await api.post(`/api/boards/${board.id}/lanes`, { name: "x", wipLimit }),
        400,
        /wipLimit/,
      );
    }
    assertError(await api.patch(`/api/lanes/${laneId}`, {}), 400, "name or wipLimit is required");
    assert.deepEqual((await api.get(`/api/boards/${board.id}/lanes`)).body.lanes, lanes);
  });

  test("is soft: tickets are created and moved into a lane over its limit", async () => {
    const { board, lanes } = await createBoard(api, "Soft", ["todo", "doing"]);
    const [todo, doing] = lanes as unknown as [{ id: number }, { id: number }];
    await api.patch(`/api/lanes/${doing.id}`, { wipLimit: 1 });
    await createTicket(api, board.id, { laneId: doing.id, title: "one" });
    await createTicket(api, board.id, { laneId: doing.id, title: "two" });
    const third = await createTicket(api, board.id, { laneId: todo.id, title: "three" });
    const moved = await api.patch(`/api/tickets/${third.id}/transition`, { laneName: "doing" });
    assert.equal(moved.status, 200, moved.text);
  });

  test("round-trips through export and import; an invalid imported limit is a 400 naming the lane", async () => {
    const { board, lanes } = await createBoard(api, "Round trip", ["a", "b"]);
    await api.patch(`/api/lanes/${lanes[0]?.id}`, { wipLimit: 4 });
    const exported = (await api.get(`/api/boards/${board.id}/export`)).body;
    const imported = await api.post("/api/boards/import", exported);
    assert.equal(imported.status, 201, imported.text);
    assert.deepEqual(
      imported.body.lanes.map((lane: { wipLimit: unknown }) => lane.wipLimit),
      [4, null],
    );
    // Documents without the field (other implementations) import with no limits.
    const bare = await api.post("/api/boards/import", {
      board: { name: "bare" },
      lanes: [{ id: 1, name: "only" }],
    });
    assert.equal(bare.body.lanes[0].wipLimit, null);

    const before = (await api.get("/api/boards")).body.boards.length;
    for (const wipLimit of [0, 10_001, 2.5, "4", {}]) {
      const document = {
        board: { name: "bad" },
        lanes: [
          { id: 1, name: "fine", wipLimit: 3 },
          { id: 2, name: "Review", wipLimit },
        ],
      };
      assertError(await api.post("/api/boards/import", document), 400, /lanes\[1\].*"Review"/);
    }
    assert.equal((await api.get("/api/boards")).body.boards.length, before);
  });
});
