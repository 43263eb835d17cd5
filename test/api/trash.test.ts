import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { resolveServeConfig } from "../../src/config.js";
import { useClock } from "../../src/domain/clock.js";
import { assertError, createTag } from "../helpers/factories.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { SseClient } from "../helpers/sse-client.js";
import {
  boardWithLanes,
  boardWithTickets,
  everythingAbout,
  getTicket,
  idsOf,
  listTickets,
  newTicket,
  patchTicket,
  ticketWithEverything,
} from "../helpers/tickets.js";

// docs/api.md, "The trash": deletes go to the trash and come back exactly, with the same ids.

const api = await startTestServer();
let clock = Date.parse("2030-01-01T00:00:00.000Z");
after(useClock(() => clock));
const DAY = 24 * 60 * 60 * 1000;

async function trash(query = ""): Promise<any[]> {
  const response = await api.get(`/api/trash${query}`);
  assert.equal(response.status, 200, response.text);
  return response.body.items;
}

/** The trash entry of the object just deleted. */
async function entryOf(kind: string, objectId: number): Promise<any> {
  const entry = (await trash()).find((item) => item.kind === kind && item.objectId === objectId);
  assert.ok(entry, `no trash entry for ${kind} ${objectId}`);
  return entry;
}

async function restore(entryId: number) {
  return api.post(`/api/trash/${entryId}/restore`);
}

async function deleted(path: string) {
  const response = await api.delete(path);
  assert.equal(response.status, 204, response.text);
  assertError(await api.get(path), 404);
}

const without = (object: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));

describe("a deleted ticket", () => {
  test("is gone everywhere, then restored exactly: fields, comments, events, links, activity, position", async () => {
    const f = await ticketWithEverything(api, "exact");
    const was = await everythingAbout(api, f.rich.id);
    const neighbours = await Promise.all(
      [f.parent, f.blocker, f.blocked, f.related].map((t) => getTicket(api, t.id)),
    );
    const exportBefore = (await api.get(`/api/boards/${f.board.boardId}/export`)).body;

    await deleted(`/api/tickets/${f.rich.id}`);
    // Gone from lists, filters, search, the ready queue, relations of others and the export.
    const boardId = f.board.boardId;
    for (const query of [
      "",
      "archived=all",
      `tag=exact-bug`,
      "q=rich",
      "q=acme",
      `q=%23${f.rich.id}`,
      "ready=true",
    ]) {
      assert.ok(!idsOf(await listTickets(api, boardId, query)).includes(f.rich.id), query);
    }
    for (const t of [f.parent, f.blocker, f.blocked, f.related]) {
      const now = await getTicket(api, t.id);
      const linked = [
        now.children,
        now.blockers,
        now.blockedBy,
        now.related,
        now.blockerIds,
        now.relatedIds,
      ]
        .flat()
        .map((item: any) => (typeof item === "number" ? item : item.id));
      assert.ok(!linked.includes(f.rich.id), `ticket ${t.id} still links the deleted one`);
    }
    const exported = (await api.get(`/api/boards/${boardId}/export`)).body;
    assert.ok(!idsOf(exported.tickets).includes(f.rich.id));
    assertError(await api.get(`/api/comments/${was.comments.comments?.[0]?.id ?? 0}`), 404);

    const entry = await entryOf("ticket", f.rich.id);
    assert.deepEqual(without(entry, "id", "deletedAt", "expiresAt"), {
      kind: "ticket",
      objectId: f.rich.id,
      boardId,
      label: "rich",
    });
    assert.equal(Date.parse(entry.expiresAt) - Date.parse(entry.deletedAt), 30 * DAY);

    const restored = await restore(entry.id);
    assert.equal(restored.status, 200, restored.text);
    assert.deepEqual(restored.body, { kind: "ticket", objectId: f.rich.id });

    const now = await everythingAbout(api, f.rich.id);
    assert.ok(now.ticket.version > was.ticket.version, "the version moves on");
    assert.deepEqual(without(now.ticket, "version"), without(was.ticket, "version"));
    assert.deepEqual(now.comments, was.comments);
    assert.deepEqual(now.events, was.events);
    assert.deepEqual(now.reasons, was.reasons);
    assert.deepEqual(now.relations, was.relations);
    // The history is the same, with the deletion and the restore on top.
    assert.deepEqual(
      now.activity.slice(0, 2).map((entry: any) => entry.action),
      ["ticket_undeleted", "ticket_deleted"],
    );
    assert.deepEqual(now.activity[0].details.droppedLinks, []);
    assert.deepEqual(now.activity.slice(2), was.activity);
    const neighboursNow = await Promise.all(
      [f.parent, f.blocker, f.blocked, f.related].map((t) => getTicket(api, t.id)),
    );
    neighboursNow.forEach((t, index) => {
      assert.deepEqual(
        without(t, "version", "claim"),
        without(neighbours[index], "version", "claim"),
      );
    });
    const exportAfter = (await api.get(`/api/boards/${boardId}/export`)).body;
    assert.deepEqual(exportAfter, exportBefore);
    assert.ok(idsOf(await listTickets(api, boardId, "q=rich")).includes(f.rich.id));
    assert.ok(idsOf(await listTickets(api, boardId, "q=acme")).includes(f.rich.id));
    assert.equal(
      (await trash()).some((item) => item.id === entry.id),
      false,
      "entry left",
    );
    assertError(await restore(entry.id), 404, "trash entry not found");
  });

  test("links that would break a rule now are dropped and listed; missing ones left out", async () => {
    const {
      tickets: [a, b, c, p, q, gone],
    } = await boardWithTickets(api, "rules", ["a", "b", "c", "p", "q", "gone"]);
    await patchTicket(api, a.id, {
      blockerIds: [c.id],
      parentTicketId: p.id,
      relatedIds: [gone.id],
    });
    await patchTicket(api, b.id, { blockerIds: [a.id] });
    await deleted(`/api/tickets/${a.id}`);
    // Now C is blocked by B (A -> C -> B would close a cycle with B blocked by A) and P is a child.
    await patchTicket(api, c.id, { blockerIds: [b.id] });
    await patchTicket(api, p.id, { parentTicketId: q.id });
    const erase = await api.delete(`/api/tickets/${gone.id}`);
    assert.equal(erase.status, 204);
    const restored = await restore((await entryOf("ticket", a.id)).id);
    assert.equal(restored.status, 200, restored.text);
    const ticket = await getTicket(api, a.id);
    assert.equal(ticket.parentTicketId, null);
    assert.deepEqual(ticket.blockerIds, [c.id]);
    assert.deepEqual(ticket.relatedIds, []);
    assert.deepEqual((await getTicket(api, b.id)).blockerIds, []);
    const undeleted = (await api.get(`/api/tickets/${a.id}/activity`)).body.activity[0];
    assert.equal(undeleted.action, "ticket_undeleted");
    assert.deepEqual(undeleted.details.droppedLinks, [
      { link: "parent", ticketId: p.id, reason: "is a child ticket; parents cannot be nested" },
      { link: "blocking", ticketId: b.id, reason: "blocker would create a cycle" },
    ]);
  });

  test("a ticket comes back at its old position; the others are renumbered", async () => {
    const { board, tickets } = await boardWithTickets(api, "positions", 4);
    await deleted(`/api/tickets/${tickets[1].id}`);
    assert.deepEqual(
      (await listTickets(api, board.boardId)).map((t) => [t.title, t.position]),
      [
        ["t0", 0],
        ["t2", 1],
        ["t3", 2],
      ],
    );
    await restore((await entryOf("ticket", tickets[1].id)).id);
    assert.deepEqual(
      (await listTickets(api, board.boardId)).map((t) => [t.title, t.position]),
      [
        ["t0", 0],
        ["t1", 1],
        ["t2", 2],
        ["t3", 3],
      ],
    );
  });

  test("claims are not restored; restoring sends board_updated and changes the list's ETag", async () => {
    const {
      board,
      tickets: [t],
    } = await boardWithTickets(api, "claims", ["claimed"]);
    assert.equal((await api.post(`/api/tickets/${t.id}/claim`, { actor: "bot" })).status, 200);
    await deleted(`/api/tickets/${t.id}`);
    const etag = (await api.get(`/api/boards/${board.boardId}/tickets`)).headers.get("etag");
    await restore((await entryOf("ticket", t.id)).id);
    assert.equal((await getTicket(api, t.id)).claim, null);
    const list = await api.get(`/api/boards/${board.boardId}/tickets`);
    assert.notEqual(list.headers.get("etag"), etag);
    assert.deepEqual(idsOf(list.body.tickets), [t.id]);
  });
});

describe("the stream and insights follow deletes and restores", () => {
  test("a restore sends board_updated naming the ticket; insights leave a deleted ticket out", async () => {
    const {
      board,
      tickets: [t],
    } = await boardWithTickets(api, "stream", ["watched"]);
    const aging = async () =>
      (await api.get(`/api/boards/${board.boardId}/insights`)).body.aging.map(
        (entry: any) => entry.ticketId,
      );
    assert.deepEqual(await aging(), [t.id]);
    await deleted(`/api/tickets/${t.id}`);
    assert.deepEqual(await aging(), []);
    const entry = await entryOf("ticket", t.id);
    const stream = await SseClient.open(`${api.url}/api/boards/${board.boardId}/events`);
    try {
      await stream.waitUntil(() => stream.comments.includes("connected"));
      assert.equal((await restore(entry.id)).status, 200);
      await stream.waitUntil(() => stream.messages.length >= 1);
      assert.equal(stream.messages[0]?.data.event, "board_updated");
      assert.deepEqual(stream.messages[0]?.data.ticketIds, [t.id]);
    } finally {
      stream.close();
    }
    assert.deepEqual(await aging(), [t.id]);
  });
});

describe("comments, tags, lanes and boards", () => {
  test("a comment comes back on its ticket with its reason link; comment_undeleted recorded", async () => {
    const f = await ticketWithEverything(api, "comment");
    const was = await everythingAbout(api, f.rich.id);
    const first = was.comments.comments.at(-1);
    await deleted(`/api/comments/${first.id}`);
    assert.equal((await api.get(`/api/tickets/${f.rich.id}/comments`)).body.comments.length, 1);
    const entry = await entryOf("comment", first.id);
    assert.equal(entry.label, "first");
    assert.equal(entry.boardId, f.board.boardId);
    assert.equal((await restore(entry.id)).status, 200);
    const now = await everythingAbout(api, f.rich.id);
    assert.deepEqual(now.comments, was.comments);
    assert.deepEqual(now.reasons, was.reasons);
    assert.deepEqual(
      now.activity.slice(0, 2).map((e: any) => e.action),
      ["comment_undeleted", "comment_deleted"],
    );
    assert.deepEqual(now.activity.slice(2), was.activity);
  });

  test("a tag comes back with its links (and reasons) to tickets that still exist", async () => {
    const f = await ticketWithEverything(api, "tag");
    const other = await newTicket(api, f.board.boardId, f.todo, "other", { tagIds: [f.tag.id] });
    const gone = await newTicket(api, f.board.boardId, f.todo, "gone", { tagIds: [f.tag.id] });
    const was = await everythingAbout(api, f.rich.id);
    const shell = (await api.get(`/api/boards/${f.board.boardId}`)).body;
    await deleted(`/api/tags/${f.tag.id}`);
    assert.deepEqual(idsOf(await listTickets(api, f.board.boardId, "tag=tag-bug")), []);
    await api.delete(`/api/tickets/${gone.id}`);
    assert.equal((await restore((await entryOf("tag", f.tag.id)).id)).status, 200);
    assert.deepEqual((await api.get(`/api/boards/${f.board.boardId}`)).body.tags, shell.tags);
    const now = await everythingAbout(api, f.rich.id);
    assert.deepEqual(without(now.ticket, "version"), without(was.ticket, "version"));
    assert.deepEqual(now.reasons, was.reasons);
    assert.deepEqual(
      idsOf(await listTickets(api, f.board.boardId, "tag=tag-bug")).sort(),
      [f.rich.id, other.id].sort(),
    );
  });

  test("a tag whose name was taken meanwhile: 409, nothing restored", async () => {
    const board = await boardWithLanes(api, "taken");
    const tag = await createTag(api, board.boardId, "dup");
    await deleted(`/api/tags/${tag.id}`);
    await createTag(api, board.boardId, "DUP");
    const entry = await entryOf("tag", tag.id);
    assertError(await restore(entry.id), 409, "a tag named DUP already exists on this board");
    assert.ok(
      (await trash()).some((item) => item.id === entry.id),
      "entry stays",
    );
  });

  test("a lane comes back at its position, with its WIP limit", async () => {
    const board = await boardWithLanes(api, "lanes", ["a", "b", "c"]);
    const limited = await api.patch(`/api/lanes/${board.lane("b")}`, { wipLimit: 3 });
    assert.equal(limited.status, 200, limited.text);
    const lanes = (await api.get(`/api/boards/${board.boardId}`)).body.lanes;
    await deleted(`/api/lanes/${board.lane("b")}`);
    assert.deepEqual(
      (await api.get(`/api/boards/${board.boardId}`)).body.lanes.map((l: any) => l.position),
      [0, 1],
    );
    await restore((await entryOf("lane", board.lane("b"))).id);
    assert.deepEqual((await api.get(`/api/boards/${board.boardId}`)).body.lanes, lanes);
  });

  test("a board comes back whole: shell, tickets, details, export, templates, activity, position", async () => {
    const f = await ticketWithEverything(api, "whole");
    const boardId = f.board.boardId;
    const template = await api.post(`/api/boards/${boardId}/templates`, {
      name: "Kept",
      tickets: [{ key: "a", title: "A {{x}}" }],
    });
    assert.equal(template.status, 201, template.text);
    const templates = (await api.get(`/api/boards/${boardId}/templates`)).body;
    const boardsBefore = (await api.get("/api/boards")).body.boards;
    const shell = (await api.get(`/api/boards/${boardId}`)).body;
    const exported = (await api.get(`/api/boards/${boardId}/export`)).body;
    const ticketIds = idsOf(await listTickets(api, boardId, "archived=all"));
    const details = await Promise.all(ticketIds.map((id) => everythingAbout(api, id)));
    await deleted(`/api/boards/${boardId}`);
    for (const id of ticketIds) assertError(await api.get(`/api/tickets/${id}`), 404);
    assertError(await api.get(`/api/templates/${template.body.id}`), 404);
    assert.ok(!idsOf((await api.get("/api/boards")).body.boards).includes(boardId));
    const entry = await entryOf("board", boardId);
    assert.equal(entry.boardId, boardId);
    assert.equal(entry.label, "whole");
    assert.deepEqual(idsOf(await trash(`?boardId=${boardId}`)), [entry.id]);

    assert.equal((await restore(entry.id)).status, 200);
    assert.deepEqual((await api.get("/api/boards")).body.boards, boardsBefore);
    assert.deepEqual((await api.get(`/api/boards/${boardId}`)).body, shell);
    assert.deepEqual((await api.get(`/api/boards/${boardId}/export`)).body, exported);
    // Its templates come back too, same ids.
    assert.deepEqual((await api.get(`/api/boards/${boardId}/templates`)).body, templates);
    assert.deepEqual((await api.get(`/api/templates/${template.body.id}`)).body, template.body);
    const now = await Promise.all(ticketIds.map((id) => everythingAbout(api, id)));
    now.forEach((n, index) => {
      const w = details[index] as any;
      assert.deepEqual(without(n.ticket, "version"), without(w.ticket, "version"));
      assert.deepEqual(n.comments, w.comments);
      assert.deepEqual(n.events, w.events);
      assert.deepEqual(n.reasons, w.reasons);
      assert.deepEqual(n.relations, w.relations);
      // Tickets that come back with their board get no entry of their own.
      assert.deepEqual(n.activity, w.activity);
    });
    assert.ok(idsOf(await listTickets(api, boardId, "q=acme")).includes(f.rich.id));
  });
});

describe("409s: what an object hangs on must come back first", () => {
  test("a ticket whose board is in the trash, then erased", async () => {
    const {
      board,
      tickets: [t],
    } = await boardWithTickets(api, "parent-gone", ["t"]);
    await deleted(`/api/tickets/${t.id}`);
    await deleted(`/api/boards/${board.boardId}`);
    const boardEntry = await entryOf("board", board.boardId);
    const ticketEntry = await entryOf("ticket", t.id);
    assertError(
      await restore(ticketEntry.id),
      409,
      `board ${board.boardId} is in the trash: restore trash entry ${boardEntry.id} first`,
    );
    assert.equal((await api.delete(`/api/trash/${boardEntry.id}`)).status, 204);
    assertError(await restore(ticketEntry.id), 409, `board ${board.boardId} was erased`);
  });

  test("a ticket whose lane is in the trash; a comment whose ticket is", async () => {
    const board = await boardWithLanes(api, "lane-gone");
    const lane = board.lane("doing");
    const t = await newTicket(api, board.boardId, lane, "t");
    const comment = (await api.post(`/api/tickets/${t.id}/comments`, { bodyMarkdown: "c" })).body;
    await deleted(`/api/comments/${comment.id}`);
    await deleted(`/api/tickets/${t.id}`);
    await deleted(`/api/lanes/${lane}`);
    const laneEntry = await entryOf("lane", lane);
    const ticketEntry = await entryOf("ticket", t.id);
    assertError(
      await restore(ticketEntry.id),
      409,
      `lane ${lane} is in the trash: restore trash entry ${laneEntry.id} first`,
    );
    assertError(
      await restore((await entryOf("comment", comment.id)).id),
      409,
      `ticket ${t.id} is in the trash: restore trash entry ${ticketEntry.id} first`,
    );
    assert.equal((await restore(laneEntry.id)).status, 200);
    assert.equal((await restore(ticketEntry.id)).status, 200);
    assert.equal((await restore((await entryOf("comment", comment.id)).id)).status, 200);
    assert.equal((await api.get(`/api/tickets/${t.id}/comments`)).body.comments.length, 1);
  });

  test("a tracked remote issue taken by another ticket meanwhile", async () => {
    const {
      tickets: [t, other],
    } = await boardWithTickets(api, "remote", ["tracked", "other"]);
    const link = (ticketId: number) =>
      api.server.db
        .prepare(
          `INSERT INTO remote_links (ticket_id, provider, instance_url, project_key, issue_key,
             display_ref, url, title, body_markdown, body_html, last_synced_at, created_at, updated_at)
           VALUES (?, 'github', 'https://github.com', 'acme/app', '9', 'acme/app#9',
             'https://github.com/acme/app/issues/9', 'x', '', '', 'now', 'now', 'now')`,
        )
        .run(ticketId);
    link(t.id);
    await deleted(`/api/tickets/${t.id}`);
    link(other.id);
    assertError(
      await restore((await entryOf("ticket", t.id)).id),
      409,
      `remote issue github acme/app#9 is tracked by ticket ${other.id} now`,
    );
  });
});

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

describe("asks go with their ticket (docs/api.md, Asks)", () => {
  async function ticketWithAsks(name: string) {
    const board = await boardWithLanes(api, name);
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], name);
    const opened = await api.post(`/api/tickets/${ticket.id}/asks`, {
      actor: "agent",
      question: "Which **way**?",
      options: ["left", "right"],
    });
    const answered = await api.post(`/api/tickets/${ticket.id}/asks`, {
      actor: "agent",
      question: "Ready?",
    });
    assert.equal(opened.status, 201, opened.text);
    assert.equal(answered.status, 201, answered.text);
    const answer = await api.post(`/api/asks/${answered.body.id}/answer`, { by: "dev", text: "y" });
    assert.equal(answer.status, 200, answer.text);
    const asks = (await api.get(`/api/tickets/${ticket.id}/asks`)).body.asks;
    return { board, ticket, asks: asks as any[] };
  }

  async function assertGone(asks: any[], boardId: number) {
    for (const ask of asks) assertError(await api.get(`/api/asks/${ask.id}`), 404, "ask not found");
    const all = idsOf((await api.get("/api/asks?status=all")).body.asks);
    for (const ask of asks) assert.ok(!all.includes(ask.id), `ask ${ask.id} still listed`);
    assert.equal((await api.get(`/api/asks?status=all&boardId=${boardId}`)).status, 404);
  }

  async function assertBack(asks: any[], ticketId: number) {
    assert.deepEqual((await api.get(`/api/tickets/${ticketId}/asks`)).body.asks, asks);
    for (const ask of asks) assert.deepEqual((await api.get(`/api/asks/${ask.id}`)).body, ask);
    const open = idsOf((await api.get("/api/asks")).body.asks);
    assert.ok(open.includes(asks[0].id), "the open ask is in the inbox again");
    assert.ok(!open.includes(asks[1].id), "the answered one is not open");
  }

  test("a deleted ticket takes its asks; restoring it brings them back, same ids", async () => {
    const { board, ticket, asks } = await ticketWithAsks("asks of a ticket");
    await deleted(`/api/tickets/${ticket.id}`);
    for (const ask of asks) assertError(await api.get(`/api/asks/${ask.id}`), 404, "ask not found");
    const all = idsOf((await api.get("/api/asks?status=all")).body.asks);
    for (const ask of asks) assert.ok(!all.includes(ask.id), `ask ${ask.id} still listed`);
    assert.deepEqual(
      (await api.get(`/api/asks?status=all&boardId=${board.boardId}`)).body.asks,
      [],
    );

    assert.equal((await restore((await entryOf("ticket", ticket.id)).id)).status, 200);
    await assertBack(asks, ticket.id);
  });

  test("a deleted board takes its tickets' asks; restoring it brings them back", async () => {
    const { board, ticket, asks } = await ticketWithAsks("asks of a board");
    await deleted(`/api/boards/${board.boardId}`);
    await assertGone(asks, board.boardId);
    assert.equal((await restore((await entryOf("board", board.boardId)).id)).status, 200);
    await assertBack(asks, ticket.id);
  });
});
