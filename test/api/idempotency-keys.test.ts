import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { after, describe, test } from "node:test";
import { useClock } from "../../src/domain/clock.js";
import { startFakeGitHub } from "../fakes/github.js";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, listTickets, newTicket } from "../helpers/tickets.js";
import { credentialsEnv, TOKENS } from "./remote-fixtures.js";

// docs/api.md, "Coordination for agents": Idempotency-Key on the create endpoints.

// A remote import waits for the provider: the fake holds its answer while a client leaves.
const gh = await startFakeGitHub({ token: TOKENS.github });
after(() => gh.close());
const api = await startTestServer({
  env: credentialsEnv({ [`github:${gh.instanceUrl}`]: TOKENS.github }),
});
const keyed = (method: string, path: string, body: unknown, key: string) =>
  api.request(method, path, body, { "idempotency-key": key });

describe("Idempotency-Key", () => {
  test("a repeat answers the first answer and writes nothing", async () => {
    const board = await boardWithLanes(api, "Keys");
    const path = `/api/boards/${board.boardId}/tickets`;
    const body = { laneId: board.laneIds[0], title: "once", priority: 3 };
    const first = await keyed("POST", path, body, "create-1");
    assert.equal(first.status, 201);
    // JSON-equal: the same fields in another order.
    const repeat = await keyed(
      "POST",
      path,
      { priority: 3, title: "once", laneId: body.laneId },
      "create-1",
    );
    assert.equal(repeat.status, 201);
    assert.equal(repeat.text, first.text);
    assert.equal((await listTickets(api, board.boardId)).length, 1);
  });

  test("each create endpoint honours a key", async () => {
    const board = await boardWithLanes(api, "Every");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    const cases: Array<[string, unknown, () => Promise<number>]> = [
      [
        "/api/boards",
        { name: "kb" },
        async () => (await api.get("/api/boards")).body.boards.length,
      ],
      [
        `/api/tickets/${ticket.id}/comments`,
        { bodyMarkdown: "c" },
        async () => (await api.get(`/api/tickets/${ticket.id}/comments`)).body.comments.length,
      ],
      [
        `/api/tickets/${ticket.id}/events`,
        { source: "ci", kind: "build", title: "ok" },
        async () => (await api.get(`/api/tickets/${ticket.id}/events`)).body.events.length,
      ],
      [
        "/api/boards/import",
        { board: { name: "imp" }, lanes: [{ id: 1, name: "l" }], tickets: [] },
        async () => (await api.get("/api/boards")).body.boards.length,
      ],
    ];
    for (const [index, [path, body, count]] of cases.entries()) {
      const first = await keyed("POST", path, body, `every-${index}`);
      assert.equal(first.status, 201, `${path}: ${first.text}`);
      const before = await count();
      const again = await keyed("POST", path, body, `every-${index}`);
      assert.equal(again.status, 201);
      assert.equal(again.text, first.text);
      assert.equal(await count(), before, `${path} wrote once`);
    }
  });

  test("a 4xx answer is kept and replayed too", async () => {
    const board = await boardWithLanes(api, "Errors");
    const path = `/api/boards/${board.boardId}/tickets`;
    const first = await keyed("POST", path, { laneId: board.laneIds[0], title: "  " }, "bad-1");
    assertError(first, 400);
    const again = await keyed("POST", path, { laneId: board.laneIds[0], title: "  " }, "bad-1");
    assert.equal(again.status, 400);
    assert.equal(again.text, first.text);
  });

  test("the same key with another body or path → 422; nothing written", async () => {
    const board = await boardWithLanes(api, "Reuse");
    const path = `/api/boards/${board.boardId}/tickets`;
    await keyed("POST", path, { laneId: board.laneIds[0], title: "a" }, "reuse-1");
    const otherBody = await keyed(
      "POST",
      path,
      { laneId: board.laneIds[0], title: "b" },
      "reuse-1",
    );
    assertError(otherBody, 422, "idempotency key reused with a different request");
    const otherPath = await keyed("POST", "/api/boards", { name: "x" }, "reuse-1");
    assertError(otherPath, 422, "idempotency key reused with a different request");
    assert.equal((await listTickets(api, board.boardId)).length, 1);
  });

  test("a key that is not 1-200 printable ASCII characters → 400", async () => {
    for (const key of ["", "x".repeat(201), "tab\tkey", "é"]) {
      const response = await api.request(
        "POST",
        "/api/boards",
        { name: "k" },
        {
          "idempotency-key": key,
        },
      );
      assertError(response, 400, /idempotency-key/);
    }
  });

  test("concurrent duplicates: one write, every caller gets its answer", async () => {
    const board = await boardWithLanes(api, "Concurrent");
    const path = `/api/boards/${board.boardId}/tickets`;
    const body = { laneId: board.laneIds[0], title: "race" };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => keyed("POST", path, body, "race-1")),
    );
    for (const answer of answers) {
      assert.equal(answer.status, 201);
      assert.equal(answer.text, answers[0]?.text);
    }
    assert.equal((await listTickets(api, board.boardId)).length, 1);
    // A board import waits for its Markdown rendering: the duplicates arrive while it is open.
    const boards = async () => (await api.get("/api/boards")).body.boards.length;
    const before = await boards();
    const document = {
      board: { name: "slow" },
      lanes: [{ id: 1, name: "l" }],
      tickets: Array.from({ length: 600 }, (_, i) => ({
        id: i + 1,
        laneId: 1,
        title: `t${i}`,
        bodyMarkdown: `# ${i}\n\n*text*`,
      })),
    };
    const imports = await Promise.all(
      Array.from({ length: 5 }, () => keyed("POST", "/api/boards/import", document, "race-2")),
    );
    for (const answer of imports) {
      assert.equal(answer.status, 201);
      assert.equal(answer.text, imports[0]?.text);
    }
    assert.equal(await boards(), before + 1);
  });

  test("a client that leaves before its answer: the retry gets that answer, nothing written twice", {
    timeout: 20_000, // a key never released would keep the retry waiting forever
  }, async () => {
    const board = await boardWithLanes(api, "Left");
    gh.addIssue({ owner: "octo", repo: "keys", number: 7, title: "Slow remote" });
    const path = `/api/boards/${board.boardId}/remote-import`;
    const body = {
      laneId: board.laneIds[0],
      provider: "github",
      instanceUrl: gh.instanceUrl,
      projectKey: "octo/keys",
      issueKey: "7",
    };
    const remoteAnswer = gh.holdNext();
    const serverSide = nextConnection();
    const client = sendKeyed(path, body, "left-1");
    await remoteAnswer.arrived; // tack is in the handler, waiting for the issue
    const socket = await serverSide;
    const closed = new Promise((resolve) => socket.once("close", resolve));
    client.resetAndDestroy();
    await closed;
    await new Promise((resolve) => setImmediate(resolve)); // the request's own close listeners
    remoteAnswer.release();
    // The first request goes on without its client and ends with the ticket.
    while ((await listTickets(api, board.boardId)).length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const retried = await keyed("POST", path, body, "left-1");
    assert.equal(retried.status, 201, retried.text);
    const [ticket] = await listTickets(api, board.boardId);
    assert.equal(retried.body.id, ticket?.id);
    const again = await keyed("POST", path, body, "left-1");
    assert.equal(again.text, retried.text);
    assert.equal((await listTickets(api, board.boardId)).length, 1);
  });

  test("keys are forgotten after 24 hours", async () => {
    const first = await keyed("POST", "/api/boards", { name: "old" }, "old-1");
    assert.equal(first.status, 201);
    const restore = useClock(() => Date.now() + 24 * 60 * 60 * 1000 + 1000);
    try {
      const reused = await keyed("POST", "/api/boards", { name: "new" }, "old-1");
      assert.equal(reused.status, 201, "a new request, not a reuse");
      assert.equal(reused.body.board.name, "new");
    } finally {
      restore();
    }
  });
});

test("a retry after a restart gets the first answer", async () => {
  const first = await startTestServer();
  const created = await first.request(
    "POST",
    "/api/boards",
    { name: "durable" },
    {
      "idempotency-key": "restart-1",
    },
  );
  assert.equal(created.status, 201);
  await first.close();
  const second = await startTestServer({ dbFile: first.dbFile });
  const retried = await second.request(
    "POST",
    "/api/boards",
    { name: "durable" },
    {
      "idempotency-key": "restart-1",
    },
  );
  assert.equal(retried.status, 201);
  assert.equal(retried.text, created.text);
  assert.equal((await second.get("/api/boards")).body.boards.length, 1);
});

/** The server's end of the next connection it accepts. */
function nextConnection(): Promise<Socket> {
  return new Promise((resolve) => api.server.app.server.once("connection", resolve));
}

/** A keyed JSON POST on a socket of its own, left open for the test to cut. */
function sendKeyed(path: string, body: unknown, key: string): Socket {
  const url = new URL(api.url);
  const text = JSON.stringify(body);
  const socket = connect(Number(url.port), url.hostname);
  socket.on("error", () => {}); // the test resets it
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
      `Idempotency-Key: ${key}\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
  return socket;
}
