import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError, createTag } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, newTicket } from "../helpers/tickets.js";

const api = await startTestServer();

async function ticket() {
  const board = await boardWithLanes(api, "Activity");
  const created = await newTicket(api, board.boardId, board.laneIds[0], "watched");
  return { ...board, ticketId: created.id as number };
}

async function activity(ticketId: number): Promise<any[]> {
  const response = await api.get(`/api/tickets/${ticketId}/activity`);
  assert.equal(response.status, 200, response.text);
  return response.body.activity;
}

const actions = (entries: any[]) => entries.map((entry) => entry.action);

const REFERENCE = {
  provider: "github",
  instanceUrl: "https://github.com",
  projectKey: "acme/app",
  issueKey: "7",
  displayRef: "acme/app#7",
  url: "https://github.com/acme/app/issues/7",
};

describe("ticket activity", () => {
  test("entries have the ActivityLog shape and come newest first", async () => {
    const { boardId, ticketId } = await ticket();
    await api.post(`/api/tickets/${ticketId}/comments`, { bodyMarkdown: "one" });
    const entries = await activity(ticketId);
    assert.deepEqual(actions(entries), ["comment_added", "ticket_created"]);
    const [added] = entries;
    assert.deepEqual(Object.keys(added).sort(), [
      "action",
      "boardId",
      "createdAt",
      "details",
      "id",
      "message",
      "subjectTicketId",
      "ticketId",
    ]);
    assert.equal(added.boardId, boardId);
    assert.equal(added.ticketId, ticketId);
    assert.equal(added.subjectTicketId, ticketId);
    assert.ok(entries[0].id > entries[1].id);
    assert.ok(entries[0].createdAt >= entries[1].createdAt);
  });

  test("comment changes are recorded with the comment id and the text before and after", async () => {
    const { ticketId } = await ticket();
    const created = await api.post(`/api/tickets/${ticketId}/comments`, { bodyMarkdown: "a" });
    const commentId = created.body.id;
    await api.patch(`/api/comments/${commentId}`, { bodyMarkdown: "b" });
    await api.delete(`/api/comments/${commentId}`);
    const entries = (await activity(ticketId)).slice(0, 3);
    assert.deepEqual(
      entries.map((entry) => [entry.action, entry.message, entry.details]),
      [
        ["comment_deleted", "Comment deleted", { commentId, deletedBodyMarkdown: "b" }],
        [
          "comment_updated",
          "Comment updated",
          { commentId, oldBodyMarkdown: "a", newBodyMarkdown: "b" },
        ],
        ["comment_added", "Comment added", { commentId }],
      ],
    );
  });

  test("an unchanged comment body and rejected requests record nothing", async () => {
    const { ticketId } = await ticket();
    const created = await api.post(`/api/tickets/${ticketId}/comments`, { bodyMarkdown: "same" });
    const before = await activity(ticketId);
    assert.equal(
      (await api.patch(`/api/comments/${created.body.id}`, { bodyMarkdown: " same " })).status,
      200,
    );
    assert.equal(
      (await api.post(`/api/tickets/${ticketId}/comments`, { bodyMarkdown: "" })).status,
      400,
    );
    assert.equal(
      (
        await api.put(`/api/tickets/${ticketId}/external-references/source`, {
          ...REFERENCE,
          url: " ",
        })
      ).status,
      400,
    );
    assert.deepEqual(await activity(ticketId), before);
  });

  test("tag reasons and tag removal are recorded, also when the tag itself is deleted", async () => {
    const { boardId, ticketId } = await ticket();
    const tag = await createTag(api, boardId, "blocked");
    const other = await createTag(api, boardId, "later");
    await api.post(`/api/tickets/${ticketId}/tags/${tag.id}`, { reason: "waiting on infra" });
    await api.post(`/api/tickets/${ticketId}/tags/${tag.id}`, { reason: "waiting on legal" });
    await api.delete(`/api/tickets/${ticketId}/tags/${tag.id}`);
    await api.post(`/api/tickets/${ticketId}/tags/${other.id}`, {});
    assert.equal((await api.delete(`/api/tags/${other.id}`)).status, 204);

    const entries = (await activity(ticketId)).slice(0, 5);
    assert.deepEqual(
      entries.map((entry) => [entry.action, entry.message]),
      [
        ["ticket_tag_removed", "Tag later removed (tag deleted)"],
        ["ticket_tag_reason_set", "Tag later added"],
        ["ticket_tag_removed", "Tag blocked removed"],
        ["ticket_tag_reason_set", "Tag blocked reason updated"],
        ["ticket_tag_reason_set", "Tag blocked added"],
      ],
    );
    assert.deepEqual(entries[0].details, { tagId: other.id, tagName: "later", tagDeleted: true });
    assert.deepEqual(entries[3].details, {
      tagId: tag.id,
      tagName: "blocked",
      attached: false,
      before: { reason: "waiting on infra", details: null, reasonCommentId: null },
      after: { reason: "waiting on legal", details: null, reasonCommentId: null },
    });
    assert.equal(entries[4].details.attached, true);
    assert.equal(entries[4].details.before, null);
  });

  test("deleting a tag records one entry on each ticket that carried it, none elsewhere", async () => {
    const board = await boardWithLanes(api, "Tagged");
    const tag = await createTag(api, board.boardId, "shared");
    const carrying = await Promise.all(
      [1, 2, 3].map((n) =>
        newTicket(api, board.boardId, board.laneIds[0], `t${n}`, { tagIds: [tag.id] }),
      ),
    );
    const bystander = await newTicket(api, board.boardId, board.laneIds[0], "no tag");
    await api.delete(`/api/tags/${tag.id}`);
    for (const { id } of carrying) {
      assert.equal(actions(await activity(id)).filter((a) => a === "ticket_tag_removed").length, 1);
    }
    assert.deepEqual(actions(await activity(bystander.id)), ["ticket_created"]);
  });

  test("external references: set, changed, idempotent repeat, removed", async () => {
    const { ticketId } = await ticket();
    const path = `/api/tickets/${ticketId}/external-references/source`;
    await api.put(path, REFERENCE);
    await api.put(path, REFERENCE);
    await api.put(path, { ...REFERENCE, title: "Crash on start" });
    await api.delete(path);
    const entries = (await activity(ticketId)).slice(0, 4);
    assert.deepEqual(actions(entries), [
      "external_reference_removed",
      "external_reference_set",
      "external_reference_set",
      "ticket_created",
    ]);
    assert.equal(entries[2].message, "External reference source set to acme/app#7");
    assert.equal(entries[2].details.kind, "source");
    assert.equal(entries[2].details.before, null);
    assert.equal(entries[1].details.before.title, null);
    assert.equal(entries[1].details.after.title, "Crash on start");
    assert.equal(entries[0].message, "External reference source removed");
    assert.equal(entries[0].details.before.displayRef, "acme/app#7");
  });

  test("ticket events are not activity", async () => {
    const { ticketId } = await ticket();
    const posted = await api.post(`/api/tickets/${ticketId}/events`, {
      source: "ci",
      kind: "build",
      title: "Build passed",
    });
    assert.equal(posted.status, 201);
    assert.deepEqual(actions(await activity(ticketId)), ["ticket_created"]);
  });

  test("a moved ticket keeps its whole history when the board it left is deleted", async () => {
    const { ticketId, boardId } = await ticket();
    const target = await boardWithLanes(api, "Destination");
    await api.patch(`/api/tickets/${ticketId}`, { priority: 4 });
    const moved = await api.post(`/api/tickets/${ticketId}/move`, {
      boardId: target.boardId,
      laneId: target.laneIds[0],
    });
    assert.equal(moved.status, 200, moved.text);
    assert.equal((await api.delete(`/api/boards/${boardId}`)).status, 204);
    const entries = await activity(ticketId);
    assert.deepEqual(actions(entries), ["ticket_moved_board", "ticket_updated", "ticket_created"]);
    assert.ok(entries.every((entry) => entry.boardId === target.boardId));
  });

  test("a deleted ticket's activity stays readable; unknown ids are 404", async () => {
    const { ticketId } = await ticket();
    await api.post(`/api/tickets/${ticketId}/comments`, { bodyMarkdown: "before deletion" });
    assert.equal((await api.delete(`/api/tickets/${ticketId}`)).status, 204);
    assertError(await api.get(`/api/tickets/${ticketId}`), 404);
    const entries = await activity(ticketId);
    assert.deepEqual(actions(entries), ["ticket_deleted", "comment_added", "ticket_created"]);
    // The live link is gone; the subject stays.
    assert.ok(entries.every((entry) => entry.ticketId === null));
    assert.ok(entries.every((entry) => entry.subjectTicketId === ticketId));

    assertError(await api.get("/api/tickets/987654/activity"), 404, "ticket not found");
    assertError(await api.get("/api/tickets/abc/activity"), 400);
  });

  test("a deleted ticket's id is never given to a new ticket, created or imported", async () => {
    // The newest ticket is deleted, then tickets are made: none may take its id, or its history
    // would show under the new ticket (SQLite alone would reuse the highest free id).
    const { boardId, laneIds, ticketId } = await ticket();
    await api.post(`/api/tickets/${ticketId}/comments`, { bodyMarkdown: "history" });
    assert.equal((await api.delete(`/api/tickets/${ticketId}`)).status, 204);

    const created = await newTicket(api, boardId, laneIds[0] as number, "after deletion");
    assert.ok(created.id > ticketId, `new ticket got id ${created.id}`);
    assert.deepEqual(actions(await activity(created.id)), ["ticket_created"]);

    assert.equal((await api.delete(`/api/tickets/${created.id}`)).status, 204);
    const imported = await api.post("/api/boards/import", {
      board: { name: "after deletion" },
      lanes: [{ id: 1, name: "Todo" }],
      tickets: [
        { id: 1, laneId: 1, title: "first" },
        { id: 2, laneId: 1, title: "second" },
      ],
    });
    assert.equal(imported.status, 201, imported.text);
    const importedIds = imported.body.tickets.map((entry: { id: number }) => entry.id);
    assert.ok(Math.min(...importedIds) > created.id, `imported ids ${importedIds}`);
    for (const id of importedIds) assert.deepEqual(actions(await activity(id)), ["ticket_created"]);
    // The deleted tickets' own histories are still theirs.
    assert.deepEqual(actions(await activity(ticketId)), [
      "ticket_deleted",
      "comment_added",
      "ticket_created",
    ]);
  });
});
