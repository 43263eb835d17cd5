import assert from "node:assert/strict";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { describe, test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { sleep } from "../helpers/sse-client.js";
import { expectMessageCount, streamClients } from "./board-stream-setup.js";

// GET /api/boards/{id}/events (docs/api.md, "Board change stream"): which requests send which
// messages, to whom, when, and after a reconnection.

const api = await startTestServer();
const { connect, createBoard } = streamClients(api);

describe("board change stream", () => {
  test("answers with the event-stream headers and a connected comment first", async () => {
    const { boardId } = await createBoard();
    const client = await connect(api, boardId);
    assert.equal(client.status, 200);
    const headers = client.response.headers;
    assert.equal(headers["content-type"], "text/event-stream");
    assert.equal(headers["cache-control"], "no-cache, no-transform");
    assert.equal(headers.connection, "keep-alive");
    assert.equal(headers["x-accel-buffering"], "no");
    assert.deepEqual(client.comments, ["connected"]);
    assert.equal(client.messages.length, 0);
  });

  test("sends one board_updated message per committed request, with id and data", async () => {
    const { boardId } = await createBoard();
    const client = await connect(api, boardId);
    const before = Date.now();
    assert.equal((await api.post(`/api/boards/${boardId}/lanes`, { name: "review" })).status, 201);
    await expectMessageCount(client, 1);
    const [message] = client.messages;
    assert.match(message?.id ?? "", /^\d+$/);
    assert.deepEqual(Object.keys(message?.data).sort(), [
      "boardId",
      "event",
      "sentAt",
      "ticketIds",
    ]);
    assert.equal(message?.data.boardId, boardId);
    assert.equal(message?.data.event, "board_updated");
    assert.ok(Date.parse(message?.data.sentAt) >= before - 1000);

    assert.equal((await api.patch(`/api/boards/${boardId}`, { name: "renamed" })).status, 200);
    assert.equal((await api.post(`/api/boards/${boardId}/tags`, { name: "bug" })).status, 201);
    await expectMessageCount(client, 3);
    const ids = client.messages.map((m) => Number(m.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      "ids increase",
    );
    assert.equal(new Set(ids).size, 3);
  });

  test("coalesces a request that changes many rows into one message", async () => {
    const { boardId, laneIds } = await createBoard();
    const client = await connect(api, boardId);
    const reordered = await api.post(`/api/boards/${boardId}/lanes/reorder`, {
      laneIds: [...laneIds].reverse(),
    });
    assert.equal(reordered.status, 200);
    await expectMessageCount(client, 1);
  });

  test("a bulk operation over many tickets is one message", async () => {
    const { boardId, laneIds } = await createBoard();
    const ids: number[] = [];
    for (let n = 0; n < 5; n++) {
      const ticket = await api.post(`/api/boards/${boardId}/tickets`, {
        laneId: laneIds[0],
        title: `t${n}`,
      });
      ids.push(ticket.body.id);
    }
    const client = await connect(api, boardId);
    const bulk = await api.post(`/api/boards/${boardId}/tickets/bulk-complete`, { ticketIds: ids });
    assert.equal(bulk.status, 200, bulk.text);
    await expectMessageCount(client, 1);
  });

  test("changes beside tickets are announced: comments, reasons, references, events", async () => {
    const { boardId, laneIds } = await createBoard();
    const ticket = (
      await api.post(`/api/boards/${boardId}/tickets`, { laneId: laneIds[0], title: "t" })
    ).body;
    const tag = (await api.post(`/api/boards/${boardId}/tags`, { name: "why" })).body;
    const client = await connect(api, boardId);
    const comment = await api.post(`/api/tickets/${ticket.id}/comments`, { bodyMarkdown: "c" });
    assert.equal(comment.status, 201);
    await expectMessageCount(client, 1);
    await api.post(`/api/tickets/${ticket.id}/tags/${tag.id}`, { reason: "r" });
    await expectMessageCount(client, 2);
    await api.put(`/api/tickets/${ticket.id}/external-references/doc`, {
      provider: "wiki",
      instanceUrl: "",
      projectKey: "",
      issueKey: "",
      displayRef: "Doc",
      url: "https://wiki.example.com/doc",
    });
    await expectMessageCount(client, 3);
    await api.post(`/api/tickets/${ticket.id}/events`, { source: "ci", kind: "k", title: "t" });
    await expectMessageCount(client, 4);
    await api.delete(`/api/comments/${comment.body.id}`);
    await expectMessageCount(client, 5);
    // A reason updated on a tag already attached changes no field of the ticket, and an event
    // is not part of it either: their messages still name the ticket, so a follower refetches
    // that ticket (and its timeline), not the whole board.
    await api.post(`/api/tickets/${ticket.id}/tags/${tag.id}`, { reason: "another" });
    await expectMessageCount(client, 6);
    assert.deepEqual(
      client.messages.map((message) => message.data.ticketIds),
      [[ticket.id], [ticket.id], [ticket.id], [ticket.id], [ticket.id], [ticket.id]],
    );
  });

  test("a ticket moved to another board notifies both boards once", async () => {
    const source = await createBoard("source");
    const target = await createBoard("target");
    const ticket = await api.post(`/api/boards/${source.boardId}/tickets`, {
      laneId: source.laneIds[0],
      title: "moving",
    });
    const from = await connect(api, source.boardId);
    const to = await connect(api, target.boardId);
    const moved = await api.post(`/api/tickets/${ticket.body.id}/move`, {
      boardId: target.boardId,
      laneId: target.laneIds[0],
    });
    assert.equal(moved.status, 200, moved.text);
    await expectMessageCount(from, 1);
    await expectMessageCount(to, 1);
  });

  test("sends nothing for a rejected request", async () => {
    const { boardId } = await createBoard();
    assert.equal((await api.post(`/api/boards/${boardId}/tags`, { name: "dup" })).status, 201);
    const client = await connect(api, boardId);
    assert.equal((await api.post(`/api/boards/${boardId}/tags`, { name: "DUP" })).status, 409);
    assert.equal((await api.post(`/api/boards/${boardId}/lanes`, { name: "  " })).status, 400);
    // A change that does go through proves the stream is live and nothing came before it.
    assert.equal((await api.patch(`/api/boards/${boardId}`, { name: "sentinel" })).status, 200);
    await expectMessageCount(client, 1);
  });

  test("only the changed board's clients are notified, every one of them", async () => {
    const first = await createBoard("first");
    const second = await createBoard("second");
    const watchers = await Promise.all([1, 2, 3, 4, 5].map(() => connect(api, first.boardId)));
    const other = await connect(api, second.boardId);
    assert.equal((await api.patch(`/api/boards/${first.boardId}`, { name: "x" })).status, 200);
    for (const client of watchers) await expectMessageCount(client, 1);
    assert.equal(other.messages.length, 0);
  });

  test("board_deleted is sent when the board is deleted, then the stream ends", async () => {
    const { boardId } = await createBoard();
    const client = await connect(api, boardId);
    assert.equal((await api.delete(`/api/boards/${boardId}`)).status, 204);
    await client.ended;
    assert.equal(client.messages.length, 1);
    assert.equal(client.messages[0]?.data.event, "board_deleted");
    assert.equal(client.messages[0]?.data.boardId, boardId);
    // The board is gone, so reconnecting is a 404.
    assert.equal((await api.get(`/api/boards/${boardId}/events`)).status, 404);
  });

  test("a request has its answer before the stream tells anybody of its change", async () => {
    // A response far larger than the loopback socket buffers (a ticket with 30 comments of 200 KB,
    // Markdown and HTML) cannot be finished while its client is not reading it. The message of
    // the change must wait for the answer: none may arrive while the answer is still unread.
    const { boardId, laneIds } = await createBoard();
    const ticket = await api.post(`/api/boards/${boardId}/tickets`, {
      laneId: laneIds[0],
      title: "large",
    });
    const body = "word ".repeat(40_000);
    for (let index = 0; index < 30; index++) {
      const comment = await api.post(`/api/tickets/${ticket.body.id}/comments`, {
        bodyMarkdown: body,
      });
      assert.equal(comment.status, 201);
    }
    const client = await connect(api, boardId);
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(
        `${api.url}/api/tickets/${ticket.body.id}`,
        { method: "PATCH", headers: { "content-type": "application/json" } },
        resolve,
      );
      req.on("error", reject);
      req.end(JSON.stringify({ priority: 4 }));
    });
    answer.pause();
    assert.equal(answer.statusCode, 200);
    await sleep(300);
    assert.equal(client.messages.length, 0, "the stream spoke before the answer was read");

    let received = 0;
    answer.on("data", (chunk: Buffer) => {
      received += chunk.length;
    });
    answer.resume();
    await new Promise((resolve) => answer.on("end", resolve));
    assert.ok(received > 12_000_000, `answer of ${received} bytes`);
    await expectMessageCount(client, 1);
  });

  test("an unknown board is 404 and a malformed id 400, as JSON errors", async () => {
    const missing = await api.get("/api/boards/999999/events");
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: "board not found" });
    const malformed = await api.get("/api/boards/abc/events");
    assert.equal(malformed.status, 400);
  });

  test("a client reconnecting with an old Last-Event-ID gets one board_updated at once", async () => {
    const { boardId } = await createBoard();
    const first = await connect(api, boardId);
    await api.patch(`/api/boards/${boardId}`, { name: "one" });
    await first.waitForMessages(1);
    const seen = first.messages[0]?.id as string;
    first.close();

    // Up to date: nothing to catch up on.
    const current = await connect(api, boardId, { "Last-Event-ID": seen });
    await sleep(100);
    assert.equal(current.messages.length, 0);
    current.close();

    // A change happens while the client is away.
    await api.patch(`/api/boards/${boardId}`, { name: "two" });
    const behind = await connect(api, boardId, { "Last-Event-ID": seen });
    await expectMessageCount(behind, 1);
    assert.equal(behind.messages[0]?.data.event, "board_updated");
    assert.equal(behind.messages[0]?.data.boardId, boardId);
    assert.ok(Number(behind.messages[0]?.id) > Number(seen));

    // Without the header there is no catch-up message.
    const fresh = await connect(api, boardId);
    await sleep(100);
    assert.equal(fresh.messages.length, 0);
  });

  test("changes to other boards do not count as missed; ids from an earlier run do", async () => {
    const { boardId } = await createBoard();
    const other = await createBoard();
    const first = await connect(api, boardId);
    await api.patch(`/api/boards/${boardId}`, { name: "mine" });
    await first.waitForMessages(1);
    const seen = first.messages[0]?.id as string;
    first.close();

    await api.patch(`/api/boards/${other.boardId}`, { name: "elsewhere" });
    const unaffected = await connect(api, boardId, { "Last-Event-ID": seen });
    await sleep(100);
    assert.equal(unaffected.messages.length, 0);
    unaffected.close();

    // An id this server never issued (the client saw a previous run): refetch to be safe.
    const restarted = await connect(api, boardId, { "Last-Event-ID": "999999999" });
    await expectMessageCount(restarted, 1);
    assert.equal(restarted.messages[0]?.data.event, "board_updated");
    restarted.close();
  });

  test("closing the server ends open streams so it can exit", async () => {
    const own = await startTestServer();
    const board = await own.post("/api/boards", { name: "closing" });
    const clients = await Promise.all([1, 2, 3].map(() => connect(own, board.body.board.id)));
    const started = Date.now();
    await own.close();
    assert.ok(Date.now() - started < 2000, "close() did not wait for the streams");
    await Promise.all(clients.map((client) => client.ended));
  });
});
