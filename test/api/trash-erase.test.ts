import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { resolveServeConfig } from "../../src/config.js";
import { useClock } from "../../src/domain/clock.js";
import { assertError } from "../helpers/factories.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { boardWithTickets, newTicket } from "../helpers/tickets.js";
import { DAY, trashRequests } from "./trash-setup.js";

// docs/api.md, "The trash": erasing, expiry, ids never given again, and the trash period.

const api = await startTestServer();
let clock = Date.parse("2030-01-01T00:00:00.000Z");
after(useClock(() => clock));
const { deleted, entryOf, restore, trash } = trashRequests(api);

describe("erase, expiry and ids", () => {
  test("unknown entries: 404; malformed ids: 400", async () => {
    assertError(await restore(999_999), 404, "trash entry not found");
    assertError(await api.delete("/api/trash/999999"), 404, "trash entry not found");
    assertError(await api.post("/api/trash/abc/restore"), 400);
    assertError(await api.get("/api/trash?boardId=x"), 400);
  });

  test("an erased object's ids are never given again", async () => {
    const {
      board,
      tickets: [t],
    } = await boardWithTickets(api, "erase", ["t"]);
    const c = (await api.post(`/api/tickets/${t.id}/comments`, { bodyMarkdown: "c" })).body;
    await deleted(`/api/tickets/${t.id}`);
    const entry = await entryOf("ticket", t.id);
    assert.equal((await api.delete(`/api/trash/${entry.id}`)).status, 204);
    assertError(await restore(entry.id), 404);
    const next = await newTicket(api, board.boardId, board.laneIds[0], "next");
    const nextComment = (await api.post(`/api/tickets/${next.id}/comments`, { bodyMarkdown: "n" }))
      .body;
    assert.ok(next.id > t.id);
    assert.ok(nextComment.id > c.id);
    assertError(await api.get(`/api/tickets/${t.id}`), 404);
  });

  test("entries expire after the trash period without being asked", async () => {
    const {
      tickets: [t],
    } = await boardWithTickets(api, "expiry", ["t"]);
    await deleted(`/api/tickets/${t.id}`);
    const entry = await entryOf("ticket", t.id);
    clock += 30 * DAY - 1;
    assert.ok((await trash()).some((item) => item.id === entry.id));
    clock += 1;
    api.server.services.trash.purgeExpired();
    const rows = api.server.db
      .prepare("SELECT count(*) AS n FROM trash WHERE id = ?")
      .get(entry.id);
    assert.deepEqual(rows, { n: 0 });
    assertError(await restore(entry.id), 404);
  });
});

describe("--trash-days 0", () => {
  test("deletes erase at once, as before", async () => {
    const zero: TestServer = await startTestServer({ trashDays: 0 });
    after(() => zero.close());
    const shell = (await zero.post("/api/boards", { name: "b" })).body;
    const t = (
      await zero.post(`/api/boards/${shell.board.id}/tickets`, {
        laneId: shell.lanes[0].id,
        title: "t",
      })
    ).body;
    assert.equal((await zero.delete(`/api/tickets/${t.id}`)).status, 204);
    assert.equal((await zero.delete(`/api/boards/${shell.board.id}`)).status, 204);
    assert.deepEqual((await zero.get("/api/trash")).body, { items: [] });
    assert.deepEqual(zero.server.db.prepare("SELECT count(*) AS n FROM trash").get(), { n: 0 });
  });
});

test("--trash-days / TACK_TRASH_DAYS: a whole number from 0 to 36500, 30 when not given", () => {
  const flags = { host: "127.0.0.1", port: "0", db: "x.sqlite", logLevel: "warn" };
  assert.equal(resolveServeConfig(flags).config.trashDays, 30);
  assert.equal(resolveServeConfig({ ...flags, trashDays: "0" }).config.trashDays, 0);
  assert.equal(resolveServeConfig({ ...flags, trashDays: "36500" }).config.trashDays, 36500);
  for (const bad of ["-1", "1.5", "x", "", "36501"]) {
    assert.throws(
      () => resolveServeConfig({ ...flags, trashDays: bad }),
      /invalid trash days .*: expected an integer from 0 to 36500/,
      bad,
    );
  }
});
