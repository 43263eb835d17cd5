import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { assertError, createTag, snapshot } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { SseClient, sleep } from "../helpers/sse-client.js";
import {
  boardWithLanes,
  getTicket,
  idsOf,
  layout,
  listTickets,
  newTicket,
  patchTicket,
} from "../helpers/tickets.js";

const api = await startTestServer();
const streams: SseClient[] = [];
after(() => {
  for (const stream of streams) stream.close();
});

async function seeded(name: string, count = 3) {
  const board = await boardWithLanes(api, name);
  const ids: number[] = [];
  for (let index = 0; index < count; index++) {
    ids.push((await newTicket(api, board.boardId, board.lane("todo"), `${name} ${index}`)).id);
  }
  return { board, ids };
}

const bulk = (boardId: number, operation: string, body: unknown) =>
  api.post(`/api/boards/${boardId}/tickets/${operation}`, body);

async function bulkOk(boardId: number, operation: string, body: unknown) {
  const response = await bulk(boardId, operation, body);
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(Object.keys(response.body), ["tickets"]);
  return response.body.tickets as any[];
}

/** Shared checks of every bulk endpoint: ids non-empty, all on the path board, typed. */
async function rejectsBadTicketIds(operation: string, extra: Record<string, unknown>) {
  const { board, ids } = await seeded(`Bad ids ${operation}`, 2);
  const other = await seeded(`Foreign ${operation}`, 1);
  const before = await snapshot(api);
  const cases: Array<[unknown, RegExp]> = [
    [{ ...extra }, /^ticketIds is required$/],
    [{ ...extra, ticketIds: [] }, /^ticketIds/],
    [{ ...extra, ticketIds: "1" }, /^ticketIds/],
    [{ ...extra, ticketIds: ["1"] }, /^ticketIds\[0\]/],
    [{ ...extra, ticketIds: [0] }, /^ticketIds\[0\]/],
    [
      { ...extra, ticketIds: [ids[0], other.ids[0]] },
      /^ticketIds\[1\] is not a ticket of this board$/,
    ],
    [{ ...extra, ticketIds: [ids[0], 999999] }, /^ticketIds\[1\] is not a ticket of this board$/],
  ];
  for (const [body, message] of cases)
    assertError(await bulk(board.boardId, operation, body), 400, message);
  assert.deepEqual(await snapshot(api), before);
  assertError(await bulk(999999, operation, { ...extra, ticketIds: ids }), 404, "board not found");
  assertError(await bulk(0, operation, { ...extra, ticketIds: ids }), 400);
}

describe("POST /api/boards/{boardId}/tickets/bulk-complete", () => {
  test("sets isResolved on every ticket, answering summaries in request order without duplicates", async () => {
    const { board, ids } = await seeded("Complete");
    const [t0 = 0, t1 = 0, t2 = 0] = ids;
    const tickets = await bulkOk(board.boardId, "bulk-complete", {
      ticketIds: [t2, t0, t2],
      isResolved: true,
    });
    assert.deepEqual(idsOf(tickets), [t2, t0]);
    assert.ok(tickets.every((ticket) => ticket.isResolved && ticket.isCompleted));
    assert.ok(!("bodyMarkdown" in tickets[0]));
    assert.equal((await getTicket(api, t1)).isResolved, false);
    const reopened = await bulkOk(board.boardId, "bulk-complete", {
      ticketIds: [t0],
      isResolved: false,
    });
    assert.equal(reopened[0].isResolved, false);
    assert.equal((await getTicket(api, t2)).isResolved, true);
  });

  test("defaults to resolving; isCompleted is the alias and isResolved wins", async () => {
    const { board, ids } = await seeded("Complete alias", 1);
    const id = ids[0] ?? 0;
    assert.equal(
      (await bulkOk(board.boardId, "bulk-complete", { ticketIds: [id] }))[0].isResolved,
      true,
    );
    assert.equal(
      (await bulkOk(board.boardId, "bulk-complete", { ticketIds: [id], isCompleted: false }))[0]
        .isResolved,
      false,
    );
    const both = await bulkOk(board.boardId, "bulk-complete", {
      ticketIds: [id],
      isResolved: true,
      isCompleted: false,
    });
    assert.equal(both[0].isResolved, true);
  });

  test("archived tickets can be resolved and are answered too", async () => {
    const { board, ids } = await seeded("Complete archived", 1);
    await patchTicket(api, ids[0] ?? 0, { isArchived: true });
    const tickets = await bulkOk(board.boardId, "bulk-complete", { ticketIds: ids });
    assert.equal(tickets[0].isArchived, true);
    assert.equal(tickets[0].isResolved, true);
  });

  test("rejects bad ticketIds and values, changing nothing", async () => {
    await rejectsBadTicketIds("bulk-complete", { isResolved: true });
    const { board, ids } = await seeded("Complete values", 1);
    assertError(
      await bulk(board.boardId, "bulk-complete", { ticketIds: ids, isResolved: "yes" }),
      400,
      /^isResolved/,
    );
    assertError(
      await bulk(board.boardId, "bulk-complete", { ticketIds: ids, isCompleted: 1 }),
      400,
      /^isCompleted/,
    );
  });
});

describe("POST /api/boards/{boardId}/tickets/bulk-archive", () => {
  test("archives and restores, in request order, keeping archived after active", async () => {
    const { board, ids } = await seeded("Archive");
    const [t0 = 0, t1 = 0, t2 = 0] = ids;
    const archived = await bulkOk(board.boardId, "bulk-archive", {
      ticketIds: [t1, t0],
      isArchived: true,
    });
    assert.deepEqual(idsOf(archived), [t1, t0]);
    assert.ok(archived.every((ticket) => ticket.isArchived));
    assert.deepEqual(idsOf(await listTickets(api, board.boardId)), [t2]);
    assert.deepEqual(layout(await listTickets(api, board.boardId, "archived=all")), [
      [board.lane("todo"), 0, t2],
      [board.lane("todo"), 1, t1],
      [board.lane("todo"), 2, t0],
    ]);
    const restored = await bulkOk(board.boardId, "bulk-archive", {
      ticketIds: [t0],
      isArchived: false,
    });
    assert.equal(restored[0].isArchived, false);
    assert.deepEqual(idsOf(await listTickets(api, board.boardId)), [t2, t0]);
    assert.equal(
      (await bulkOk(board.boardId, "bulk-archive", { ticketIds: [t2] }))[0].isArchived,
      true,
    );
  });

  test("rejects bad ticketIds and values, changing nothing", async () => {
    await rejectsBadTicketIds("bulk-archive", { isArchived: true });
    const { board, ids } = await seeded("Archive values", 1);
    assertError(
      await bulk(board.boardId, "bulk-archive", { ticketIds: ids, isArchived: null }),
      400,
      /^isArchived/,
    );
  });
});

describe("POST /api/boards/{boardId}/tickets/bulk-transition", () => {
  test("moves every ticket to the named lane, appended in request order, keeping isResolved", async () => {
    const { board, ids } = await seeded("Transition bulk", 3);
    const [t0 = 0, t1 = 0, t2 = 0] = ids;
    const existing = await newTicket(api, board.boardId, board.lane("done"), "already done");
    await patchTicket(api, t0, { isResolved: true });
    const tickets = await bulkOk(board.boardId, "bulk-transition", {
      ticketIds: [t2, t0, existing.id],
      laneName: " done ",
    });
    assert.deepEqual(idsOf(tickets), [t2, t0, existing.id]);
    assert.deepEqual(
      tickets.map((ticket) => ticket.isResolved),
      [false, true, false],
    );
    assert.deepEqual(
      idsOf(await listTickets(api, board.boardId, `lane_id=${board.lane("done")}`)),
      [existing.id, t2, t0],
    );
    assert.deepEqual(
      idsOf(await listTickets(api, board.boardId, `lane_id=${board.lane("todo")}`)),
      [t1],
    );
    assert.deepEqual(
      (await listTickets(api, board.boardId, "archived=all")).map((ticket) => ticket.position),
      [0, 0, 1, 2],
    );
  });

  test("sets isResolved when sent (isResolved wins over isCompleted)", async () => {
    const { board, ids } = await seeded("Transition resolve", 2);
    const resolved = await bulkOk(board.boardId, "bulk-transition", {
      ticketIds: ids,
      laneName: "done",
      isResolved: true,
      isCompleted: false,
    });
    assert.ok(resolved.every((ticket) => ticket.isResolved));
    const reopened = await bulkOk(board.boardId, "bulk-transition", {
      ticketIds: ids,
      laneName: "todo",
      isCompleted: false,
    });
    assert.ok(
      reopened.every((ticket) => !ticket.isResolved && ticket.laneId === board.lane("todo")),
    );
  });

  test("rejects bad ticketIds, unknown lanes and bad values, changing nothing", async () => {
    await rejectsBadTicketIds("bulk-transition", { laneName: "done" });
    const { board, ids } = await seeded("Transition values", 1);
    const before = await snapshot(api);
    for (const [body, message] of [
      [{ ticketIds: ids, laneName: "Done" }, /^laneName "Done" is not a lane of this board$/],
      [{ ticketIds: ids, laneName: "" }, /^laneName must not be empty$/],
      [{ ticketIds: ids }, /^laneName is required$/],
      [{ ticketIds: ids, laneName: "done", isResolved: "true" }, /^isResolved/],
    ] as const) {
      assertError(await bulk(board.boardId, "bulk-transition", body), 400, message);
    }
    assert.deepEqual(await snapshot(api), before);
  });
});

describe("POST /api/tickets/{ticketId}/move", () => {
  test("moves to another board: links removed, tags remapped by name, the rest kept", async () => {
    const source = await boardWithLanes(api, "Source");
    const target = await boardWithLanes(api, "Target", ["inbox", "later"]);
    const bug = await createTag(api, source.boardId, "Bug");
    const only = await createTag(api, source.boardId, "source-only");
    const targetBug = await createTag(api, target.boardId, "bug");
    const laneId = source.lane("todo");
    const parent = await newTicket(api, source.boardId, laneId, "parent");
    const blocker = await newTicket(api, source.boardId, laneId, "blocker");
    const mover = await newTicket(api, source.boardId, laneId, "mover", {
      bodyMarkdown: "kept *body*",
      priority: 4,
      isResolved: true,
      parentTicketId: parent.id,
      blockerIds: [blocker.id],
      relatedIds: [blocker.id],
      tagIds: [bug.id, only.id],
    });
    const blocked = await newTicket(api, source.boardId, laneId, "blocked", {
      blockerIds: [mover.id],
    });
    await newTicket(api, target.boardId, target.lane("later"), "resident");
    const response = await api.post(`/api/tickets/${mover.id}/move`, {
      boardId: target.boardId,
      laneId: target.lane("later"),
    });
    assert.equal(response.status, 200, response.text);
    const moved = response.body;
    assert.equal(moved.boardId, target.boardId);
    assert.equal(moved.laneId, target.lane("later"));
    assert.equal(moved.position, 1);
    assert.equal(moved.ref, `Target#${mover.id}`);
    assert.equal(moved.parentTicketId, null);
    assert.equal(moved.parent, null);
    assert.deepEqual(moved.blockerIds, []);
    assert.deepEqual(moved.blockedBy, []);
    assert.deepEqual(moved.relatedIds, []);
    assert.deepEqual(moved.tags, [targetBug]);
    assert.equal(moved.bodyMarkdown, "kept *body*");
    assert.equal(moved.bodyHtml, mover.bodyHtml);
    assert.equal(moved.priority, 4);
    assert.equal(moved.isResolved, true);
    assert.equal(moved.createdAt, mover.createdAt);
    // The other side of every link is gone too.
    assert.equal((await getTicket(api, parent.id)).hasChildren, false);
    assert.deepEqual((await getTicket(api, blocked.id)).blockerIds, []);
    const blockerAfter = await getTicket(api, blocker.id);
    assert.deepEqual(blockerAfter.blockedBy, []);
    assert.deepEqual(blockerAfter.relatedIds, []);
    assert.deepEqual(idsOf(await listTickets(api, source.boardId)), [
      parent.id,
      blocker.id,
      blocked.id,
    ]);
    assert.deepEqual(
      (await listTickets(api, source.boardId)).map((ticket) => ticket.position),
      [0, 1, 2],
    );
  });

  test("a moved parent leaves its children without a parent", async () => {
    const source = await boardWithLanes(api, "Parent source");
    const target = await boardWithLanes(api, "Parent target");
    const parent = await newTicket(api, source.boardId, source.laneIds[0], "parent");
    const child = await newTicket(api, source.boardId, source.laneIds[0], "child", {
      parentTicketId: parent.id,
    });
    const moved = await api.post(`/api/tickets/${parent.id}/move`, {
      boardId: target.boardId,
      laneId: target.laneIds[0],
    });
    assert.equal(moved.body.hasChildren, false);
    assert.deepEqual(moved.body.children, []);
    assert.equal((await getTicket(api, child.id)).parentTicketId, null);
  });

  test("keeps the reason metadata of remapped tags", async () => {
    const source = await boardWithLanes(api, "Reason source");
    const target = await boardWithLanes(api, "Reason target");
    const tag = await createTag(api, source.boardId, "Keep");
    const targetTag = await createTag(api, target.boardId, "KEEP");
    const ticket = await newTicket(api, source.boardId, source.laneIds[0], "t", {
      tagIds: [tag.id],
    });
    api.server.db
      .prepare("UPDATE ticket_tags SET reason = 'because' WHERE ticket_id = ?")
      .run(ticket.id);
    const moved = await api.post(`/api/tickets/${ticket.id}/move`, {
      boardId: target.boardId,
      laneId: target.laneIds[0],
    });
    assert.equal(moved.status, 200);
    assert.deepEqual(
      api.server.db
        .prepare("SELECT tag_id, reason FROM ticket_tags WHERE ticket_id = ?")
        .all(ticket.id),
      [{ tag_id: targetTag.id, reason: "because" }],
    );
  });

  test("to the same board it is a lane change (appended); to the same lane nothing moves", async () => {
    const { board, ids } = await seeded("Same board move", 3);
    const [t0 = 0, t1 = 0, t2 = 0] = ids;
    const moved = await api.post(`/api/tickets/${t0}/move`, {
      boardId: board.boardId,
      laneId: board.lane("done"),
    });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.laneId, board.lane("done"));
    const stay = await api.post(`/api/tickets/${t2}/move`, {
      boardId: board.boardId,
      laneId: board.lane("todo"),
    });
    assert.equal(stay.body.position, 1);
    assert.deepEqual(
      idsOf(await listTickets(api, board.boardId, `lane_id=${board.lane("todo")}`)),
      [t1, t2],
    );
  });

  test("rejects unknown targets with 400 and unknown tickets with 404, changing nothing", async () => {
    const { board, ids } = await seeded("Move errors", 1);
    const other = await boardWithLanes(api, "Move target");
    const id = ids[0] ?? 0;
    const before = await snapshot(api);
    const cases: Array<[unknown, RegExp]> = [
      [{ boardId: 999999, laneId: other.laneIds[0] }, /^boardId/],
      [
        { boardId: other.boardId, laneId: board.laneIds[0] },
        /^laneId is not a lane of the target board$/,
      ],
      [{ boardId: other.boardId, laneId: 999999 }, /^laneId/],
      [{ boardId: other.boardId }, /^laneId is required$/],
      [{ laneId: other.laneIds[0] }, /^boardId is required$/],
      [{ boardId: String(other.boardId), laneId: other.laneIds[0] }, /^boardId/],
    ];
    for (const [body, message] of cases) {
      assertError(await api.post(`/api/tickets/${id}/move`, body), 400, message);
    }
    assert.deepEqual(await snapshot(api), before);
    assertError(
      await api.post("/api/tickets/999999/move", {
        boardId: other.boardId,
        laneId: other.laneIds[0],
      }),
      404,
      "ticket not found",
    );
  });
});

describe("POST /api/boards/{boardId}/tickets/bulk-move", () => {
  test("moves all tickets, answering destination summaries in request order", async () => {
    const source = await seeded("Bulk source", 3);
    const target = await boardWithLanes(api, "Bulk target");
    const [t0 = 0, t1 = 0, t2 = 0] = source.ids;
    await patchTicket(api, t1, { parentTicketId: t0, blockerIds: [t2] });
    const tickets = await bulkOk(source.board.boardId, "bulk-move", {
      ticketIds: [t1, t0, t1],
      boardId: target.boardId,
      laneId: target.lane("doing"),
    });
    assert.deepEqual(idsOf(tickets), [t1, t0]);
    assert.ok(tickets.every((ticket) => ticket.boardId === target.boardId));
    assert.ok(tickets.every((ticket) => ticket.ref === `Bulk target#${ticket.id}`));
    assert.deepEqual(
      tickets.map((ticket) => ticket.position),
      [0, 1],
    );
    // Links between moved tickets are removed too.
    assert.ok(tickets.every((ticket) => ticket.parentTicketId === null && !ticket.hasChildren));
    assert.deepEqual(tickets[0].blockerIds, []);
    assert.deepEqual(idsOf(await listTickets(api, source.board.boardId)), [t2]);
    assert.deepEqual(idsOf(await listTickets(api, target.boardId)), [t1, t0]);
  });

  test("within the same board it changes lanes", async () => {
    const { board, ids } = await seeded("Bulk same board", 2);
    const tickets = await bulkOk(board.boardId, "bulk-move", {
      ticketIds: ids,
      boardId: board.boardId,
      laneId: board.lane("done"),
    });
    assert.ok(tickets.every((ticket) => ticket.laneId === board.lane("done")));
  });

  test("is all or nothing: foreign tickets or an invalid target move nothing", async () => {
    await rejectsBadTicketIds("bulk-move", { boardId: 1, laneId: 1 });
    const { board, ids } = await seeded("Bulk atomic", 2);
    const target = await boardWithLanes(api, "Bulk atomic target");
    const before = await snapshot(api);
    const cases: Array<[unknown, RegExp]> = [
      [{ ticketIds: ids, boardId: 999999, laneId: target.laneIds[0] }, /^boardId/],
      [
        { ticketIds: ids, boardId: target.boardId, laneId: board.laneIds[0] },
        /^laneId is not a lane of the target board$/,
      ],
      [{ ticketIds: ids, boardId: target.boardId }, /^laneId is required$/],
      [{ ticketIds: ids, laneId: target.laneIds[0] }, /^boardId is required$/],
    ];
    for (const [body, message] of cases)
      assertError(await bulk(board.boardId, "bulk-move", body), 400, message);
    assert.deepEqual(await snapshot(api), before);
  });
});

describe("change notifications", () => {
  async function stream(boardId: number) {
    const client = await SseClient.open(`${api.url}/api/boards/${boardId}/events`);
    streams.push(client);
    await client.waitUntil(() => client.comments.includes("connected"));
    return client;
  }

  test("a move notifies both boards; a bulk operation sends one message per board", async () => {
    const source = await seeded("Notify source", 3);
    const target = await boardWithLanes(api, "Notify target");
    const sourceStream = await stream(source.board.boardId);
    const targetStream = await stream(target.boardId);
    await api.post(`/api/tickets/${source.ids[0]}/move`, {
      boardId: target.boardId,
      laneId: target.laneIds[0],
    });
    await sourceStream.waitForMessages(1);
    await targetStream.waitForMessages(1);
    await bulkOk(source.board.boardId, "bulk-complete", { ticketIds: source.ids.slice(1) });
    await sourceStream.waitForMessages(2);
    await sleep(60);
    assert.equal(sourceStream.messages.length, 2);
    assert.equal(targetStream.messages.length, 1);
    // A rejected operation announces nothing.
    assertError(
      await bulk(source.board.boardId, "bulk-complete", { ticketIds: [source.ids[0]] }),
      400,
    );
    await sleep(60);
    assert.equal(sourceStream.messages.length, 2);
  });

  test("ticket create, patch, position, transition and delete each notify the board", async () => {
    const board = await boardWithLanes(api, "Notify single");
    const client = await stream(board.boardId);
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    await patchTicket(api, ticket.id, { priority: 3 });
    await api.patch(`/api/tickets/${ticket.id}/position`, { laneId: board.laneIds[1] });
    await api.patch(`/api/tickets/${ticket.id}/transition`, { laneName: "done" });
    await api.delete(`/api/tickets/${ticket.id}`);
    await client.waitForMessages(5);
    assert.ok(client.messages.every((message) => message.data.boardId === board.boardId));
  });
});
