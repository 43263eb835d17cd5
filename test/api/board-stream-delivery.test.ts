import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { connect as connectSocket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { createServices } from "../../src/domain/services.js";
import { BoardEventBus } from "../../src/events/board-events.js";
import { BoardStreams, flushStreamsDue } from "../../src/events/board-stream.js";
import { buildApp } from "../../src/http/app.js";
import { openDatabase } from "../../src/storage/database.js";
import { startTestServer } from "../helpers/server.js";
import { SseClient, sleep } from "../helpers/sse-client.js";
import { streamClients } from "./board-stream-setup.js";

// How the board streams are written: keep-alive pings, messages batched into one write and the
// same bytes to every stream, and a client of HTTP/1.0.

const api = await startTestServer();
const { connect, createBoard, open } = streamClients(api);

describe("keep-alive", () => {
  test("sends a ping comment at the configured interval", async () => {
    const folder = mkdtempSync(join(tmpdir(), "tack-stream-"));
    const db = openDatabase(join(folder, "tack.sqlite"));
    const app = await buildApp({
      services: createServices(db, new BoardEventBus()),
      info: {
        name: "tack",
        version: "test",
        databaseUsable: () => true,
        remoteProviders: () => [],
      },
      allowedHosts: [],
      logger: false,
      streamPingIntervalMs: 40,
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    after(async () => {
      await app.close();
      db.close();
      rmSync(folder, { recursive: true, force: true });
    });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    const created = await fetch(`${url}/api/boards`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "pings" }),
    });
    const { board } = (await created.json()) as { board: { id: number } };
    const client = await connect({ url }, board.id);
    // A generous deadline, not a timing check: three 40 ms pings came late on a loaded machine.
    await client.waitUntil(() => client.comments.filter((c) => c === "ping").length >= 3, 5000);
    assert.equal(client.messages.length, 0, "pings are comments, not messages");
  });

  test("the default interval is 15 seconds, so no ping comes early", async () => {
    const { boardId } = await createBoard();
    const client = await connect(api, boardId);
    await sleep(200);
    assert.deepEqual(client.comments, ["connected"]);
  });
});

describe("writes to the streams", () => {
  /** A stream server of its own, with `clients` streams of board 1: every socket write is counted. */
  async function streamServer(batchMs: number, clients = 1) {
    const bus = new BoardEventBus();
    const streams = new BoardStreams(bus, { batchMs });
    const writes: Array<{ stream: number; chunk: unknown }> = [];
    let attached = 0;
    const server = createServer((_request, response) => {
      const stream = attached++;
      const socket = response.socket as NonNullable<typeof response.socket>;
      const write = socket.write.bind(socket) as (chunk: unknown) => boolean;
      socket.write = ((chunk: unknown) => {
        writes.push({ stream, chunk });
        return write(chunk);
      }) as typeof socket.write;
      streams.attach(1, response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    after(() => {
      streams.closeAll();
      server.close();
    });
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const readers: SseClient[] = [];
    for (let index = 0; index < clients; index++) {
      const client = await SseClient.open(`http://127.0.0.1:${port}/events`);
      open.push(client);
      await client.waitUntil(() => client.comments.includes("connected"));
      readers.push(client);
    }
    return { bus, client: readers[0] as SseClient, readers, writes };
  }

  test("messages published together go out in one write, each still its own message", async () => {
    // A long batch: everything below happens within it, so what is grouped does not depend on
    // the machine's speed.
    const { bus, client, writes } = await streamServer(60_000);
    writes.length = 0;
    bus.publish(1, "board_updated", [1]);
    bus.publish(1, "board_updated", [2, 3]);
    await client.waitForMessages(2);
    assert.equal(writes.length, 1, "one write for the two messages");
    // Within the batch after that write: later messages wait, then go out together.
    bus.publish(1, "board_updated", [4]);
    bus.publish(1, "board_updated", []);
    await sleep(100);
    assert.equal(client.messages.length, 2, "held until the batch has passed");
    // A deletion writes what is held first, then ends the stream.
    bus.publish(1, "board_deleted");
    await client.ended;
    assert.deepEqual(
      client.messages.map((message) => message.data.ticketIds ?? null),
      [[1], [2, 3], [4], [], []],
    );
    assert.equal(client.messages.at(-1)?.data.event, "board_deleted");
    const ids = client.messages.map((message) => Number(message.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    );
  });

  test("messages whose batch has passed go out as the next request starts, not after the timer", async () => {
    const { bus, client, writes } = await streamServer(150);
    writes.length = 0;
    bus.publish(1, "board_updated", [1]);
    await client.waitForMessages(1);
    bus.publish(1, "board_updated", [2]);
    // The batch passes while the event loop is busy (a saturated server): its timer cannot fire.
    const busyUntil = performance.now() + 200;
    while (performance.now() < busyUntil) {}
    flushStreamsDue();
    await new Promise((resolve) => process.nextTick(resolve));
    assert.equal(writes.length, 2, "written before the timer's turn");
    await client.waitForMessages(2);
  });

  test("every stream of a board is written the same bytes, made once", async () => {
    const { bus, readers, writes } = await streamServer(60_000, 3);
    writes.length = 0;
    bus.publish(1, "board_updated", [7]);
    bus.publish(1, "board_updated", [8]);
    for (const reader of readers) await reader.waitForMessages(2);
    assert.deepEqual(writes.map((write) => write.stream).sort(), [0, 1, 2], "one write per stream");
    const [first, ...others] = writes.map((write) => write.chunk);
    assert.ok(Buffer.isBuffer(first));
    for (const other of others) assert.equal(other, first, "the same buffer for every stream");
    for (const reader of readers) {
      assert.deepEqual(
        reader.messages.map((message) => message.data.ticketIds),
        [[7], [8]],
      );
    }
  });
});

describe("an HTTP/1.0 client", () => {
  test("reads the stream unchunked, each message as it comes, until the connection closes", async () => {
    const { boardId } = await createBoard("http 1.0");
    const { host, hostname, port } = new URL(api.url);
    const socket = connectSocket(Number(port), hostname);
    let received = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      received += chunk;
    });
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    const arrived = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!received.includes(text)) return;
          socket.off("data", check);
          resolve();
        };
        socket.on("data", check);
        check();
      });
    socket.write(`GET /api/boards/${boardId}/events HTTP/1.0\r\nHost: ${host}\r\n\r\n`);
    await arrived(": connected\n\n");

    // A change's message arrives while the stream stays open (an HTTP/1.0 response without a
    // length has no chunks: its body is everything up to the close).
    assert.equal((await api.post(`/api/boards/${boardId}/lanes`, { name: "later" })).status, 201);
    await arrived('"event":"board_updated"');
    assert.equal(socket.readyState, "open");
    // Deleting the board ends the stream, and with it the connection.
    assert.equal((await api.delete(`/api/boards/${boardId}`)).status, 204);
    await closed;

    const [head = "", body] = received.split("\r\n\r\n", 2);
    assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(head, /\r\ncontent-type: text\/event-stream\r\n/i);
    assert.doesNotMatch(head, /transfer-encoding|content-length/i);
    const message = (event: string) =>
      `id: \\d+\ndata: \\{"boardId":${boardId},"event":"${event}","sentAt":"[^"]+","ticketIds":\\[\\]\\}\n\n`;
    // The server pings all its streams on one 15 s clock, started by an earlier stream of this
    // file: a tick may fall inside this test, which is not what it checks.
    assert.match(
      (body ?? "").replaceAll(": ping\n\n", ""),
      new RegExp(`^: connected\n\n${message("board_updated")}${message("board_deleted")}$`),
    );
  });
});
