import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { rawRequest } from "../helpers/raw-http.js";
import { startTestServer } from "../helpers/server.js";
import { bearer, tokensOf } from "../helpers/tokens.js";

/** The default tools' names, in their listed order, as tools.snapshot.json pins them. */
const DEFAULT_TOOLS = (
  JSON.parse(readFileSync(new URL("./tools.snapshot.json", import.meta.url), "utf8")) as Array<{
    name: string;
  }>
).map((tool) => tool.name);

// `/mcp` on `tack serve`: MCP's Streamable HTTP transport, through real HTTP on a real port.
// The SDK's own client drives the protocol; raw requests check the transport's edges.

const api = await startTestServer();
const { board } = (await api.post("/api/boards", { name: "HTTP board" })).body;
const laneId = board.lanes?.[0]?.id ?? (await api.get(`/api/boards/${board.id}`)).body.lanes[0].id;

const JSON_AND_SSE = "application/json, text/event-stream";

async function connect(query = "", name = "http-agent"): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp${query}`)));
  return client;
}

function initialize(name = "raw-client") {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name, version: "1" } },
  };
}

function post(body: unknown, headers: Record<string, string> = {}, query = "") {
  return fetch(`${api.url}/mcp${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: JSON_AND_SSE, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Opens a session by hand; answers its id. */
async function openSession(query = ""): Promise<string> {
  const answer = await post(initialize(), {}, query);
  assert.equal(answer.status, 200);
  await answer.text();
  const id = answer.headers.get("mcp-session-id");
  assert.ok(id);
  return id;
}

test("an SDK client initializes over /mcp and gets the tools and instructions of tack mcp", async () => {
  const client = await connect();
  assert.equal(client.getServerVersion()?.name, "tack");
  assert.match(client.getInstructions() ?? "", /^# Working with tack/);
  // The tool list never changes during a session: nothing to listen for.
  assert.equal(client.getServerCapabilities()?.tools?.listChanged, false);
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((tool) => tool.name),
    DEFAULT_TOOLS,
  );
  assert.ok(tools.every((tool) => tool.outputSchema?.type === "object"));
  await client.close();
});

test("claims name the URL's actor, else the client's name from initialize", async () => {
  await api.post(`/api/boards/${board.id}/tickets`, { laneId, title: "First" });
  await api.post(`/api/boards/${board.id}/tickets`, { laneId, title: "Second" });
  const named = await connect("", "claude-code");
  const first = await named.callTool({ name: "claim_next", arguments: {} });
  assert.equal((first.structuredContent as any).ticket.claim.actor, "claude-code");
  const chosen = await connect("?actor=worker-7", "claude-code");
  const second = await chosen.callTool({ name: "claim_next", arguments: {} });
  assert.equal((second.structuredContent as any).ticket.claim.actor, "worker-7");
  await named.close();
  await chosen.close();
});

test("toolsets and read-only come from the query string; a wrong one is refused", async () => {
  const everything = await connect("?toolsets=remote,admin");
  const names = (await everything.listTools()).tools.map((tool) => tool.name);
  // The opt-in tools are there (their full list is pinned by tools.snapshot.json's test).
  assert.ok(names.includes("remote") && names.includes("board_admin"), names.join(", "));
  await everything.close();
  const reader = await connect("?read_only=true");
  const readTools = (await reader.listTools()).tools;
  assert.ok(readTools.length > 0 && readTools.every((tool) => tool.annotations?.readOnlyHint));
  await reader.close();
  const wrong = await post(initialize(), {}, "?toolsets=admin,everything");
  assert.equal(wrong.status, 400);
  assert.deepEqual(await wrong.json(), {
    error: 'unknown toolset "everything": use remote, admin, templates',
  });
  const typo = await post(initialize(), {}, "?readonly=true");
  assert.equal(typo.status, 400, "an unknown parameter is refused, not ignored");
});

test("a foreign Origin or Host is refused with 403 (DNS rebinding, other web pages)", async () => {
  const foreign = await post(initialize(), { origin: "http://evil.example.com" });
  assert.equal(foreign.status, 403);
  const host = new URL(api.url).host;
  const own = await post(initialize(), { origin: `http://${host}` });
  assert.equal(own.status, 200);
  await own.text();
  const rebound = await rawRequest(api.url, {
    method: "POST",
    path: "/mcp",
    headers: { host: "evil.example.com", "content-type": "application/json", accept: JSON_AND_SSE },
    body: JSON.stringify(initialize()),
  });
  assert.equal(rebound.status, 403);
});

test("sessions: a request needs the session initialize opened; DELETE ends it", async () => {
  const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
  const without = await post(ping);
  assert.equal(without.status, 400);
  assert.match((await without.json()).error.message, /Mcp-Session-Id header is required/);
  const unknown = await post(ping, { "mcp-session-id": "no-such-session" });
  assert.equal(unknown.status, 404);
  await unknown.text();

  const session = await openSession();
  const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
  const pong = await post(ping, headers);
  assert.equal(pong.status, 200);
  assert.deepEqual((await pong.json()).result, {});

  // The standalone stream for server-sent messages opens (and is left at once).
  const stream = await fetch(`${api.url}/mcp`, {
    headers: { ...headers, accept: "text/event-stream" },
  });
  assert.equal(stream.status, 200);
  assert.match(stream.headers.get("content-type") ?? "", /^text\/event-stream/);
  await stream.body?.cancel();

  const ended = await fetch(`${api.url}/mcp`, { method: "DELETE", headers });
  assert.equal(ended.status, 200);
  const after = await post(ping, headers);
  assert.equal(after.status, 404, "a session once ended is gone");
  await after.text();
});

test("a body that is not JSON gets a JSON-RPC parse error; other media types 415", async () => {
  const garbled = await post("{not json");
  assert.equal(garbled.status, 400);
  assert.equal((await garbled.json()).error.code, -32700);
  const form = await fetch(`${api.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "text/plain", accept: JSON_AND_SSE },
    body: JSON.stringify(initialize()),
  });
  assert.equal(form.status, 415, "a cross-site form cannot post to /mcp");
  await form.text();
});

test("with --require-token: the token opens /mcp, its calls present it, read-only gets read tools", async () => {
  const guarded = await startTestServer({ requireToken: true });
  const tokens = tokensOf(guarded.dbFile);
  const { token: writer } = tokens.create({ name: "agent-token", readOnly: false });
  const { token: reader } = tokens.create({ name: "reader-token", readOnly: true });
  tokens.close();
  await guarded.request("POST", "/api/boards", { name: "Guarded" }, bearer(writer));
  const refused = await fetch(`${guarded.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: JSON_AND_SSE },
    body: JSON.stringify(initialize()),
  });
  assert.equal(refused.status, 401);
  await refused.text();
  const open = async (token: string) => {
    const client = new Client({ name: "token-agent", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${guarded.url}/mcp`), {
        requestInit: { headers: bearer(token) },
      }),
    );
    return client;
  };
  const writing = await open(writer);
  const created = await writing.callTool({
    name: "create_tickets",
    arguments: { tickets: [{ title: "Through a token" }] },
  });
  assert.equal(created.isError, undefined, JSON.stringify(created.content));
  await writing.close();
  const reading = await open(reader);
  const tools = (await reading.listTools()).tools;
  assert.ok(tools.every((tool) => tool.annotations?.readOnlyHint));
  const found = await reading.callTool({ name: "search_tickets", arguments: {} });
  assert.equal((found.structuredContent as any).total, 1);
  await reading.close();
});

test("ready through /mcp reuses an unchanged list (304) and sees every write in between", async () => {
  const client = await connect("?actor=reader");
  const titles = async () =>
    (
      (await client.callTool({ name: "ready", arguments: { boardId: board.id, limit: 100 } }))
        .structuredContent as { tickets: { title: string }[] }
    ).tickets.map((row) => row.title);
  const before = await titles();
  assert.deepEqual(await titles(), before, "asked twice, the same answer");
  await api.post(`/api/boards/${board.id}/tickets`, { laneId, title: "Kept-answer probe" });
  assert.ok((await titles()).includes("Kept-answer probe"), "a ticket created in between shows");
  const probe = (await api.get(`/api/boards/${board.id}/tickets?q=Kept-answer`)).body.tickets[0];
  await api.post(`/api/tickets/${probe.id}/claim`, { actor: "someone-else" });
  assert.ok(!(await titles()).includes("Kept-answer probe"), "a ticket claimed in between leaves");
  await client.close();
});
