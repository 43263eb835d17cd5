import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { tack, tackJson } from "./tack-process.js";

// The developer in the loop from a terminal: an agent asks and waits (`tack ask --wait`), a
// person answers from another process (`tack inbox`, `tack answer`); templates.

const api = await startTestServer();
const { board, lanes } = (await api.post("/api/boards", { name: "Loop" })).body;
const boardId = String(board.id);

async function ticket(title: string, bodyMarkdown = ""): Promise<number> {
  return (
    await api.post(`/api/boards/${board.id}/tickets`, { laneId: lanes[0].id, title, bodyMarkdown })
  ).body.id;
}

async function openAskOn(ticketId: number): Promise<{ id: number }> {
  for (;;) {
    const { asks } = (await api.get(`/api/tickets/${ticketId}/asks`)).body;
    if (asks.length > 0) return asks[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("tack ask --wait prints the ask, then the answer given by `tack answer` from another process", async () => {
  const id = await ticket("Pick a database");
  const asking = tack(api.url, [
    "ask",
    String(id),
    "Which database for sessions?",
    "--option",
    "Postgres",
    "--option",
    "Redis",
    "--wait",
    "5m",
    "--actor",
    "agent-1",
  ]);
  const ask = await openAskOn(id);
  const listed = await tack(api.url, ["inbox", "--board", boardId]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(
    listed.stdout,
    new RegExp(
      `${ask.id}\\s+#${id}\\s+agent-1\\s+open, blocking\\s+Postgres \\| Redis\\s+Which database for sessions\\?`,
    ),
  );
  const answered = await tack(api.url, [
    "answer",
    String(ask.id),
    "--option",
    "Redis",
    "sessions are short-lived",
    "--actor",
    "alice",
  ]);
  assert.equal(answered.code, 0, answered.stderr);
  assert.match(answered.stdout, /answered by alice/);

  const exit = await asking;
  assert.equal(exit.code, 0, exit.stderr);
  const [opened, ...rest] = exit.stdout.trimEnd().split("\n");
  assert.match(opened ?? "", new RegExp(`^ask ${ask.id} on #${id} by agent-1 \\(open, blocking,`));
  assert.match(rest.join("\n"), /options: Postgres \| Redis/);
  assert.match(
    rest.at(-1) ?? "",
    new RegExp(
      `^ask ${ask.id} on #${id} answered by alice: option "Redis" — sessions are short-lived$`,
    ),
  );
  const after = await tackJson(api.url, ["inbox", "--board", boardId]);
  assert.deepEqual(after.asks, [], "an answered ask leaves the inbox");
  const all = await tackJson(api.url, ["inbox", "--status", "all"]);
  assert.deepEqual(
    all.asks.map((one: { id: number }) => one.id),
    [ask.id],
  );
});

test("tack ask --wait exits 6 when no answer came; ask show reads it, waits for it, and withdraw ends it", async () => {
  const id = await ticket("Ship Friday?");
  const timedOut = await tack(api.url, [
    "ask",
    String(id),
    "Anything against it?",
    "--wait",
    "1s",
    "--json",
  ]);
  assert.equal(timedOut.code, 6, timedOut.stderr);
  const ask = JSON.parse(timedOut.stdout);
  assert.equal(ask.status, "open");
  assert.match(
    timedOut.stderr,
    new RegExp(`no answer to ask ${ask.id} yet; it stays open: tack ask show ${ask.id} --wait`),
  );

  const shown = await tack(api.url, ["ask", "show", String(ask.id)]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /Anything against it\?/);
  const stillOpen = await tack(api.url, ["ask", "show", String(ask.id), "--wait", "1s", "-q"]);
  assert.equal(stillOpen.code, 6);
  assert.equal(stillOpen.stdout, `${ask.id}\n`);

  const waiting = tack(api.url, ["ask", "show", String(ask.id), "--wait", "5m", "--json"]);
  await api.post(`/api/asks/${ask.id}/answer`, { by: "bob", text: "no" });
  const later = await waiting;
  assert.equal(later.code, 0, later.stderr);
  assert.deepEqual(JSON.parse(later.stdout).answer.text, "no");

  const second = await tackJson(api.url, [
    "ask",
    String(id),
    "One more?",
    "--no-blocking",
    "--actor",
    "a1",
  ]);
  assert.equal(second.blocking, false);
  const refused = await tack(api.url, ["ask", "withdraw", String(second.id), "--actor", "a2"]);
  assert.equal(refused.code, 4, "only the asker withdraws");
  const withdrawn = await tack(api.url, ["ask", "withdraw", String(second.id), "--actor", "a1"]);
  assert.equal(withdrawn.code, 0, withdrawn.stderr);
  assert.match(withdrawn.stdout, /was withdrawn/);
});

test("tack answer refuses what the API refuses, with its exit codes", async () => {
  const id = await ticket("Choices");
  const ask = (
    await api.post(`/api/tickets/${id}/asks`, { actor: "a", question: "?", options: ["x"] })
  ).body;
  const nothing = await tack(api.url, ["answer", String(ask.id)]);
  assert.equal(nothing.code, 2);
  const wrong = await tack(api.url, ["answer", String(ask.id), "--option", "y"]);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /^tack: .*option/);
  assert.equal((await tack(api.url, ["answer", String(ask.id), "--option", "x"])).code, 0);
  const again = await tack(api.url, ["answer", String(ask.id), "late"]);
  assert.equal(again.code, 4);
  assert.match(again.stderr, /answered/);
  const badWait = await tack(api.url, ["ask", String(id), "?", "--wait", "soon"]);
  assert.equal(badWait.code, 2);
});

test("tack template create from a JSON file, list, show, instantiate with --var", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "tack-template-")), "onboarding.json");
  writeFileSync(
    file,
    JSON.stringify({
      name: "Onboarding",
      tickets: [
        { key: "account", title: "Account for {{who}}" },
        { key: "laptop", title: "Laptop for {{who}}", blockerKeys: ["account"], priority: 3 },
      ],
    }),
  );
  const created = await tack(api.url, ["template", "create", file, "--board", boardId]);
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /created template \d+ Onboarding \(2 tickets; variables: who\)/);
  const listed = await tackJson(api.url, ["template", "list", "--board", boardId]);
  const fromApi = await api.get(`/api/boards/${boardId}/templates`);
  assert.deepEqual(listed, fromApi.body, "--json is the API's answer");
  const shown = await tack(api.url, ["template", "show", "onboarding", "--board", boardId]);
  assert.match(shown.stdout, /variables: who/);
  assert.match(shown.stdout, /laptop\s+Laptop for \{\{who\}\}\s+3\s+account/);

  const made = await tackJson(api.url, [
    "template",
    "instantiate",
    "Onboarding",
    "--var",
    "who=Ada",
    "--board",
    boardId,
  ]);
  assert.deepEqual(
    made.tickets.map((one: { title: string }) => one.title),
    ["Account for Ada", "Laptop for Ada"],
  );
  assert.deepEqual(made.tickets[1].blockerIds, [made.tickets[0].id]);
  const missing = await tack(api.url, [
    "template",
    "instantiate",
    "Onboarding",
    "--board",
    boardId,
  ]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /who/);
  const badVar = await tack(api.url, ["template", "instantiate", "Onboarding", "--var", "who"]);
  assert.equal(badVar.code, 2);
});

test("tack check ticks an item (exit 4 on a stale --if-version); --not-before on create and edit", async () => {
  const id = await ticket("Checklist", "- [ ] one\n- [ ] two\n");
  const checked = await tack(api.url, ["check", String(id), "1"]);
  assert.equal(checked.code, 0, checked.stderr);
  assert.match(checked.stdout, new RegExp(`#${id} item 1 checked: 1/2 done`));
  const stale = await tack(api.url, ["check", String(id), "0", "--if-version", "1"]);
  assert.equal(stale.code, 4);
  const cleared = await tackJson(api.url, ["check", String(id), "1", "--uncheck"]);
  assert.equal(cleared.bodyMarkdown, "- [ ] one\n- [ ] two\n");

  const created = await tackJson(api.url, [
    "ticket",
    "create",
    "Later",
    "--not-before",
    "2h",
    "--board",
    boardId,
  ]);
  assert.ok(Date.parse(created.notBefore) > Date.now() + 3_000_000);
  const ready = await tack(api.url, ["ready", "--board", boardId]);
  assert.match(ready.stdout, new RegExp(`Waiting for a moment: #${created.id} \\(not before`));
  const edited = await tackJson(api.url, [
    "ticket",
    "edit",
    String(created.id),
    "--not-before",
    "none",
  ]);
  assert.equal(edited.notBefore, null);
});
