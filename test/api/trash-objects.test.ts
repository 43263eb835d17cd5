import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError, createTag } from "../helpers/factories.js";
import {
  boardWithLanes,
  boardWithTickets,
  everythingAbout,
  idsOf,
  listTickets,
  newTicket,
  ticketWithEverything,
} from "../helpers/tickets.js";
import { trashTestServer, without } from "./trash-setup.js";

// docs/api.md, "The trash": deleted comments, tags, lanes and boards come back exactly, and what
// an object hangs on must come back first.

const { api, deleted, entryOf, restore, trash } = await trashTestServer();

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
