import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError, createTag } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, getTicket, newTicket, patchTicket } from "../helpers/tickets.js";

// docs/api.md, "Coordination for agents": versions, ETag on a ticket, If-Match on every write to a
// ticket.

const api = await startTestServer();

const versionOf = async (id: number): Promise<number> => (await getTicket(api, id)).version;
const etagOf = async (id: number): Promise<string> => {
  const response = await api.get(`/api/tickets/${id}`);
  assert.equal(response.status, 200);
  const etag = response.headers.get("etag");
  assert.ok(etag);
  return etag;
};

describe("version", () => {
  test("starts at 1 and grows by exactly 1 per request, however many fields it changes", async () => {
    const board = await boardWithLanes(api, "Versions");
    const tag = await createTag(api, board.boardId, "x");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    assert.equal(ticket.version, 1);
    const patched = await patchTicket(api, ticket.id, {
      title: "u",
      bodyMarkdown: "b",
      priority: 4,
      tagIds: [tag.id],
      laneId: board.laneIds[1],
    });
    assert.equal(patched.version, 2);
    assert.equal(await versionOf(ticket.id), 2);
    // A PATCH that changes nothing leaves the version alone.
    const same = await patchTicket(api, ticket.id, { title: "u", priority: 4 });
    assert.equal(same.version, 2);
  });

  test("a relation seen from the other side raises the other ticket's version", async () => {
    const board = await boardWithLanes(api, "Sides");
    const a = await newTicket(api, board.boardId, board.laneIds[0], "a");
    const b = await newTicket(api, board.boardId, board.laneIds[1], "b");
    const c = await newTicket(api, board.boardId, board.laneIds[1], "c");
    await patchTicket(api, a.id, { blockerIds: [b.id] });
    assert.equal(await versionOf(b.id), 2, "b's blockedBy changed");
    await patchTicket(api, a.id, { relatedIds: [c.id] });
    assert.equal(await versionOf(c.id), 2, "c's related changed");
    await patchTicket(api, c.id, { parentTicketId: b.id });
    assert.equal(await versionOf(b.id), 3, "b gained a child");
    // b's title shows in a's blockers and c's parent.
    await patchTicket(api, b.id, { title: "b2" });
    assert.equal(await versionOf(a.id), 4);
    assert.equal(await versionOf(c.id), 4);
    // Deleting b changes a (blockers) and c (parent).
    assert.equal((await api.delete(`/api/tickets/${b.id}`)).status, 204);
    assert.equal(await versionOf(a.id), 5);
    assert.equal(await versionOf(c.id), 5);
  });

  test("a neighbour showing a retitled ticket in several lists gets one version more", async () => {
    const board = await boardWithLanes(api, "Twice");
    const parent = await newTicket(api, board.boardId, board.laneIds[0], "parent");
    const child = await newTicket(api, board.boardId, board.laneIds[0], "child");
    await patchTicket(api, child.id, { parentTicketId: parent.id });
    // The parent also blocks and is related to its child: each shows the other in three lists.
    await patchTicket(api, child.id, { blockerIds: [parent.id], relatedIds: [parent.id] });
    const before = await getTicket(api, child.id);
    const retitled = await patchTicket(api, parent.id, { title: "parent renamed" });
    const after = await getTicket(api, child.id);
    assert.equal(after.version, before.version + 1);
    assert.equal(after.parent?.title, "parent renamed");
    assert.deepEqual(
      [...after.blockers, ...after.related].map((relation) => relation.title),
      ["parent renamed", "parent renamed"],
    );
    // And the other way round.
    const both = await patchTicket(api, child.id, { title: "child renamed" });
    assert.equal(both.version, after.version + 1);
    assert.equal((await getTicket(api, parent.id)).version, retitled.version + 1);
  });

  // 32 neighbours or more besides the parent are noted set-wise (storage/ticket-change-triggers.ts),
  // fewer one at a time: both must raise each neighbour once and drop its kept lists.
  for (const children of [20, 40]) {
    test(`a retitled ticket with ${children} children and a blocker raises each neighbour once`, async () => {
      const board = await boardWithLanes(api, `Crowd ${children}`);
      const [lane] = board.laneIds;
      const blocker = await newTicket(api, board.boardId, lane, "blocker");
      const parent = await newTicket(api, board.boardId, lane, "parent");
      await patchTicket(api, parent.id, { blockerIds: [blocker.id] });
      const kids = [];
      for (let i = 0; i < children; i++) {
        const kid = await newTicket(api, board.boardId, lane, `child ${i}`);
        kids.push(await patchTicket(api, kid.id, { parentTicketId: parent.id }));
      }
      // The first child also shows the parent as its blocker and as related: still one version.
      const [first] = kids;
      await patchTicket(api, first.id, { blockerIds: [parent.id], relatedIds: [parent.id] });
      const neighbours = [blocker, ...kids];
      // Read each once first, so their answers are kept and must be dropped.
      const before = await Promise.all(neighbours.map((ticket) => versionOf(ticket.id)));
      const renamed = await patchTicket(api, parent.id, { title: "parent renamed" });
      const after = await Promise.all(neighbours.map((ticket) => getTicket(api, ticket.id)));
      assert.deepEqual(
        after.map((ticket) => ticket.version),
        before.map((version) => version + 1),
      );
      for (const kid of after.slice(1)) assert.equal(kid.parent?.title, "parent renamed");
      assert.deepEqual(
        [...(after[1]?.blockers ?? []), ...(after[1]?.related ?? [])].map((r: any) => r.title),
        ["parent renamed", "parent renamed"],
      );
      assert.deepEqual(
        after[0]?.blockedBy.map((ticket: { title: string }) => ticket.title),
        ["parent renamed"],
      );
      // A second change in another request raises them again, by one.
      await patchTicket(api, parent.id, { priority: renamed.priority === 4 ? 1 : 4 });
      assert.deepEqual(
        await Promise.all(neighbours.map((ticket) => versionOf(ticket.id))),
        before.map((version) => version + 2),
      );
    });
  }

  test("renumbering by another ticket's move raises the renumbered tickets only", async () => {
    const board = await boardWithLanes(api, "Renumber");
    const [lane] = board.laneIds;
    const first = await newTicket(api, board.boardId, lane, "1");
    const second = await newTicket(api, board.boardId, lane, "2");
    const third = await newTicket(api, board.boardId, lane, "3");
    // Moving the third to the top shifts the first and the second down by one.
    const moved = await api.patch(`/api/tickets/${third.id}/position`, {
      laneId: lane,
      position: 0,
    });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.version, 2);
    assert.equal(await versionOf(first.id), 2);
    assert.equal(await versionOf(second.id), 2);
    // Moving the last ticket (now `second`) to the end again changes nothing.
    const still = await api.patch(`/api/tickets/${second.id}/position`, { laneId: lane });
    assert.equal(still.body.version, 2);
  });

  test("comments, tag renames, references and board renames count", async () => {
    const board = await boardWithLanes(api, "Annotations");
    const tag = await createTag(api, board.boardId, "t");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t", { tagIds: [tag.id] });
    const comment = await api.post(`/api/tickets/${ticket.id}/comments`, { bodyMarkdown: "c" });
    assert.equal(comment.status, 201);
    assert.equal(await versionOf(ticket.id), 2);
    assert.equal((await api.patch(`/api/tags/${tag.id}`, { name: "renamed" })).status, 200);
    assert.equal(await versionOf(ticket.id), 3);
    const reference = await api.put(`/api/tickets/${ticket.id}/external-references/pr`, {
      provider: "github",
      instanceUrl: "https://github.com",
      projectKey: "o/r",
      issueKey: "1",
      displayRef: "o/r#1",
      url: "https://github.com/o/r/issues/1",
    });
    assert.equal(reference.status, 200, reference.text);
    assert.equal(await versionOf(ticket.id), 4);
    assert.equal((await api.patch(`/api/boards/${board.boardId}`, { name: "New" })).status, 200);
    assert.equal(await versionOf(ticket.id), 5, "ref shows the board name");
    // What the Ticket does not show leaves the version alone: a ticket event, the reason of a
    // tag already attached.
    const event = { source: "ci", kind: "build", title: "green" };
    assert.equal((await api.post(`/api/tickets/${ticket.id}/events`, event)).status, 201);
    const reason = await api.post(`/api/tickets/${ticket.id}/tags/${tag.id}`, { reason: "why" });
    assert.equal(reason.status, 200, reason.text);
    assert.equal(await versionOf(ticket.id), 5);
  });

  test("GET answers a strong ETag that follows the version, and 304 for a current one", async () => {
    const board = await boardWithLanes(api, "Etag");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    const etag = await etagOf(ticket.id);
    assert.match(etag, /^"[^"]+"$/);
    const again = await api.request("GET", `/api/tickets/${ticket.id}`, undefined, {
      "if-none-match": etag,
    });
    assert.equal(again.status, 304);
    assert.equal(again.text, "");
    assert.equal(again.headers.get("etag"), etag);
    await patchTicket(api, ticket.id, { priority: 4 });
    const changed = await api.request("GET", `/api/tickets/${ticket.id}`, undefined, {
      "if-none-match": etag,
    });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get("etag"), etag);
    assert.equal(changed.body.priority, 4);
  });
});

describe("If-Match", () => {
  /** Each write endpoint of a ticket, with a body that succeeds on a fresh ticket. */
  const writes = (boardId: number, laneIds: number[], otherLaneId: number) => [
    { name: "PATCH", method: "PATCH", path: "", body: { priority: 4 }, ok: 200 },
    { name: "DELETE", method: "DELETE", path: "", body: undefined, ok: 204 },
    {
      name: "transition",
      method: "PATCH",
      path: "/transition",
      body: { laneName: "doing" },
      ok: 200,
    },
    {
      name: "position",
      method: "PATCH",
      path: "/position",
      body: { laneId: laneIds[1] },
      ok: 200,
    },
    {
      name: "move",
      method: "POST",
      path: "/move",
      body: { boardId, laneId: otherLaneId },
      ok: 200,
    },
    { name: "claim", method: "POST", path: "/claim", body: { actor: "agent" }, ok: 200 },
    { name: "release", method: "POST", path: "/release", body: { actor: "agent" }, ok: 200 },
  ];

  test("a stale ETag → 412 and nothing written; the current one or * → written", async () => {
    const board = await boardWithLanes(api, "Conditional");
    const target = await boardWithLanes(api, "Target");
    for (const write of writes(target.boardId, board.laneIds, target.laneIds[0] as number)) {
      const ticket = await newTicket(api, board.boardId, board.laneIds[0], write.name);
      const stale = await etagOf(ticket.id);
      await patchTicket(api, ticket.id, { title: `${write.name}!` });
      const before = await api.get(`/api/tickets/${ticket.id}`);
      const refused = await api.request(
        write.method,
        `/api/tickets/${ticket.id}${write.path}`,
        write.body,
        { "if-match": stale },
      );
      assertError(refused, 412, "ticket has changed");
      const after = await api.get(`/api/tickets/${ticket.id}`);
      assert.deepEqual(after.body, before.body, `${write.name} wrote nothing`);
      const current = after.headers.get("etag") as string;
      const accepted = await api.request(
        write.method,
        `/api/tickets/${ticket.id}${write.path}`,
        write.body,
        { "if-match": `"other", ${current}` },
      );
      assert.equal(accepted.status, write.ok, `${write.name}: ${accepted.text}`);
      const second = await newTicket(api, board.boardId, board.laneIds[0], `${write.name} *`);
      const star = await api.request(
        write.method,
        `/api/tickets/${second.id}${write.path}`,
        write.body,
        { "if-match": "*" },
      );
      assert.equal(star.status, write.ok, `${write.name} *: ${star.text}`);
    }
  });

  test("a weak tag never matches; an unknown ticket is 404", async () => {
    const board = await boardWithLanes(api, "Weak");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    const etag = await etagOf(ticket.id);
    const weak = await api.request(
      "PATCH",
      `/api/tickets/${ticket.id}`,
      { priority: 1 },
      {
        "if-match": `W/${etag}`,
      },
    );
    assertError(weak, 412, "ticket has changed");
    const missing = await api.request(
      "PATCH",
      "/api/tickets/999999",
      { priority: 1 },
      {
        "if-match": etag,
      },
    );
    assertError(missing, 404, "ticket not found");
  });
});
