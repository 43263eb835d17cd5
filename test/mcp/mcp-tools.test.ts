import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { call, connectMcp, ok } from "./mcp-connection.js";

// The tool listing is part of tack's interface to models: names, order, schemas and
// annotations are pinned by a snapshot (regenerate with UPDATE_SNAPSHOTS=1 after a deliberate
// change, and say so in the commit).

const SNAPSHOT = new URL("./tools.snapshot.json", import.meta.url);
const api = await startTestServer();
await api.post("/api/boards", { name: "Only board" });

test("tools/list matches the snapshot: names, order, schemas, annotations", async () => {
  const client = await connectMcp(api.url, "agent");
  const { tools } = await client.listTools();
  if (process.env.UPDATE_SNAPSHOTS) writeFileSync(SNAPSHOT, `${JSON.stringify(tools, null, 2)}\n`);
  // Compared as data: the formatter may lay the file out differently.
  assert.deepEqual(JSON.parse(JSON.stringify(tools)), JSON.parse(readFileSync(SNAPSHOT, "utf8")));
  assert.deepEqual(
    tools.map((tool) => tool.name),
    [
      "prime",
      "ready",
      "search_tickets",
      "get_ticket",
      "ticket_history",
      "claim_next",
      "claim",
      "renew_claim",
      "release",
      "create_tickets",
      "update_ticket",
      "bulk_update",
      "link_tickets",
      "comment",
      "log_event",
      "ask_human",
      "get_ask",
      "check_item",
    ],
  );
  for (const tool of tools) {
    assert.ok((tool.description ?? "").includes("Returns"), `${tool.name} says what it returns`);
    assert.equal(tool.annotations?.openWorldHint, false, tool.name);
  }
  await client.close();
});

test("what a model reads of the default listing (names, descriptions, input schemas) stays within 12 KB", async () => {
  const client = await connectMcp(api.url, "agent");
  const { tools } = await client.listTools();
  const visible = JSON.stringify(
    tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    })),
  );
  const bytes = Buffer.byteLength(visible);
  assert.ok(bytes <= 12 * 1024, `${bytes} bytes`);
  // The measure counts what it should: every default tool's schema, descriptions included.
  assert.ok(visible.includes('"name":"ask_human"') && visible.includes("expectedVersion"));
  await client.close();
});

test("--read-only offers only the read tools; toolsets append remote, board_admin, restore_from_trash and instantiate_template", async () => {
  const readOnly = await connectMcp(api.url, "agent", { readOnly: true });
  const reads = (await readOnly.listTools()).tools;
  assert.deepEqual(
    reads.map((tool) => tool.name),
    ["prime", "ready", "search_tickets", "get_ticket", "ticket_history", "get_ask"],
  );
  assert.ok(reads.every((tool) => tool.annotations?.readOnlyHint === true));
  await assert.rejects(
    call(readOnly, "comment", { ticketId: 1, body: "x" }),
    /Tool comment not found/,
  );
  await readOnly.close();

  const full = await connectMcp(api.url, "agent", { toolsets: ["templates", "admin", "remote"] });
  const names = (await full.listTools()).tools.map((tool) => tool.name);
  assert.deepEqual(
    names.slice(-5),
    ["remote", "board_admin", "board_insights", "restore_from_trash", "instantiate_template"],
    "fixed order, whatever the flag order",
  );
  const remote = (await full.listTools()).tools.find((tool) => tool.name === "remote");
  assert.equal(remote?.annotations?.openWorldHint, true);
  const created = await ok(full, "board_admin", { action: "create_board", name: "Admin made" });
  assert.equal(created.board.name, "Admin made");
  const missing = await call(full, "board_admin", { action: "rename_lane", name: "x" });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /laneId is required for rename_lane/);
  const insights = await call(full, "board_insights", {
    boardId: created.board.id,
    bucket: "week",
  });
  assert.equal(insights.isError, false, insights.text);
  assert.equal(insights.data.bucket, "week");
  assert.equal(insights.data.flow.length, 5, "30 days in weekly buckets");
  assert.match(insights.text, /Lead time: 0 tickets/);
  const badPeriod = await call(full, "board_insights", { boardId: created.board.id, from: "x" });
  assert.equal(badPeriod.isError, true);
  assert.match(badPeriod.text, /from must be an RFC 3339 date-time/);
  await full.close();
});

test("delete_ticket says the ticket went to the trash and how to restore it; restore_from_trash does", async () => {
  const admin = await connectMcp(api.url, "agent", { toolsets: ["admin"] });
  const { board, lanes } = (await api.post("/api/boards", { name: "Trash tools" })).body;
  const ticket = (
    await api.post(`/api/boards/${board.id}/tickets`, { laneId: lanes[0].id, title: "oops" })
  ).body;
  const deleted = await call(admin, "board_admin", {
    action: "delete_ticket",
    ticketId: ticket.id,
  });
  const entry = deleted.data.trash;
  assert.equal(entry.objectId, ticket.id);
  assert.match(
    deleted.text,
    new RegExp(`in the trash until .*restore_from_trash \\{"trashId": ${entry.id}\\}`),
  );
  const listed = await ok(admin, "restore_from_trash", { boardId: board.id });
  assert.deepEqual(
    listed.items.map((item: { id: number }) => item.id),
    [entry.id],
  );
  const restored = await ok(admin, "restore_from_trash", { kind: "ticket", objectId: ticket.id });
  assert.deepEqual(restored, { kind: "ticket", objectId: ticket.id });
  assert.equal((await api.get(`/api/tickets/${ticket.id}`)).status, 200);
  const again = await call(admin, "restore_from_trash", { trashId: entry.id });
  assert.equal(again.isError, true);
  assert.match(again.text, /trash entry not found/);
  await admin.close();
});

test("errors are tool errors with the server's message and a fix; bad input too", async () => {
  const client = await connectMcp(api.url, "agent");
  const missing = await call(client, "get_ticket", { ticketId: 999999 });
  assert.equal(missing.isError, true);
  assert.deepEqual(missing.data.error, {
    code: "not_found",
    message: "ticket not found",
    hint: "check the id: list what exists first",
    retryable: false,
  });
  assert.match(missing.text, /^Error \(not_found\): ticket not found\. Fix: /);
  // Arguments the schema refuses get the same structured error, not the SDK's bare text.
  const invalid = await call(client, "get_ticket", { ticketId: "seven" });
  assert.equal(invalid.isError, true);
  assert.equal(invalid.data.error.code, "invalid_request");
  assert.match(
    invalid.data.error.message,
    /^invalid arguments for get_ticket: .*ticketId must be integer/,
  );
  assert.match(invalid.data.error.hint, /inputSchema/);
  assert.match(invalid.text, /^Error \(invalid_request\): invalid arguments for get_ticket: /);
  await client.close();
});

test("prime stays within ~1,500 tokens however many boards, lanes and tags there are", async () => {
  for (let index = 0; index < 7; index++) {
    const laneNames = Array.from({ length: 30 }, (_, lane) => `a rather long lane name ${lane}`);
    const { board } = (await api.post("/api/boards", { name: `Crowded board ${index}`, laneNames }))
      .body;
    for (let tag = 0; tag < 40; tag++) {
      await api.post(`/api/boards/${board.id}/tags`, { name: `a rather long tag name ${tag}` });
    }
  }
  const client = await connectMcp(api.url, "agent");
  const primed = await call(client, "prime");
  const { text } = primed.data;
  assert.equal(primed.text, text, "the text block is the prime text once, without a JSON copy");
  // About four characters a token for English text and ids.
  assert.ok(text.length <= 6000, `${text.length} characters`);
  assert.match(text, /\(\+20 more\)/);
  assert.match(text, /more boards: `tack boards`/);
  await client.close();
});
