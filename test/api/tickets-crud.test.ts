import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError, createTag, snapshot } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import {
  boardWithLanes,
  getTicket,
  idsOf,
  listTickets,
  newTicket,
  patchTicket,
} from "../helpers/tickets.js";

const api = await startTestServer();

const TICKET_FIELDS = [
  // docs/api.md, "Coordination for agents"
  "version",
  "claim",
  // docs/api.md, "Not before", "Asks", "Checklists"
  "notBefore",
  "openAsks",
  "checklist",
  "id",
  "boardId",
  "laneId",
  "parentTicketId",
  "hasChildren",
  "title",
  "bodyMarkdown",
  "bodyHtml",
  "isResolved",
  "isCompleted",
  "isArchived",
  "priority",
  "position",
  "createdAt",
  "updatedAt",
  "tags",
  "comments",
  "blockerIds",
  "relatedIds",
  "blockers",
  "blockedBy",
  "related",
  "parent",
  "children",
  "ref",
  "shortRef",
  "remote",
  "externalReferences",
].sort();

describe("POST /api/boards/{boardId}/tickets", () => {
  test("creates a ticket with every Ticket field and the creation defaults", async () => {
    const board = await boardWithLanes(api, "Defaults");
    const created = await api.post(`/api/boards/${board.boardId}/tickets`, {
      laneId: board.lane("doing"),
      title: "  Write docs  ",
    });
    assert.equal(created.status, 201);
    const ticket = created.body;
    assert.deepEqual(Object.keys(ticket).sort(), TICKET_FIELDS);
    assert.deepEqual(
      { ...ticket, id: 0, createdAt: "", updatedAt: "" },
      {
        id: 0,
        boardId: board.boardId,
        laneId: board.lane("doing"),
        parentTicketId: null,
        hasChildren: false,
        title: "Write docs",
        bodyMarkdown: "",
        bodyHtml: "",
        isResolved: false,
        isCompleted: false,
        isArchived: false,
        priority: 2,
        position: 0,
        createdAt: "",
        updatedAt: "",
        tags: [],
        comments: [],
        blockerIds: [],
        relatedIds: [],
        blockers: [],
        blockedBy: [],
        related: [],
        parent: null,
        children: [],
        ref: `Defaults#${ticket.id}`,
        shortRef: `#${ticket.id}`,
        remote: null,
        version: 1,
        claim: null,
        notBefore: null,
        openAsks: 0,
        checklist: { done: 0, total: 0 },
        externalReferences: [],
      },
    );
    assert.equal(ticket.createdAt, ticket.updatedAt);
    assert.ok(!Number.isNaN(Date.parse(ticket.createdAt)));
    assert.deepEqual(await getTicket(api, ticket.id), ticket);
  });

  test("accepts every TicketUpsert field at creation", async () => {
    const board = await boardWithLanes(api, "All fields");
    const tag = await createTag(api, board.boardId, "bug");
    const parent = await newTicket(api, board.boardId, board.lane("todo"), "parent");
    const other = await newTicket(api, board.boardId, board.lane("todo"), "other");
    const ticket = await newTicket(api, board.boardId, board.lane("done"), "child", {
      parentTicketId: parent.id,
      bodyMarkdown: "Some *text*",
      isResolved: true,
      isArchived: true,
      priority: 4,
      tagIds: [tag.id],
      blockerIds: [other.id],
      relatedIds: [other.id],
    });
    assert.equal(ticket.parentTicketId, parent.id);
    assert.equal(ticket.bodyMarkdown, "Some *text*");
    assert.equal(ticket.bodyHtml, "<p>Some <em>text</em></p>\n");
    assert.equal(ticket.isResolved, true);
    assert.equal(ticket.isCompleted, true);
    assert.equal(ticket.isArchived, true);
    assert.equal(ticket.priority, 4);
    assert.deepEqual(ticket.tags, [tag]);
    assert.deepEqual(ticket.blockerIds, [other.id]);
    assert.deepEqual(ticket.relatedIds, [other.id]);
  });

  test("stores the Markdown body as sent and renders sanitized HTML", async () => {
    const board = await boardWithLanes(api, "Bodies");
    const body = "  <script>alert(1)</script>\n\n[x](javascript:alert(1)) **bold**  \n";
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t", {
      bodyMarkdown: body,
    });
    assert.equal(ticket.bodyMarkdown, body);
    assert.doesNotMatch(ticket.bodyHtml, /<script|href="javascript/);
    assert.match(ticket.bodyHtml, /<strong>bold<\/strong>/);
  });

  test("accepts a body of 200,000 characters and a title of 500, and no more", async () => {
    const board = await boardWithLanes(api, "Limits");
    const laneId = board.laneIds[0];
    const long = await newTicket(api, board.boardId, laneId, ` ${"t".repeat(500)} `, {
      bodyMarkdown: "b".repeat(200_000),
    });
    assert.equal(long.title.length, 500);
    assert.equal(long.bodyMarkdown.length, 200_000);
    const before = await listTickets(api, board.boardId);
    const path = `/api/boards/${board.boardId}/tickets`;
    assertError(await api.post(path, { laneId, title: "t".repeat(501) }), 400, /title/);
    assertError(
      await api.post(path, { laneId, title: "t", bodyMarkdown: "b".repeat(200_001) }),
      400,
      /bodyMarkdown/,
    );
    assert.deepEqual(await listTickets(api, board.boardId), before);
  });

  test("rejects bad input for every field with 400 naming it, creating nothing", async () => {
    const board = await boardWithLanes(api, "Bad input");
    const other = await boardWithLanes(api, "Elsewhere");
    const foreignTag = await createTag(api, other.boardId, "foreign");
    const foreignTicket = await newTicket(api, other.boardId, other.laneIds[0], "foreign");
    const laneId = board.laneIds[0];
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ title: "t" }, /^laneId is required$/],
      [{ laneId }, /^title is required$/],
      [{ laneId, title: "" }, /^title/],
      [{ laneId, title: "   " }, /^title/],
      [{ laneId, title: null }, /^title/],
      [{ laneId, title: 5 }, /^title/],
      [{ laneId: "1", title: "t" }, /^laneId/],
      [{ laneId: 1.5, title: "t" }, /^laneId/],
      [{ laneId: 0, title: "t" }, /^laneId/],
      [{ laneId: null, title: "t" }, /^laneId/],
      [{ laneId: other.laneIds[0], title: "t" }, /^laneId is not a lane of this board$/],
      [{ laneId: 999999, title: "t" }, /^laneId/],
      [{ laneId, title: "t", priority: 0 }, /^priority/],
      [{ laneId, title: "t", priority: 5 }, /^priority/],
      [{ laneId, title: "t", priority: "2" }, /^priority/],
      [{ laneId, title: "t", priority: 2.5 }, /^priority/],
      [{ laneId, title: "t", priority: null }, /^priority/],
      [{ laneId, title: "t", isResolved: "true" }, /^isResolved/],
      [{ laneId, title: "t", isCompleted: 1 }, /^isCompleted/],
      [{ laneId, title: "t", isArchived: null }, /^isArchived/],
      [{ laneId, title: "t", bodyMarkdown: null }, /^bodyMarkdown/],
      [{ laneId, title: "t", bodyMarkdown: 7 }, /^bodyMarkdown/],
      [{ laneId, title: "t", tagIds: null }, /^tagIds/],
      [{ laneId, title: "t", tagIds: "1" }, /^tagIds/],
      [{ laneId, title: "t", tagIds: ["1"] }, /^tagIds\[0\]/],
      [{ laneId, title: "t", tagIds: [foreignTag.id] }, /^tagIds\[0\] is not a tag of this board$/],
      [{ laneId, title: "t", tagIds: [999999] }, /^tagIds\[0\]/],
      [{ laneId, title: "t", blockerIds: [-1] }, /^blockerIds\[0\]/],
      [{ laneId, title: "t", blockerIds: [foreignTicket.id] }, /^blockerIds\[0\]/],
      [{ laneId, title: "t", relatedIds: [999999] }, /^relatedIds\[0\]/],
      [{ laneId, title: "t", relatedIds: {} }, /^relatedIds/],
      [{ laneId, title: "t", parentTicketId: "1" }, /^parentTicketId/],
      [{ laneId, title: "t", parentTicketId: foreignTicket.id }, /^parentTicketId/],
      [{ laneId, title: "t", parentTicketId: 999999 }, /^parentTicketId/],
    ];
    const before = await snapshot(api);
    for (const [body, message] of cases) {
      assertError(await api.post(`/api/boards/${board.boardId}/tickets`, body), 400, message);
    }
    assert.deepEqual(await snapshot(api), before);
  });

  test("answers 404 for an unknown board and 400 for a malformed board id", async () => {
    assertError(
      await api.post("/api/boards/999999/tickets", { laneId: 1, title: "t" }),
      404,
      "board not found",
    );
    assertError(await api.post("/api/boards/abc/tickets", { laneId: 1, title: "t" }), 400);
  });

  test("requires a JSON body", async () => {
    const board = await boardWithLanes(api, "No body");
    assertError(await api.post(`/api/boards/${board.boardId}/tickets`), 400);
    assertError(await api.post(`/api/boards/${board.boardId}/tickets`, "{not json"), 400);
  });
});

describe("GET /api/tickets/{ticketId}", () => {
  test("answers 404 for an unknown ticket and 400 for a malformed id", async () => {
    assertError(await api.get("/api/tickets/999999"), 404, "ticket not found");
    for (const id of ["abc", "0", "-1", "1.5"]) {
      assertError(await api.get(`/api/tickets/${id}`), 400, /ticketId/);
    }
  });

  test("computes ref from the board's current name", async () => {
    const board = await boardWithLanes(api, "Old name");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    const blocked = await newTicket(api, board.boardId, board.laneIds[0], "b", {
      blockerIds: [ticket.id],
    });
    assert.equal(ticket.ref, `Old name#${ticket.id}`);
    const renamed = await api.patch(`/api/boards/${board.boardId}`, { name: "New name" });
    assert.equal(renamed.status, 200);
    const read = await getTicket(api, ticket.id);
    assert.equal(read.ref, `New name#${ticket.id}`);
    assert.equal(read.shortRef, `#${ticket.id}`);
    assert.equal((await getTicket(api, blocked.id)).blockers[0].ref, `New name#${ticket.id}`);
    const [summary] = await listTickets(api, board.boardId, `q=%23${ticket.id}`);
    assert.equal(summary.ref, `New name#${ticket.id}`);
  });
});

describe("PATCH /api/tickets/{ticketId}", () => {
  test("changes only the fields sent", async () => {
    const board = await boardWithLanes(api, "Partial");
    const tag = await createTag(api, board.boardId, "keep");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "title", {
      bodyMarkdown: "body",
      priority: 3,
      tagIds: [tag.id],
    });
    const patched = await patchTicket(api, ticket.id, { priority: 1 });
    assert.deepEqual(
      { ...patched, updatedAt: "" },
      { ...ticket, priority: 1, updatedAt: "", version: ticket.version + 1 },
    );
    const retitled = await patchTicket(api, ticket.id, { title: "  new title " });
    assert.equal(retitled.title, "new title");
    assert.equal(retitled.priority, 1);
    assert.equal(retitled.bodyMarkdown, "body");
    assert.deepEqual(retitled.tags, [tag]);
    const rebodied = await patchTicket(api, ticket.id, { bodyMarkdown: "# Head" });
    assert.equal(rebodied.bodyHtml, '<h1 id="user-content-head">Head</h1>\n');
    assert.equal(rebodied.title, "new title");
  });

  test("bumps updatedAt on a change, keeps createdAt, and leaves a no-op alone", async () => {
    const board = await boardWithLanes(api, "Times");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    await new Promise((resolve) => setTimeout(resolve, 5));
    const same = await patchTicket(api, ticket.id, { title: "t", priority: 2 });
    assert.equal(same.updatedAt, ticket.updatedAt);
    const changed = await patchTicket(api, ticket.id, { priority: 3 });
    assert.equal(changed.createdAt, ticket.createdAt);
    assert.ok(changed.updatedAt > ticket.updatedAt);
  });

  test("answers 400 when no known field is sent", async () => {
    const board = await boardWithLanes(api, "Empty patch");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    assertError(await api.patch(`/api/tickets/${ticket.id}`, {}), 400, /nothing to update/);
    assertError(await api.patch(`/api/tickets/${ticket.id}`, { foo: 1 }), 400, /nothing to update/);
    assertError(await api.patch(`/api/tickets/${ticket.id}`), 400);
    assert.deepEqual(await getTicket(api, ticket.id), ticket);
  });

  test("rejects bad values with 400 and changes nothing", async () => {
    const board = await boardWithLanes(api, "Bad patch");
    const other = await boardWithLanes(api, "Other board");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    const bodies: Array<Record<string, unknown>> = [
      { title: "" },
      { title: " " },
      { title: null },
      { title: "x".repeat(501) },
      { laneId: null },
      { laneId: "2" },
      { laneId: other.laneIds[0] },
      { laneId: 999999 },
      { priority: 0 },
      { priority: 5 },
      { priority: "3" },
      { isResolved: null },
      { isResolved: "false" },
      { isArchived: 0 },
      { tagIds: null },
      { tagIds: [0] },
      { blockerIds: "1" },
      { relatedIds: [1.5] },
      { parentTicketId: ticket.id },
      { parentTicketId: 0 },
      { bodyMarkdown: "b".repeat(200_001) },
      // A valid field does not make an invalid one acceptable.
      { priority: 4, title: "" },
    ];
    for (const body of bodies) {
      assertError(await api.patch(`/api/tickets/${ticket.id}`, body), 400);
    }
    assert.deepEqual(await getTicket(api, ticket.id), ticket);
    assertError(await api.patch("/api/tickets/999999", { title: "x" }), 404, "ticket not found");
  });

  test("isResolved and isCompleted: either sets the flag, isResolved wins, responses mirror it", async () => {
    const board = await boardWithLanes(api, "Flags");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t", {
      isCompleted: true,
    });
    assert.equal(ticket.isResolved, true);
    assert.equal(ticket.isCompleted, true);
    const reopened = await patchTicket(api, ticket.id, { isCompleted: false });
    assert.equal(reopened.isResolved, false);
    const both = await patchTicket(api, ticket.id, { isResolved: true, isCompleted: false });
    assert.equal(both.isResolved, true);
    assert.equal(both.isCompleted, true);
    const both2 = await patchTicket(api, ticket.id, { isResolved: false, isCompleted: true });
    assert.equal(both2.isResolved, false);
    assert.equal(both2.isCompleted, false);
    const created = await newTicket(api, board.boardId, board.laneIds[0], "c", {
      isResolved: false,
      isCompleted: true,
    });
    assert.equal(created.isResolved, false);
  });

  test("isArchived, isResolved and the lane are independent", async () => {
    const board = await boardWithLanes(api, "Independent");
    const ticket = await newTicket(api, board.boardId, board.lane("todo"), "t", {
      isResolved: true,
    });
    const archived = await patchTicket(api, ticket.id, { isArchived: true });
    assert.equal(archived.isArchived, true);
    assert.equal(archived.isResolved, true);
    const moved = await patchTicket(api, ticket.id, { laneId: board.lane("done") });
    assert.equal(moved.laneId, board.lane("done"));
    assert.equal(moved.isResolved, true);
    assert.equal(moved.isArchived, true);
    const reopened = await patchTicket(api, ticket.id, { isResolved: false });
    assert.equal(reopened.laneId, board.lane("done"));
    assert.equal(reopened.isArchived, true);
    const restored = await patchTicket(api, ticket.id, { isArchived: false });
    assert.equal(restored.isArchived, false);
    assert.equal(restored.isResolved, false);
  });

  test("the title of a ticket tracking a remote issue is read-only; its body is not", async () => {
    const board = await boardWithLanes(api, "Tracked");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "Remote title");
    // Remote import is another module; give the ticket a tracked link directly.
    api.server.db
      .prepare(
        `INSERT INTO remote_links (ticket_id, provider, instance_url, project_key, issue_key,
           display_ref, url, title, body_markdown, body_html, last_synced_at, created_at, updated_at)
         VALUES (?, 'github', 'https://github.com', 'o/r', '1', 'o/r#1',
           'https://github.com/o/r/issues/1', 'Remote title', '', '', ?, ?, ?)`,
      )
      .run(ticket.id, ticket.createdAt, ticket.createdAt, ticket.createdAt);
    assertError(
      await api.patch(`/api/tickets/${ticket.id}`, { title: "Local title" }),
      400,
      /^title is read-only/,
    );
    const same = await patchTicket(api, ticket.id, {
      title: " Remote title ",
      bodyMarkdown: "local",
    });
    assert.equal(same.title, "Remote title");
    assert.equal(same.bodyMarkdown, "local");
    assert.equal(same.remote.title, "Remote title");
  });

  test("tagIds replaces the set, collapses duplicates and lists tags by name", async () => {
    const board = await boardWithLanes(api, "Tag sets");
    const beta = await createTag(api, board.boardId, "beta");
    const alpha = await createTag(api, board.boardId, "Alpha");
    const gamma = await createTag(api, board.boardId, "gamma");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t", {
      tagIds: [gamma.id, beta.id, gamma.id],
    });
    assert.deepEqual(idsOf(ticket.tags), [beta.id, gamma.id]);
    const replaced = await patchTicket(api, ticket.id, { tagIds: [beta.id, alpha.id] });
    assert.deepEqual(idsOf(replaced.tags), [alpha.id, beta.id]);
    const cleared = await patchTicket(api, ticket.id, { tagIds: [] });
    assert.deepEqual(cleared.tags, []);
    const other = await boardWithLanes(api, "Tag thief");
    const foreign = await createTag(api, other.boardId, "beta");
    assertError(
      await api.patch(`/api/tickets/${ticket.id}`, { tagIds: [alpha.id, foreign.id] }),
      400,
      "tagIds[1] is not a tag of this board",
    );
    assert.deepEqual((await getTicket(api, ticket.id)).tags, []);
  });

  test("tagIds keeps the reason metadata of tags that stay", async () => {
    const board = await boardWithLanes(api, "Reasons");
    const stay = await createTag(api, board.boardId, "stay");
    const go = await createTag(api, board.boardId, "go");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t", {
      tagIds: [stay.id, go.id],
    });
    // The tag-reason endpoints are another module; write the reason columns directly.
    api.server.db
      .prepare(
        "UPDATE ticket_tags SET reason = 'why', details_json = '{\"a\":1}' WHERE ticket_id = ?",
      )
      .run(ticket.id);
    const other = await createTag(api, board.boardId, "new");
    await patchTicket(api, ticket.id, { tagIds: [stay.id, other.id] });
    const rows = api.server.db
      .prepare(
        "SELECT tag_id, reason, details_json FROM ticket_tags WHERE ticket_id = ? ORDER BY tag_id",
      )
      .all(ticket.id);
    assert.deepEqual(rows, [
      { tag_id: stay.id, reason: "why", details_json: '{"a":1}' },
      { tag_id: other.id, reason: null, details_json: null },
    ]);
  });
});

describe("DELETE /api/tickets/{ticketId}", () => {
  test("deletes the ticket, answers 204, and a second delete 404", async () => {
    const board = await boardWithLanes(api, "Deleting");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    const deleted = await api.delete(`/api/tickets/${ticket.id}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, "");
    assertError(await api.get(`/api/tickets/${ticket.id}`), 404, "ticket not found");
    assertError(await api.delete(`/api/tickets/${ticket.id}`), 404, "ticket not found");
    assert.deepEqual(await listTickets(api, board.boardId, "archived=all"), []);
    assertError(await api.delete("/api/tickets/abc"), 400);
  });

  test("removes the ticket from every relation and clears its children's parent", async () => {
    const board = await boardWithLanes(api, "Delete links");
    const laneId = board.laneIds[0];
    const doomed = await newTicket(api, board.boardId, laneId, "doomed");
    const child = await newTicket(api, board.boardId, laneId, "child", {
      parentTicketId: doomed.id,
    });
    const blocked = await newTicket(api, board.boardId, laneId, "blocked", {
      blockerIds: [doomed.id],
    });
    const related = await newTicket(api, board.boardId, laneId, "related", {
      relatedIds: [doomed.id],
    });
    await patchTicket(api, doomed.id, { blockerIds: [related.id] });
    assert.equal((await api.delete(`/api/tickets/${doomed.id}`)).status, 204);
    const afterChild = await getTicket(api, child.id);
    assert.equal(afterChild.parentTicketId, null);
    assert.equal(afterChild.parent, null);
    assert.deepEqual((await getTicket(api, blocked.id)).blockerIds, []);
    const afterRelated = await getTicket(api, related.id);
    assert.deepEqual(afterRelated.relatedIds, []);
    assert.deepEqual(afterRelated.blockedBy, []);
    // Remaining tickets of the lane are renumbered without a gap.
    assert.deepEqual(
      (await listTickets(api, board.boardId)).map((ticket) => ticket.position),
      [0, 1, 2],
    );
  });
});
