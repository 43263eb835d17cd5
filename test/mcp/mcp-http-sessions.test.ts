import assert from "node:assert/strict";
import { test } from "node:test";
import { TackClient } from "../../src/client/tack-client.js";
import { McpSessions } from "../../src/mcp/http-sessions.js";
import { startTestServer } from "../helpers/server.js";

// Sessions clients never end make room for new ones: the least recently used goes first.

const api = await startTestServer();
await api.post("/api/boards", { name: "Sessions board" });

const headers = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "x", version: "1" },
  },
});
const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
const request = (body: string, session?: string) =>
  new Request("http://localhost/mcp", {
    method: "POST",
    headers: session
      ? { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }
      : headers,
    body,
  });

test("at most maxSessions live: opening one more drops the least recently used", async () => {
  const sessions = new McpSessions((actor) => new TackClient({ url: api.url, actor }), 2);
  const open = async () => {
    const answer = await sessions.handle(request(initialize), initialize, {});
    assert.equal(answer.status, 200);
    return answer.headers.get("mcp-session-id") as string;
  };
  const first = await open();
  const second = await open();
  // The first is used again, so the second is now the least recently used.
  assert.equal((await sessions.handle(request(ping, first), ping, {})).status, 200);
  const third = await open();
  assert.equal(sessions.size, 2);
  assert.equal((await sessions.handle(request(ping, second), ping, {})).status, 404);
  assert.equal((await sessions.handle(request(ping, first), ping, {})).status, 200);
  assert.equal((await sessions.handle(request(ping, third), ping, {})).status, 200);
  await sessions.closeAll();
  assert.equal(sessions.size, 0);
});
