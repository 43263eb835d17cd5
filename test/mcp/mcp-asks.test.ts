import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { call, connectMcp, ok } from "./mcp-connection.js";

// ask_human and get_ask (docs/agents.md, "Asking a person"): the tool opens the ask and waits
// through the API's long poll; a person answers over HTTP meanwhile, or the wait ends first and
// the ask stays open for get_ask.

const api = await startTestServer();
const { board, lanes } = (await api.post("/api/boards", { name: "Asks" })).body;

async function ticket(title: string): Promise<number> {
  return (await api.post(`/api/boards/${board.id}/tickets`, { laneId: lanes[0].id, title })).body
    .id;
}

/** The open ask on a ticket, once it is there (the tool opens it while the test waits). */
async function openAskOn(ticketId: number): Promise<{ id: number; options: string[] }> {
  for (;;) {
    const { asks } = (await api.get(`/api/tickets/${ticketId}/asks`)).body;
    if (asks.length > 0) return asks[0];
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("ask_human opens the ask with options, waits, and answers with the option a person picked meanwhile", async () => {
  const ticketId = await ticket("Pick a database");
  const client = await connectMcp(api.url, "agent-1");
  const asked = call(client, "ask_human", {
    ticketId,
    question: "Which database for sessions?",
    options: ["Postgres", "Redis"],
    waitSeconds: 120,
  });
  const ask = await openAskOn(ticketId);
  assert.deepEqual(ask.options, ["Postgres", "Redis"]);
  const ready = await ok(client, "ready", { boardId: board.id });
  assert.deepEqual(ready.waitingOnAsks, [{ ticketId, title: "Pick a database", askIds: [ask.id] }]);
  assert.ok(!ready.tickets.some((row: { id: number }) => row.id === ticketId));
  const answered = await api.post(`/api/asks/${ask.id}/answer`, {
    by: "alice",
    option: "Redis",
    text: "sessions are short-lived",
  });
  assert.equal(answered.status, 200);

  const result = await asked;
  assert.equal(result.isError, false, result.text);
  assert.equal(result.data.status, "answered");
  assert.equal(result.data.actor, "agent-1");
  assert.deepEqual(result.data.answer, {
    text: "sessions are short-lived",
    option: "Redis",
    by: "alice",
  });
  assert.equal(result.data.questionHtml, undefined, "no rendered HTML for the model");
  assert.match(result.text, /answered by alice: option "Redis" — sessions are short-lived/);
  await client.close();
});

test("ask_human answers with the open ask when waitSeconds pass; get_ask reads and waits for it later", async () => {
  const ticketId = await ticket("Needs a decision");
  const client = await connectMcp(api.url, "agent-2");
  const result = await call(client, "ask_human", {
    ticketId,
    question: "Ship on Friday?",
    blocking: false,
    waitSeconds: 1,
  });
  assert.equal(result.isError, false, result.text);
  assert.equal(result.data.status, "open");
  assert.equal(result.data.blocking, false);
  assert.equal(result.data.answer, null);
  const askId = result.data.id;
  assert.match(result.text, new RegExp(`get_ask \\{"askId": ${askId}, "waitSeconds": 600\\}`));
  const ready = await ok(client, "ready", { boardId: board.id });
  assert.ok(
    ready.tickets.some((row: { id: number }) => row.id === ticketId),
    "a non-blocking ask holds nothing",
  );

  const now = await ok(client, "get_ask", { askId });
  assert.equal(now.status, "open");
  const waiting = call(client, "get_ask", { askId, waitSeconds: 120 });
  await api.post(`/api/asks/${askId}/answer`, { by: "bob", text: "yes" });
  const later = await waiting;
  assert.equal(later.isError, false, later.text);
  assert.equal(later.data.status, "answered");
  assert.deepEqual(later.data.answer, { text: "yes", option: null, by: "bob" });

  const missing = await call(client, "get_ask", { askId: 999999 });
  assert.equal(missing.isError, true);
  assert.equal(missing.data.error.code, "not_found");
  const tooLong = await call(client, "ask_human", { ticketId, question: "?", waitSeconds: 601 });
  assert.equal(tooLong.isError, true);
  assert.match(tooLong.data.error.message, /waitSeconds/);
  await client.close();
});

test("prime names the tickets a blocking ask holds", async () => {
  const ticketId = await ticket("Held by a question");
  const ask = (
    await api.post(`/api/tickets/${ticketId}/asks`, { actor: "agent-3", question: "OK?" })
  ).body;
  const client = await connectMcp(api.url, "agent-3");
  const primed = await ok(client, "prime", { boardId: board.id });
  assert.match(
    primed.text,
    new RegExp(`open blocking asks\\): .*#${ticketId} \\(ask ${ask.id}\\)`),
  );
  assert.match(primed.text, /`ask_human`/);
  await client.close();
});

test("check_item ticks and clears one checklist item; an index outside it is a tool error", async () => {
  const ticketId = (
    await api.post(`/api/boards/${board.id}/tickets`, {
      laneId: lanes[0].id,
      title: "With a checklist",
      bodyMarkdown: "Steps:\n\n- [ ] build\n- [ ] test\n- [x] ship\n",
    })
  ).body.id;
  const client = await connectMcp(api.url, "agent-4");
  const ticked = await ok(client, "check_item", { ticketId, index: 1 });
  assert.equal(ticked.checked, true);
  assert.deepEqual(ticked.checklist, { done: 2, total: 3 });
  const body = (await api.get(`/api/tickets/${ticketId}`)).body.bodyMarkdown;
  assert.equal(body, "Steps:\n\n- [ ] build\n- [x] test\n- [x] ship\n");
  const cleared = await ok(client, "check_item", { ticketId, index: 2, checked: false });
  assert.deepEqual(cleared.checklist, { done: 1, total: 3 });
  const outside = await call(client, "check_item", { ticketId, index: 3 });
  assert.equal(outside.isError, true);
  assert.equal(outside.data.error.code, "invalid_request");
  await client.close();
});

test("ready names a ticket whose notBefore is still to come; update_ticket clears it", async () => {
  const later = new Date(Date.now() + 3_600_000).toISOString();
  const client = await connectMcp(api.url, "agent-5");
  const created = await ok(client, "create_tickets", {
    boardId: board.id,
    tickets: [{ title: "Tomorrow's job", notBefore: later }],
  });
  const ticketId = created.results[0].id;
  const ready = await ok(client, "ready", { boardId: board.id });
  assert.deepEqual(
    ready.waitingUntil.filter((one: { ticketId: number }) => one.ticketId === ticketId).length,
    1,
  );
  assert.ok(!ready.tickets.some((row: { id: number }) => row.id === ticketId));
  await ok(client, "update_ticket", { ticketId, notBefore: null });
  const after = await ok(client, "ready", { boardId: board.id });
  assert.ok(after.tickets.some((row: { id: number }) => row.id === ticketId));
  await client.close();
});
