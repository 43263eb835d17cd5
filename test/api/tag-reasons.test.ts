import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError, createTag } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, getTicket, newTicket, patchTicket } from "../helpers/tickets.js";

const api = await startTestServer();

async function setup() {
  const board = await boardWithLanes(api, "Reasons");
  const ticket = await newTicket(api, board.boardId, board.laneIds[0], "tagged");
  return { ...board, ticketId: ticket.id as number };
}

const setReason = (ticketId: number, tagId: number, body: unknown) =>
  api.post(`/api/tickets/${ticketId}/tags/${tagId}`, body);

async function reasons(ticketId: number): Promise<any[]> {
  const response = await api.get(`/api/tickets/${ticketId}/tag-reasons`);
  assert.equal(response.status, 200, response.text);
  return response.body.tags;
}

describe("setting a tag reason", () => {
  test("attaches the tag with its reason and answers the TicketTagReason", async () => {
    const { boardId, ticketId } = await setup();
    const tag = await createTag(api, boardId, "blocked", "#f00");
    const comment = await api.post(`/api/tickets/${ticketId}/comments`, { bodyMarkdown: "why" });
    const set = await setReason(ticketId, tag.id, {
      reason: "  waiting for review ",
      details: { by: "agent", score: 0.4 },
      reasonCommentId: comment.body.id,
    });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body.tag, tag);
    assert.equal(set.body.reason, "waiting for review");
    assert.deepEqual(set.body.details, { by: "agent", score: 0.4 });
    assert.equal(set.body.reasonCommentId, comment.body.id);
    assert.ok(set.body.attachedAt);
    assert.equal(set.body.updatedAt, set.body.attachedAt);
    assert.deepEqual(await reasons(ticketId), [set.body]);
    // The ticket carries the tag too (tagIds and tag-reasons share the links).
    assert.deepEqual((await getTicket(api, ticketId)).tags, [tag]);
  });

  test("an empty body attaches without a reason", async () => {
    const { boardId, ticketId } = await setup();
    const tag = await createTag(api, boardId, "plain");
    const set = await setReason(ticketId, tag.id, {});
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.reason, null);
    assert.equal(set.body.details, null);
    assert.equal(set.body.reasonCommentId, null);
  });

  test("a second set keeps attachedAt, moves updatedAt, keeps omitted fields, clears nulls", async () => {
    const { boardId, ticketId } = await setup();
    const tag = await createTag(api, boardId, "risk");
    const first = (await setReason(ticketId, tag.id, { reason: "r1", details: { a: 1 } })).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = (await setReason(ticketId, tag.id, { reason: "r2" })).body;
    assert.equal(second.attachedAt, first.attachedAt);
    assert.ok(second.updatedAt > first.updatedAt);
    assert.equal(second.reason, "r2");
    assert.deepEqual(second.details, { a: 1 }, "omitted details are kept");
    const third = (await setReason(ticketId, tag.id, { details: null, reason: "" })).body;
    assert.equal(third.details, null);
    assert.equal(third.reason, null, "a blank reason means none");
    assert.equal((await reasons(ticketId)).length, 1);
  });

  test("a tag attached by tagIds has a reason slot; PATCH tagIds keeps reasons of kept tags", async () => {
    const { boardId, ticketId } = await setup();
    const kept = await createTag(api, boardId, "kept");
    const dropped = await createTag(api, boardId, "dropped");
    await patchTicket(api, ticketId, { tagIds: [kept.id, dropped.id] });
    const listed = await reasons(ticketId);
    assert.deepEqual(
      listed.map((entry) => [entry.tag.name, entry.reason]),
      [
        ["dropped", null],
        ["kept", null],
      ],
    );
    assert.ok(listed[0].attachedAt);
    await setReason(ticketId, kept.id, { reason: "still relevant" });
    await patchTicket(api, ticketId, { tagIds: [kept.id] });
    assert.deepEqual(
      (await reasons(ticketId)).map((entry) => [entry.tag.name, entry.reason]),
      [["kept", "still relevant"]],
    );
  });

  test("tags are listed by name case-insensitively, then id", async () => {
    const { boardId, ticketId } = await setup();
    const names = ["beta", "Alpha", "gamma", "alpha2"];
    for (const name of names) {
      const tag = await createTag(api, boardId, name);
      await setReason(ticketId, tag.id, {});
    }
    assert.deepEqual(
      (await reasons(ticketId)).map((entry) => entry.tag.name),
      ["Alpha", "alpha2", "beta", "gamma"],
    );
  });

  test("attaching or detaching changes the ticket's updatedAt; a reason edit does not", async () => {
    const { boardId, ticketId } = await setup();
    const tag = await createTag(api, boardId, "stamp");
    const initial = (await getTicket(api, ticketId)).updatedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await setReason(ticketId, tag.id, { reason: "a" });
    const attached = (await getTicket(api, ticketId)).updatedAt;
    assert.ok(attached > initial);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await setReason(ticketId, tag.id, { reason: "b" });
    assert.equal((await getTicket(api, ticketId)).updatedAt, attached);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await api.delete(`/api/tickets/${ticketId}/tags/${tag.id}`);
    assert.ok((await getTicket(api, ticketId)).updatedAt > attached);
  });
});

describe("refused tag reasons change nothing", () => {
  test("a tag of another board is 400; an unknown tag or ticket is 404", async () => {
    const { ticketId } = await setup();
    const elsewhere = await boardWithLanes(api, "Elsewhere");
    const foreign = await createTag(api, elsewhere.boardId, "foreign");
    assertError(
      await setReason(ticketId, foreign.id, { reason: "x" }),
      400,
      "tag is not a tag of this ticket's board",
    );
    assertError(await setReason(ticketId, 999_999, {}), 404, "tag not found");
    assertError(await setReason(999_999, foreign.id, {}), 404, "ticket not found");
    assertError(await api.get("/api/tickets/999999/tag-reasons"), 404, "ticket not found");
    assert.deepEqual(await reasons(ticketId), []);
  });

  test("reasonCommentId must be a comment of the same ticket", async () => {
    const { boardId, laneIds, ticketId } = await setup();
    const sibling = await newTicket(api, boardId, laneIds[0], "sibling");
    const foreignComment = await api.post(`/api/tickets/${sibling.id}/comments`, {
      bodyMarkdown: "not yours",
    });
    const tag = await createTag(api, boardId, "why");
    assertError(
      await setReason(ticketId, tag.id, { reasonCommentId: foreignComment.body.id }),
      400,
      "reasonCommentId is not a comment of this ticket",
    );
    assertError(
      await setReason(ticketId, tag.id, { reasonCommentId: 999_999 }),
      400,
      "reasonCommentId is not a comment of this ticket",
    );
    assert.deepEqual(await reasons(ticketId), [], "the refused set attached nothing");
  });

  test("the body is required and typed", async () => {
    const { boardId, ticketId } = await setup();
    const tag = await createTag(api, boardId, "typed");
    assertError(await api.request("POST", `/api/tickets/${ticketId}/tags/${tag.id}`), 400);
    assertError(
      await setReason(ticketId, tag.id, { reason: 5 }),
      400,
      "reason must be a string or null",
    );
    assertError(
      await setReason(ticketId, tag.id, { details: "x" }),
      400,
      "details must be an object or null",
    );
    assertError(
      await setReason(ticketId, tag.id, { reasonCommentId: "1" }),
      400,
      "reasonCommentId must be an integer or null",
    );
    assert.deepEqual(await reasons(ticketId), []);
  });
});

describe("removing a tag from a ticket", () => {
  test("answers 204, detaches the tag and drops its reason", async () => {
    const { boardId, ticketId } = await setup();
    const tag = await createTag(api, boardId, "temporary");
    await setReason(ticketId, tag.id, { reason: "for now" });
    const removed = await api.delete(`/api/tickets/${ticketId}/tags/${tag.id}`);
    assert.equal(removed.status, 204);
    assert.deepEqual(await reasons(ticketId), []);
    assert.deepEqual((await getTicket(api, ticketId)).tags, []);
    // Re-attaching starts fresh.
    const again = (await setReason(ticketId, tag.id, {})).body;
    assert.equal(again.reason, null);
  });

  test("404 when the tag is not attached, unknown, or the ticket unknown", async () => {
    const { boardId, ticketId } = await setup();
    const tag = await createTag(api, boardId, "never");
    assertError(
      await api.delete(`/api/tickets/${ticketId}/tags/${tag.id}`),
      404,
      "tag is not attached to this ticket",
    );
    assertError(await api.delete(`/api/tickets/${ticketId}/tags/999999`), 404, "tag not found");
    assertError(await api.delete(`/api/tickets/999999/tags/${tag.id}`), 404, "ticket not found");
  });

  test("a deleted reason comment leaves the tag attached with no comment link", async () => {
    const { boardId, ticketId } = await setup();
    const tag = await createTag(api, boardId, "linked");
    const comment = await api.post(`/api/tickets/${ticketId}/comments`, { bodyMarkdown: "see" });
    await setReason(ticketId, tag.id, { reason: "see comment", reasonCommentId: comment.body.id });
    await api.delete(`/api/comments/${comment.body.id}`);
    const [entry] = await reasons(ticketId);
    assert.equal(entry.reason, "see comment");
    assert.equal(entry.reasonCommentId, null);
  });
});
