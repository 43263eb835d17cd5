// A provider closes an idle kept-alive connection at the moment tack sends on it (its idle timeout
// races the request; frequent on a loaded machine): the request fails with a reset before any
// answer. src/providers/http.ts sends a GET once more on a new connection, never a POST.

import assert from "node:assert/strict";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { after, before, test } from "node:test";
import { createProviderClient } from "../../src/providers/http.js";
import { RemoteError } from "../../src/providers/types.js";

/** Requests received, in order, with the connection each came on. */
const received: Array<{ line: string; connection: number }> = [];
/** The request numbers (1-based, over all connections) answered with a reset. */
const resets = new Set<number>();
let instanceUrl = "";
let connections = 0;

const server = createServer((socket: Socket) => {
  const connection = ++connections;
  let buffered = "";
  socket.on("data", (chunk) => {
    buffered += chunk.toString("latin1");
    for (let end = buffered.indexOf("\r\n\r\n"); end >= 0; end = buffered.indexOf("\r\n\r\n")) {
      const head = buffered.slice(0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      buffered = buffered.slice(end + 4 + length);
      received.push({ line: head.split("\r\n")[0] ?? "", connection });
      if (resets.has(received.length)) {
        socket.resetAndDestroy();
        return;
      }
      const body = JSON.stringify({ login: "octo" });
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\nkeep-alive: timeout=60\r\n\r\n${body}`,
      );
    }
  });
  socket.on("error", () => {});
});

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  instanceUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise((resolve) => server.close(resolve)));

const github = createProviderClient("github", (token) => ({ Authorization: `Bearer ${token}` }));
const call = (method: "GET" | "POST") =>
  github(instanceUrl, "tok", {
    method,
    path: "/user",
    ...(method === "POST" ? { body: {} } : {}),
    action: "read",
    subject: "the user",
  });

test("a GET reset on a kept-alive connection is sent once more, on a new connection", async () => {
  received.length = 0;
  resets.clear();
  assert.deepEqual(await call("GET"), { login: "octo" });
  // fetch puts the connection back in its pool on the next turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  resets.add(2);
  assert.deepEqual(await call("GET"), { login: "octo" }, "the reset request is repeated");
  assert.deepEqual(
    received.map((request) => request.line),
    ["GET /api/v3/user HTTP/1.1", "GET /api/v3/user HTTP/1.1", "GET /api/v3/user HTTP/1.1"],
  );
  const [first, reset, repeat] = received;
  assert.equal(reset?.connection, first?.connection, "the reset came on the kept-alive connection");
  assert.notEqual(repeat?.connection, reset?.connection, "the repeat came on a new one");
});

test("a POST reset before its answer is not repeated: the provider may have acted on it", async () => {
  received.length = 0;
  resets.clear();
  resets.add(1);
  await assert.rejects(call("POST"), (error: unknown) => {
    assert.ok(error instanceof RemoteError);
    assert.equal(error.message, `could not reach github at ${instanceUrl}`);
    return true;
  });
  assert.equal(received.length, 1, "sent once");
});

test("a GET reset twice in a row fails as unreachable (one repeat, not a loop)", async () => {
  received.length = 0;
  resets.clear();
  resets.add(1).add(2);
  await assert.rejects(call("GET"), /could not reach github/);
  assert.equal(received.length, 2);
});
