import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError } from "../helpers/factories.js";
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
import { DAY, trashTestServer, without } from "./trash-setup.js";

// docs/api.md, "The trash": a deleted ticket comes back exactly, with the same ids, its asks
// too, and the stream and insights follow.

const { api, deleted, entryOf, restore, trash } = await trashTestServer();

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
