import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { commentStore } from "../../src/storage/comments.js";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, getTicket, newTicket } from "../helpers/tickets.js";

const api = await startTestServer();
// Sync states other than local_only are reached through a remote push; the tests put comments
// into them with the same store functions the push uses.
const store = commentStore(api.server.db);

async function ticket(title = "commented") {
  const board = await boardWithLanes(api, "Comments");
  return newTicket(api, board.boardId, board.laneIds[0], title);
}

async function comment(ticketId: number, bodyMarkdown: string) {
  const response = await api.post(`/api/tickets/${ticketId}/comments`, { bodyMarkdown });
  assert.equal(response.status, 201, response.text);
  return response.body;
}

describe("creating comments", () => {
  test("answers 201 with a local_only comment whose sync timestamps equal its own", async () => {
    const { id } = await ticket();
    const created = await comment(id, "Looks **good**");
    assert.deepEqual(Object.keys(created).sort(), [
      "bodyHtml",
      "bodyMarkdown",
      "createdAt",
      "id",
      "sync",
      "ticketId",
    ]);
    assert.equal(created.ticketId, id);
    assert.equal(created.bodyMarkdown, "Looks **good**");
    assert.equal(created.bodyHtml, "<p>Looks <strong>good</strong></p>\n");
    assert.deepEqual(created.sync, {
      commentId: created.id,
      status: "local_only",
      remoteCommentId: null,
      pushedAt: null,
      lastError: null,
      createdAt: created.createdAt,
      updatedAt: created.createdAt,
    });
    // The answer is built from what was written, not read back: it is the stored comment.
    const listed = await api.get(`/api/tickets/${id}/comments`);
    assert.deepEqual(listed.body.comments, [created]);
  });

  test("stores the body trimmed and renders sanitized HTML", async () => {
    const { id } = await ticket();
    const created = await comment(id, "  \n<script>alert(1)</script> [x](javascript:alert(1))  \n");
    assert.equal(created.bodyMarkdown, "<script>alert(1)</script> [x](javascript:alert(1))");
    assert.doesNotMatch(created.bodyHtml, /<script|href="javascript/);
  });

  test("rejects a missing, blank, non-string or oversized body and creates nothing", async () => {
    const { id } = await ticket();
    assertError(await api.post(`/api/tickets/${id}/comments`, {}), 400, "bodyMarkdown is required");
    assertError(
      await api.post(`/api/tickets/${id}/comments`, { bodyMarkdown: " \n\t " }),
      400,
      "bodyMarkdown must not be empty",
    );
    assertError(
      await api.post(`/api/tickets/${id}/comments`, { bodyMarkdown: 5 }),
      400,
      "bodyMarkdown must be a string",
    );
    assertError(
      await api.post(`/api/tickets/${id}/comments`, { bodyMarkdown: "x".repeat(200_001) }),
      400,
      "bodyMarkdown must be at most 200000 characters",
    );
    // The limit counts the trimmed body.
    await comment(id, ` ${"x".repeat(200_000)} `);
    assert.equal((await api.get(`/api/tickets/${id}/comments`)).body.comments.length, 1);
  });

  test("404 for an unknown ticket, 400 for a malformed id", async () => {
    assertError(
      await api.post("/api/tickets/999999/comments", { bodyMarkdown: "x" }),
      404,
      "ticket not found",
    );
    assertError(await api.get("/api/tickets/999999/comments"), 404, "ticket not found");
    assertError(await api.get("/api/tickets/0/comments"), 400);
  });
});

describe("listing comments", () => {
  test("lists newest first, also inside the full ticket", async () => {
    const { id } = await ticket();
    const first = await comment(id, "first");
    const second = await comment(id, "second");
    const third = await comment(id, "third");
    const listed = await api.get(`/api/tickets/${id}/comments`);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.comments.map((c: { id: number }) => c.id),
      [third.id, second.id, first.id],
    );
    assert.deepEqual(
      (await getTicket(api, id)).comments.map((c: { id: number }) => c.id),
      [third.id, second.id, first.id],
    );
  });

  test("only the ticket's own comments", async () => {
    const a = await ticket("a");
    const b = await ticket("b");
    await comment(a.id, "on a");
    const listed = await api.get(`/api/tickets/${b.id}/comments`);
    assert.deepEqual(listed.body, { comments: [] });
  });
});

describe("editing and deleting comments", () => {
  test("PATCH replaces the body (trimmed), re-renders it and keeps createdAt and sync", async () => {
    const { id } = await ticket();
    const created = await comment(id, "old");
    const patched = await api.patch(`/api/comments/${created.id}`, { bodyMarkdown: " _new_ " });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.bodyMarkdown, "_new_");
    assert.equal(patched.body.bodyHtml, "<p><em>new</em></p>\n");
    assert.equal(patched.body.createdAt, created.createdAt);
    assert.deepEqual(patched.body.sync, created.sync);
    const listed = await api.get(`/api/tickets/${id}/comments`);
    assert.equal(listed.body.comments[0].bodyMarkdown, "_new_");
  });

  test("PATCH without a body field, or with a blank one, is 400 and changes nothing", async () => {
    const { id } = await ticket();
    const created = await comment(id, "keep");
    assertError(
      await api.patch(`/api/comments/${created.id}`, {}),
      400,
      "bodyMarkdown is required",
    );
    assertError(
      await api.patch(`/api/comments/${created.id}`, { bodyMarkdown: "   " }),
      400,
      "bodyMarkdown must not be empty",
    );
    const listed = await api.get(`/api/tickets/${id}/comments`);
    assert.equal(listed.body.comments[0].bodyMarkdown, "keep");
  });

  test("DELETE answers 204 and removes the comment; a second DELETE is 404", async () => {
    const { id } = await ticket();
    const created = await comment(id, "bye");
    const removed = await api.delete(`/api/comments/${created.id}`);
    assert.equal(removed.status, 204);
    assert.equal(removed.text, "");
    assert.deepEqual((await api.get(`/api/tickets/${id}/comments`)).body, { comments: [] });
    assertError(await api.delete(`/api/comments/${created.id}`), 404, "comment not found");
    assertError(
      await api.patch(`/api/comments/${created.id}`, { bodyMarkdown: "x" }),
      404,
      "comment not found",
    );
  });

  test("deleting the ticket deletes its comments", async () => {
    const { id } = await ticket();
    const created = await comment(id, "goes with the ticket");
    assert.equal((await api.delete(`/api/tickets/${id}`)).status, 204);
    assertError(await api.delete(`/api/comments/${created.id}`), 404);
  });
});

describe("pushed and pushing comments are read-only", () => {
  const staleBefore = () => new Date(Date.now() - 15 * 60_000).toISOString();

  test("PATCH and DELETE of a pushed comment are 400 and change nothing", async () => {
    const { id } = await ticket();
    const created = await comment(id, "pushed");
    assert.ok(store.beginPush(created.id, staleBefore(), new Date().toISOString()));
    assert.ok(
      store.markPushed(created.id, "r-1", new Date().toISOString(), new Date().toISOString()),
    );
    assertError(
      await api.patch(`/api/comments/${created.id}`, { bodyMarkdown: "edited" }),
      400,
      "comment was pushed to the remote issue and is read-only",
    );
    assertError(
      await api.delete(`/api/comments/${created.id}`),
      400,
      "comment was pushed to the remote issue and is read-only",
    );
    const [listed] = (await api.get(`/api/tickets/${id}/comments`)).body.comments;
    assert.equal(listed.bodyMarkdown, "pushed");
    assert.equal(listed.sync.status, "pushed");
    assert.equal(listed.sync.remoteCommentId, "r-1");
  });

  test("PATCH and DELETE of a comment being pushed are 400", async () => {
    const { id } = await ticket();
    const created = await comment(id, "pushing");
    assert.ok(store.beginPush(created.id, staleBefore(), new Date().toISOString()));
    assertError(await api.patch(`/api/comments/${created.id}`, { bodyMarkdown: "x" }), 400);
    assertError(await api.delete(`/api/comments/${created.id}`), 400);
    assert.equal((await api.get(`/api/tickets/${id}/comments`)).body.comments.length, 1);
  });

  test("a comment whose push failed stays editable", async () => {
    const { id } = await ticket();
    const created = await comment(id, "failed");
    store.beginPush(created.id, staleBefore(), new Date().toISOString());
    assert.ok(store.markPushFailed(created.id, "the remote refused", new Date().toISOString()));
    const patched = await api.patch(`/api/comments/${created.id}`, { bodyMarkdown: "retry me" });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.sync.status, "push_failed");
    assert.equal(patched.body.sync.lastError, "the remote refused");
  });
});

describe("sync-state transitions (the remote push's storage API)", () => {
  test("beginPush claims local_only and push_failed comments once, and stale pushing ones", async () => {
    const { id } = await ticket();
    const created = await comment(id, "claim me");
    const base = Date.now();
    const at = (offsetMinutes: number) => new Date(base + offsetMinutes * 60_000).toISOString();
    assert.equal(store.beginPush(created.id, at(-15), at(0)), true);
    assert.equal(store.beginPush(created.id, at(-15), at(0)), false, "a fresh attempt owns it");
    // Twenty minutes later the attempt counts as crashed and may be claimed again.
    assert.equal(store.beginPush(created.id, at(5), at(20)), true);
    assert.equal(store.markPushFailed(created.id, "boom", at(20)), true);
    assert.equal(store.beginPush(created.id, at(5), at(21)), true, "push_failed may be retried");
    assert.equal(store.markPushed(created.id, null, at(21), at(21)), true);
    assert.equal(store.beginPush(created.id, at(100), at(200)), false, "pushed is final");
    assert.equal(store.markPushFailed(created.id, "late", at(22)), false);
    const sync = store.get(created.id)?.sync;
    assert.equal(sync?.status, "pushed");
    assert.equal(sync?.remoteCommentId, null);
    assert.equal(sync?.lastError, null);
    assert.equal(sync?.updatedAt, at(21));
  });
});
