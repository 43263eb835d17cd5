import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createTag } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { SseClient } from "../helpers/sse-client.js";
import { boardWithLanes, newTicket, patchTicket } from "../helpers/tickets.js";

// docs/api.md, "Coordination for agents": a strong ETag on every GET (but the stream), 304 for a
// current one; the board stream says which tickets changed.

const api = await startTestServer();

const getWith = (path: string, etag: string) =>
  api.request("GET", path, undefined, { "if-none-match": etag });

describe("ETag and If-None-Match", () => {
  test("every GET of the API answers a strong ETag and 304 when it is current", async () => {
    const board = await boardWithLanes(api, "Everything");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    const comment = await api.post(`/api/tickets/${ticket.id}/comments`, { bodyMarkdown: "c" });
    assert.equal(comment.status, 201);
    const paths = [
      "/api/health",
      "/api/meta",
      "/api/boards",
      `/api/boards/${board.boardId}`,
      `/api/boards/${board.boardId}/lanes`,
      `/api/boards/${board.boardId}/tags`,
      `/api/boards/${board.boardId}/tickets`,
      `/api/boards/${board.boardId}/tickets?ready=true&archived=all`,
      `/api/boards/${board.boardId}/export`,
      `/api/tickets/${ticket.id}`,
      `/api/tickets/${ticket.id}/relations`,
      `/api/tickets/${ticket.id}/comments`,
      `/api/tickets/${ticket.id}/activity`,
      `/api/tickets/${ticket.id}/events`,
      `/api/tickets/${ticket.id}/tag-reasons`,
      "/api/openapi.json",
    ];
    for (const path of paths) {
      const first = await api.get(path);
      assert.equal(first.status, 200, `${path}: ${first.text}`);
      const etag = first.headers.get("etag");
      assert.match(etag ?? "", /^"[^"]+"$/, `${path} has a strong ETag`);
      const again = await getWith(path, etag as string);
      assert.equal(again.status, 304, path);
      assert.equal(again.text, "", `${path}: no body`);
      assert.equal(again.headers.get("etag"), etag);
      const other = await getWith(path, '"something else"');
      assert.equal(other.status, 200, path);
      assert.equal(other.text, first.text, `${path}: same answer`);
    }
  });

  test("a list's ETag changes with every change the stream announces", async () => {
    const board = await boardWithLanes(api, "List tags");
    const path = `/api/boards/${board.boardId}/tickets`;
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    const changes: Array<() => Promise<unknown>> = [
      () => patchTicket(api, ticket.id, { title: "u" }),
      () => api.post(`/api/tickets/${ticket.id}/comments`, { bodyMarkdown: "c" }),
      () => createTag(api, board.boardId, "new"),
      () =>
        api.post(`/api/boards/${board.boardId}/lanes/reorder`, {
          laneIds: [...board.laneIds].reverse(),
        }),
      () => api.patch(`/api/boards/${board.boardId}`, { name: "renamed" }),
      () => api.post(`/api/tickets/${ticket.id}/claim`, { actor: "a" }),
    ];
    let etag = (await api.get(path)).headers.get("etag") as string;
    for (const change of changes) {
      await change();
      const after = await getWith(path, etag);
      assert.equal(after.status, 200);
      assert.notEqual(after.headers.get("etag"), etag);
      etag = after.headers.get("etag") as string;
      // The cached answer is the one a fresh build gives.
      const again = await api.get(path);
      assert.equal(again.text, after.text);
    }
  });

  test("an export is answered again only until its board changes in any way it shows", async () => {
    const board = await boardWithLanes(api, "Export tags");
    const path = `/api/boards/${board.boardId}/export`;
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    const other = await newTicket(api, board.boardId, board.laneIds[1], "o");
    const tag = await createTag(api, board.boardId, "tagged");
    const comment = await api.post(`/api/tickets/${ticket.id}/comments`, { bodyMarkdown: "c" });
    const reference = {
      provider: "github",
      instanceUrl: "https://github.com",
      projectKey: "acme/app",
      issueKey: "7",
      displayRef: "acme/app#7",
      url: "https://github.com/acme/app/issues/7",
    };
    // Every kind of data the export carries, changed once each.
    const changes: Array<[string, () => Promise<{ status: number }>]> = [
      ["ticket title", () => api.patch(`/api/tickets/${ticket.id}`, { title: "u" })],
      ["ticket body", () => api.patch(`/api/tickets/${ticket.id}`, { bodyMarkdown: "b" })],
      ["new comment", () => api.post(`/api/tickets/${ticket.id}/comments`, { bodyMarkdown: "d" })],
      ["comment edit", () => api.patch(`/api/comments/${comment.body.id}`, { bodyMarkdown: "e" })],
      ["comment deleted", () => api.delete(`/api/comments/${comment.body.id}`)],
      ["tag attached", () => api.post(`/api/tickets/${ticket.id}/tags/${tag.id}`, {})],
      ["tag renamed", () => api.patch(`/api/tags/${tag.id}`, { name: "renamed" })],
      [
        "event",
        () => api.post(`/api/tickets/${ticket.id}/events`, { source: "ci", kind: "k", title: "t" }),
      ],
      [
        "reference",
        () => api.put(`/api/tickets/${ticket.id}/external-references/source`, reference),
      ],
      ["blocker", () => api.patch(`/api/tickets/${other.id}`, { blockerIds: [ticket.id] })],
      ["lane renamed", () => api.patch(`/api/lanes/${board.laneIds[0]}`, { name: "first" })],
      ["board renamed", () => api.patch(`/api/boards/${board.boardId}`, { name: "Renamed" })],
      ["ticket deleted", () => api.delete(`/api/tickets/${other.id}`)],
    ];
    let previous = await api.get(path);
    for (const [what, change] of changes) {
      const done = await change();
      assert.ok(done.status < 300, `${what}: ${done.status}`);
      const after = await getWith(path, previous.headers.get("etag") as string);
      assert.equal(after.status, 200, what);
      assert.notEqual(after.text, previous.text, `${what} shows in the export`);
      assert.notEqual(after.headers.get("etag"), previous.headers.get("etag"), what);
      // Answered from the cache now: the same bytes as the answer just built.
      const again = await api.get(path);
      assert.equal(again.text, after.text, what);
      assert.equal(again.headers.get("etag"), after.headers.get("etag"), what);
      previous = after;
    }
  });

  test("a change to one board leaves another board's list tag alone", async () => {
    const one = await boardWithLanes(api, "One");
    const two = await boardWithLanes(api, "Two");
    const path = `/api/boards/${two.boardId}/tickets`;
    const etag = (await api.get(path)).headers.get("etag") as string;
    await newTicket(api, one.boardId, one.laneIds[0], "t");
    assert.equal((await getWith(path, etag)).status, 304);
  });
});

describe("board stream", () => {
  test("a message names the tickets the change touched", async () => {
    const board = await boardWithLanes(api, "Stream ids");
    const blocker = await newTicket(api, board.boardId, board.laneIds[0], "blocker");
    const blocked = await newTicket(api, board.boardId, board.laneIds[0], "blocked");
    const other = await newTicket(api, board.boardId, board.laneIds[1], "other");
    const client = await SseClient.open(`${api.url}/api/boards/${board.boardId}/events`);
    try {
      await patchTicket(api, blocked.id, { blockerIds: [blocker.id] });
      await client.waitForMessages(1);
      assert.deepEqual(client.messages[0]?.data.ticketIds, [blocker.id, blocked.id].sort());
      await api.post(`/api/boards/${board.boardId}/lanes`, { name: "review" });
      await client.waitForMessages(2);
      assert.deepEqual(client.messages[1]?.data.ticketIds, []);
      await api.post(`/api/tickets/${other.id}/claim`, { actor: "a" });
      await client.waitForMessages(3);
      assert.deepEqual(client.messages[2]?.data.ticketIds, [other.id]);
    } finally {
      client.close();
    }
  });
});
