import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { connectMcp, ok } from "../mcp/mcp-connection.js";
import { openPage } from "./browser.js";

// The loop end to end: an agent asks about the ticket it works on and waits for the answer, over
// MCP (`ask_human` with options and a wait) and over HTTP (`GET /api/asks/{id}?wait=60`); the
// person answers in /inbox in Chromium; the waiting call returns the answer, and the ticket, held
// out of the ready queue by the blocking ask, is ready again.

const api = await startTestServer();
const created = (
  await api.post("/api/boards", { name: "Agents", laneNames: ["Todo", "Doing", "Done"] })
).body;
const boardId = created.board.id as number;
const ticket = (
  await api.post(`/api/boards/${boardId}/tickets`, {
    laneId: created.lanes[0].id,
    title: "Pick the storage engine",
  })
).body as { id: number };
const second = (
  await api.post(`/api/boards/${boardId}/tickets`, {
    laneId: created.lanes[0].id,
    title: "Pick the queue",
  })
).body as { id: number };
const readyIds = async () =>
  (
    (await api.get(`/api/boards/${boardId}/tickets?ready=true`)).body.tickets as { id: number }[]
  ).map((entry) => entry.id);

test("an agent's waiting ask is answered in /inbox; the wait returns the answer; the ticket is ready again", async () => {
  assert.ok((await readyIds()).includes(ticket.id));
  const ask = (
    await api.post(`/api/tickets/${ticket.id}/asks`, {
      actor: "agent-1",
      question: "SQLite or Postgres?",
      options: ["SQLite", "Postgres"],
    })
  ).body as { id: number };
  assert.ok(!(await readyIds()).includes(ticket.id), "a blocking ask holds the ticket");
  const waiting = api.get(`/api/asks/${ask.id}?wait=60`);

  const { page, context, errors } = await openPage(`${api.url}/inbox`);
  const item = page.locator(".ask").filter({ hasText: "SQLite or Postgres?" });
  await item.getByRole("button", { name: "SQLite" }).click();

  const answered = await waiting;
  assert.equal(answered.status, 200);
  assert.equal(answered.body.status, "answered");
  assert.deepEqual(
    { option: answered.body.answer.option, by: answered.body.answer.by },
    { option: "SQLite", by: "you" },
  );
  assert.ok((await readyIds()).includes(ticket.id), "ready again");
  await page.getByText("Nothing to answer").waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("an agent's ask_human is answered in /inbox: the call returns the answer, the ticket is ready again", async () => {
  assert.ok((await readyIds()).includes(second.id));
  const agent = await connectMcp(api.url, "agent-1");
  const calling = ok(agent, "ask_human", {
    ticketId: second.id,
    question: "Redis or SQLite for the queue?",
    options: ["Redis", "SQLite"],
    waitSeconds: 60,
  });

  const { page, context, errors } = await openPage(`${api.url}/inbox`);
  const item = page.locator(".ask").filter({ hasText: "Redis or SQLite for the queue?" });
  await item.getByText("agent-1").waitFor();
  assert.ok(!(await readyIds()).includes(second.id), "the blocking ask holds the ticket");
  await item.getByRole("button", { name: "SQLite" }).click();

  const answered = await calling;
  assert.equal(answered.status, "answered");
  assert.deepEqual(
    { option: answered.answer.option, by: answered.answer.by },
    { option: "SQLite", by: "you" },
  );
  assert.ok((await readyIds()).includes(second.id), "ready again");
  await page.getByText("Nothing to answer").waitFor();
  assert.deepEqual(errors, []);
  await context.close();
  await agent.close();
});
