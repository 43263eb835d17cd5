import assert from "node:assert/strict";
import { type ClientRequest, type IncomingMessage, request } from "node:http";
import { connect, type Socket } from "node:net";
import { describe, test } from "node:test";
import {
  MAX_HEADER_BYTES,
  MAX_IMPORT_COMMENTS_PER_TICKET,
  MAX_IMPORT_TICKETS,
  MAX_STREAMS,
  MAX_STREAMS_PER_BOARD,
} from "../../src/http/request-limits.js";
import { assertError, createBoard, snapshot } from "../helpers/factories.js";
import { everythingReceived, rawRequest } from "../helpers/raw-http.js";
import { startTestServer } from "../helpers/server.js";

/** The documented maxima (docs/security.md, "Limits") and the limits against slow clients. */

// Every test but the two about slow clients runs on a server with the default timeouts: on a
// heavily loaded machine the short ones below cut ordinary requests short (a connection whose
// headers the busy server has not read yet within 500 ms is answered 408), and a 408 is not what
// those tests are about.
const api = await startTestServer();
const { port } = new URL(api.url);

/** Short limits against slow clients: only for the tests that wait for them to strike. */
const shortTimeouts = await startTestServer({
  timeouts: {
    headersTimeoutMs: 500,
    requestTimeoutMs: 60_000,
    keepAliveTimeoutMs: 300,
    checkIntervalMs: 100,
  },
});
const shortPort = new URL(shortTimeouts.url).port;

function openStream(boardId: number): Promise<{ response: IncomingMessage; req: ClientRequest }> {
  return new Promise((resolve, reject) => {
    const url = `${api.url}/api/boards/${boardId}/events`;
    const req = request(url, { agent: false }, (response) => resolve({ response, req }));
    req.on("error", reject).end();
  });
}

function readAll(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    response.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
    });
    response.on("end", () => resolve(text));
  });
}

describe("board event streams", () => {
  test(`at most ${MAX_STREAMS_PER_BOARD} per board and ${MAX_STREAMS} in all; 429 beyond, and room again once one closes`, async () => {
    const boards: number[] = [];
    const needed = Math.ceil(MAX_STREAMS / MAX_STREAMS_PER_BOARD) + 1;
    for (let index = 0; index < needed; index += 1)
      boards.push((await createBoard(api, `s${index}`)).board.id);
    const open: { response: IncomingMessage; req: ClientRequest }[] = [];
    const first = boards[0] as number;
    for (let index = 0; index < MAX_STREAMS_PER_BOARD; index += 1) {
      const stream = await openStream(first);
      assert.equal(stream.response.statusCode, 200);
      open.push(stream);
    }
    const refused = await openStream(first);
    assert.equal(refused.response.statusCode, 429);
    assert.deepEqual(JSON.parse(await readAll(refused.response)), {
      error: `too many open event streams for this board (at most ${MAX_STREAMS_PER_BOARD})`,
    });
    // Other boards still open streams, up to the overall limit.
    let board = 1;
    while (open.length < MAX_STREAMS) {
      const stream = await openStream(boards[board] as number);
      if (stream.response.statusCode === 429) {
        board += 1;
        stream.req.destroy();
        continue;
      }
      assert.equal(stream.response.statusCode, 200);
      open.push(stream);
    }
    const overall = await openStream(boards.at(-1) as number);
    assert.equal(overall.response.statusCode, 429);
    assert.match((await readAll(overall.response)) ?? "", /too many open event streams \(at most/);

    const closed = new Promise((resolve) => open[0]?.response.once("close", resolve));
    open[0]?.req.destroy();
    await closed;
    // The server sees the close; wait until a new stream fits again (no time assertion).
    let again = await openStream(first);
    while (again.response.statusCode === 429) {
      await readAll(again.response);
      again = await openStream(first);
    }
    assert.equal(again.response.statusCode, 200);
    again.req.destroy();
    for (const stream of open) stream.req.destroy();
  });
});

describe("board import", () => {
  const lanes = [{ id: 1, name: "todo" }];

  test(`more than ${MAX_IMPORT_TICKETS} tickets, or ${MAX_IMPORT_COMMENTS_PER_TICKET} comments on one, is a 400 naming the limit`, async () => {
    const before = await snapshot(api);
    const tickets = Array.from({ length: MAX_IMPORT_TICKETS + 1 }, (_, index) => ({
      id: index + 1,
      laneId: 1,
      title: "t",
    }));
    assertError(
      await api.post("/api/boards/import", { board: { name: "too many" }, lanes, tickets }),
      400,
      `tickets must have at most ${MAX_IMPORT_TICKETS} items`,
    );
    const comments = Array.from({ length: MAX_IMPORT_COMMENTS_PER_TICKET + 1 }, () => ({
      bodyMarkdown: "c",
    }));
    assertError(
      await api.post("/api/boards/import", {
        board: { name: "too chatty" },
        lanes,
        tickets: [{ id: 1, laneId: 1, title: "t", comments }],
      }),
      400,
      `tickets[0].comments must have at most ${MAX_IMPORT_COMMENTS_PER_TICKET} items`,
    );
    assert.deepEqual(await snapshot(api), before);
  });

  test("a board of 20,000 tickets with 50,000 comments imports (real use stays far below the limits)", async () => {
    const tickets = Array.from({ length: 20_000 }, (_, index) => ({
      id: index + 1,
      laneId: 1,
      title: `ticket ${index}`,
      comments: Array.from({ length: index % 2 === 0 ? 5 : 0 }, (_, n) => ({
        bodyMarkdown: `comment ${n}`,
      })),
    }));
    const response = await api.post("/api/boards/import", {
      board: { name: "big" },
      lanes,
      tickets,
    });
    assert.equal(response.status, 201, response.text.slice(0, 300));
    assert.equal(response.body.tickets.length, 20_000);
  });
});

describe("slow and oversized requests", () => {
  test("a slow upload of a big body does not hold up other requests", async () => {
    const body = Buffer.from(
      JSON.stringify({
        board: { name: "slow" },
        lanes: [{ id: 1, name: "todo" }],
        tickets: Array.from({ length: 2000 }, (_, index) => ({
          id: index + 1,
          laneId: 1,
          title: `t${index}`,
          bodyMarkdown: "x".repeat(1000),
        })),
      }),
    );
    const upload = connect(Number(port), "127.0.0.1");
    const answer = everythingReceived(upload);
    upload.write(
      `POST /api/boards/import HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    upload.write(body.subarray(0, body.length / 2));
    // Half the body is in; the other half has not been sent. Other clients are served meanwhile.
    for (let index = 0; index < 5; index += 1) {
      const health = await api.get("/api/health");
      assert.equal(health.status, 200);
      const boards = await api.get("/api/boards");
      assert.equal(boards.status, 200);
    }
    upload.end(body.subarray(body.length / 2));
    assert.match(await answer, /^HTTP\/1\.1 201 /);
  });

  test("headers that do not arrive in time get 408 {error} and the connection is closed", async () => {
    const socket: Socket = connect(Number(shortPort), "127.0.0.1");
    const received = everythingReceived(socket);
    socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${shortPort}\r\n`); // never finished
    const text = await received;
    assert.match(text, /^HTTP\/1\.1 408 /);
    assert.match(text, /\{"error":"request timed out"\}$/);
  });

  test("an idle keep-alive connection is closed by the server", async () => {
    const socket: Socket = connect(Number(shortPort), "127.0.0.1");
    const closed = everythingReceived(socket);
    socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${shortPort}\r\n\r\n`);
    // Answered, then closed by the server with nothing more sent (the client stays silent).
    assert.match(await closed, /^HTTP\/1\.1 200 /);
  });

  test("a request already sent on a keep-alive connection when its idle time runs out is answered, not reset", async () => {
    const socket: Socket = connect(Number(shortPort), "127.0.0.1");
    const request = `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${shortPort}\r\n\r\n`;
    let text = "";
    let error: Error | undefined;
    socket.on("error", (cause) => {
      error = cause;
    });
    // Guarded: a server that kept the idle connection open would leave the test waiting.
    const closed = new Promise<void>((resolve, reject) => {
      const late = setTimeout(() => reject(new Error("the idle connection stayed open")), 30_000);
      socket.on("close", () => {
        clearTimeout(late);
        resolve();
      });
    });
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      const first = text === "";
      text += chunk;
      if (!first) return;
      // The event loop is busy (a loaded machine) past the keep-alive time, and the client sends
      // its next request before the server's timer has run: the request waits on the socket.
      const busyUntil = Date.now() + 5 * 300;
      while (Date.now() < busyUntil);
      socket.write(request);
    });
    socket.write(request);
    // Both answered; then, idle, the connection is closed by the server.
    try {
      await closed;
    } finally {
      socket.destroy();
    }
    assert.equal(error, undefined, `the connection was reset: ${error?.message}`);
    assert.equal(text.match(/HTTP\/1\.1 200 /g)?.length, 2, text);
  });

  test(`headers beyond ${MAX_HEADER_BYTES} bytes get 431 {error}`, async () => {
    const response = await rawRequest(api.url, {
      path: "/api/health",
      headers: { "x-filler": "a".repeat(MAX_HEADER_BYTES + 10) },
    });
    assert.equal(response.status, 431);
    assert.deepEqual(response.body, { error: "request headers are too large" });
  });
});
