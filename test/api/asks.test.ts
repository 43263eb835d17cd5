import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { SseClient } from "../helpers/sse-client.js";
import { boardWithLanes, getTicket, newTicket, patchTicket } from "../helpers/tickets.js";

const api = await startTestServer();
const asks = api.server.services.asks;

async function ticket(title = "asked about", board?: { boardId: number; laneIds: number[] }) {
  const where = board ?? (await boardWithLanes(api, "Asks"));
  return newTicket(api, where.boardId, where.laneIds[0], title);
}

async function ask(ticketId: number, body: Record<string, unknown> = {}): Promise<any> {
  const response = await api.post(`/api/tickets/${ticketId}/asks`, {
    actor: "agent-1",
    question: "Which way?",
    ...body,
  });
  assert.equal(response.status, 201, response.text);
  return response.body;
}

async function asksOf(ticketId: number): Promise<any[]> {
  const response = await api.get(`/api/tickets/${ticketId}/asks`);
  assert.equal(response.status, 200, response.text);
  return response.body.asks;
}

async function inbox(query = ""): Promise<any[]> {
  const response = await api.get(`/api/asks${query}`);
  assert.equal(response.status, 200, response.text);
  return response.body.asks;
}

const answerAsk = (askId: number, body: Record<string, unknown>) =>
  api.post(`/api/asks/${askId}/answer`, body);
const withdrawAsk = (askId: number, body: Record<string, unknown>) =>
  api.post(`/api/asks/${askId}/withdraw`, body);

/** Resolves once `condition` holds (the server's state, polled), failing after `limitMs`. */
async function eventually(condition: () => boolean, what: string, limitMs = 5000) {
  const end = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > end) assert.fail(`never happened: ${what}`);
    await sleep(10);
  }
}

async function activityOf(ticketId: number): Promise<any[]> {
  const response = await api.get(`/api/tickets/${ticketId}/activity`);
  assert.equal(response.status, 200, response.text);
  return response.body.activity;
}

describe("opening an ask", () => {
  test("answers 201 with the Ask: defaults, Markdown rendered, options trimmed", async () => {
    const { id, boardId } = await ticket();
    const created = await ask(id, {
      question: "  Use **Postgres** or SQLite?\n",
      options: ["  Postgres ", "SQLite"],
    });
    assert.deepEqual(Object.keys(created).sort(), [
      "actor",
      "answer",
      "answeredAt",
      "blocking",
      "boardId",
      "createdAt",
      "id",
      "options",
      "question",
      "questionHtml",
      "status",
      "ticketId",
    ]);
    assert.equal(created.ticketId, id);
    assert.equal(created.boardId, boardId);
    assert.equal(created.actor, "agent-1");
    assert.equal(created.question, "  Use **Postgres** or SQLite?\n", "stored as sent");
    assert.equal(created.questionHtml, "<p>Use <strong>Postgres</strong> or SQLite?</p>\n");
    assert.deepEqual(created.options, ["Postgres", "SQLite"]);
    assert.equal(created.blocking, true);
    assert.equal(created.status, "open");
    assert.equal(created.answer, null);
    assert.equal(created.answeredAt, null);
    assert.ok(!Number.isNaN(Date.parse(created.createdAt)));
    const read = await api.get(`/api/asks/${created.id}`);
    assert.deepEqual(read.body, created);
  });

  test("sanitizes the question's HTML like a body, trims the actor, keeps blocking: false", async () => {
    const { id } = await ticket();
    const created = await ask(id, {
      actor: "  agent-2 ",
      question: "<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>",
      blocking: false,
    });
    assert.doesNotMatch(created.questionHtml, /<script|href="javascript|onerror/);
    assert.equal(created.actor, "agent-2");
    assert.equal(created.blocking, false);
  });

  test("options may differ only in case; ten are allowed", async () => {
    const { id } = await ticket();
    const ten = Array.from({ length: 10 }, (_, index) => `option ${index}`);
    assert.deepEqual((await ask(id, { options: ["Yes", "yes"] })).options, ["Yes", "yes"]);
    assert.deepEqual((await ask(id, { options: ten })).options, ten);
  });

  test("rejects every invalid field with 400 and writes nothing", async () => {
    const { id } = await ticket();
    const post = (body: unknown) => api.post(`/api/tickets/${id}/asks`, body);
    const valid = { actor: "agent-1", question: "Which way?" };
    assertError(await post({ question: "q" }), 400, "actor is required");
    assertError(await post({ actor: "a" }), 400, "question is required");
    assertError(await post({ ...valid, actor: null }), 400, /^actor /);
    assertError(await post({ ...valid, question: null }), 400, /^question /);
    assertError(await post({ ...valid, options: null }), 400, /^options /);
    assertError(await post({ ...valid, blocking: null }), 400, /^blocking /);
    assertError(await post({ ...valid, blocking: "true" }), 400, /^blocking /);
    assertError(await post({ ...valid, options: ["a", null] }), 400, "options[1] must be a string");
    assertError(await post({ ...valid, actor: "   " }), 400, "actor must not be empty");
    assertError(await post({ ...valid, actor: "a".repeat(101) }), 400, /actor must be at most 100/);
    assertError(await post({ ...valid, question: " \n\t " }), 400, "question must not be empty");
    assertError(
      await post({ ...valid, question: "q".repeat(10_001) }),
      400,
      "question must be at most 10000 characters",
    );
    const eleven = Array.from({ length: 11 }, (_, index) => `o${index}`);
    assertError(await post({ ...valid, options: eleven }), 400, /^options /);
    assertError(
      await post({ ...valid, options: ["a", "  "] }),
      400,
      "options[1] must not be empty",
    );
    assertError(
      await post({ ...valid, options: ["a", "o".repeat(201)] }),
      400,
      "options[1] must be at most 200 characters",
    );
    assertError(
      await post({ ...valid, options: ["Yes", "No", " Yes "] }),
      400,
      "options[2] repeats options[0]",
    );
    assert.deepEqual(await asksOf(id), []);
    assert.equal((await activityOf(id)).filter((entry) => entry.action === "ask_opened").length, 0);
  });

  test("a question of 10,000 characters with whitespace around it is accepted as sent", async () => {
    const { id } = await ticket();
    const question = `  ${"q".repeat(10_000)}  `;
    assert.equal((await ask(id, { question })).question, question);
  });

  test("unknown ticket 404, resolved or archived ticket 409, malformed id 400", async () => {
    assertError(
      await api.post("/api/tickets/999999/asks", { actor: "a", question: "q" }),
      404,
      "ticket not found",
    );
    assertError(await api.post("/api/tickets/x/asks", { actor: "a", question: "q" }), 400);
    const resolved = await ticket("resolved");
    await patchTicket(api, resolved.id, { isResolved: true });
    assertError(
      await api.post(`/api/tickets/${resolved.id}/asks`, { actor: "a", question: "q" }),
      409,
      "ticket is resolved",
    );
    const archived = await ticket("archived");
    await patchTicket(api, archived.id, { isArchived: true });
    assertError(
      await api.post(`/api/tickets/${archived.id}/asks`, { actor: "a", question: "q" }),
      409,
      "ticket is archived",
    );
    assert.deepEqual(await asksOf(resolved.id), []);
    assert.deepEqual(await asksOf(archived.id), []);
  });

  test("an Idempotency-Key repeat answers the first ask and opens no second one", async () => {
    const { id } = await ticket();
    const body = { actor: "agent-1", question: "Once?" };
    const headers = { "idempotency-key": "ask-once-1" };
    const first = await api.request("POST", `/api/tickets/${id}/asks`, body, headers);
    const again = await api.request("POST", `/api/tickets/${id}/asks`, body, headers);
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    assert.equal((await asksOf(id)).length, 1);
    const other = await api.request(
      "POST",
      `/api/tickets/${id}/asks`,
      { ...body, question: "Twice?" },
      headers,
    );
    assertError(other, 422, "idempotency key reused with a different request");
  });

  test("records ask_opened on the ticket with askId and actor", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    const [entry] = await activityOf(id);
    assert.equal(entry.action, "ask_opened");
    assert.deepEqual(entry.details, { askId: created.id, actor: "agent-1" });
  });

  test("ask ids are never reused", async () => {
    const { id } = await ticket();
    const first = await ask(id);
    assert.equal((await api.delete(`/api/tickets/${id}`)).status, 204);
    const other = await ticket();
    const second = await ask(other.id);
    assert.ok(second.id > first.id);
  });
});

describe("listing asks", () => {
  test("a ticket's asks: every status, oldest first; unknown ticket 404", async () => {
    const { id } = await ticket();
    const first = await ask(id, { question: "one" });
    const second = await ask(id, { question: "two" });
    const third = await ask(id, { question: "three" });
    assert.equal((await answerAsk(first.id, { by: "dev", text: "ok" })).status, 200);
    assert.equal((await withdrawAsk(second.id, { actor: "agent-1" })).status, 200);
    const listed = await asksOf(id);
    assert.deepEqual(
      listed.map((item) => [item.id, item.status]),
      [
        [first.id, "answered"],
        [second.id, "withdrawn"],
        [third.id, "open"],
      ],
    );
    assertError(await api.get("/api/tickets/999999/asks"), 404, "ticket not found");
  });

  test("the inbox: open by default, by status, by board; unknown board 404, bad status 400", async () => {
    const boardA = await boardWithLanes(api, "Inbox A");
    const boardB = await boardWithLanes(api, "Inbox B");
    const onA = await ticket("a", boardA);
    const onB = await ticket("b", boardB);
    const openA = await ask(onA.id);
    const openB = await ask(onB.id);
    const answeredA = await ask(onA.id);
    const withdrawnB = await ask(onB.id);
    await answerAsk(answeredA.id, { by: "dev", text: "done" });
    await withdrawAsk(withdrawnB.id, { actor: "agent-1" });
    const ids = (asks: any[]) => asks.map((item) => item.id);
    const mine = new Set([openA.id, openB.id, answeredA.id, withdrawnB.id]);
    const only = (asks: any[]) => ids(asks).filter((id) => mine.has(id));

    assert.deepEqual(only(await inbox()), [openA.id, openB.id]);
    assert.deepEqual(only(await inbox("?status=open")), [openA.id, openB.id]);
    assert.deepEqual(only(await inbox("?status=answered")), [answeredA.id]);
    assert.deepEqual(only(await inbox("?status=withdrawn")), [withdrawnB.id]);
    assert.deepEqual(only(await inbox("?status=all")), [
      openA.id,
      openB.id,
      answeredA.id,
      withdrawnB.id,
    ]);
    assert.deepEqual(ids(await inbox(`?boardId=${boardA.boardId}`)), [openA.id]);
    assert.deepEqual(ids(await inbox(`?status=all&boardId=${boardB.boardId}`)), [
      openB.id,
      withdrawnB.id,
    ]);
    for (const item of await inbox("?status=all")) {
      assert.ok(["open", "answered", "withdrawn"].includes(item.status));
    }
    assertError(await api.get("/api/asks?status=closed"), 400, /^status /);
    assertError(await api.get("/api/asks?boardId=999999"), 404, "board not found");
    assertError(await api.get("/api/asks?boardId=abc"), 400, /^boardId /);
  });

  test("every GET answers a strong ETag and 304 for If-None-Match", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    for (const path of [`/api/asks/${created.id}`, `/api/tickets/${id}/asks`, "/api/asks"]) {
      const first = await api.get(path);
      const tag = first.headers.get("etag");
      assert.match(tag ?? "", /^"[^"]+"$/, path);
      const again = await api.request("GET", path, undefined, { "if-none-match": tag as string });
      assert.equal(again.status, 304, path);
      assert.equal(again.text, "");
    }
    const before = (await api.get(`/api/asks/${created.id}`)).headers.get("etag") as string;
    await answerAsk(created.id, { by: "dev", text: "yes" });
    const after = await api.request("GET", `/api/asks/${created.id}`, undefined, {
      "if-none-match": before,
    });
    assert.equal(after.status, 200, "a changed ask no longer matches");
    assert.notEqual(after.headers.get("etag"), before);
  });

  test("an unknown ask is 404, a malformed id 400", async () => {
    assertError(await api.get("/api/asks/999999"), 404, "ask not found");
    assertError(await api.get("/api/asks/0"), 400);
    assertError(await answerAsk(999999, { by: "dev", text: "x" }), 404, "ask not found");
    assertError(await withdrawAsk(999999, { actor: "agent-1" }), 404, "ask not found");
  });
});

describe("answering", () => {
  test("with text: stored as sent, rendered; answeredAt set; ask_answered recorded", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    const response = await answerAsk(created.id, { by: " dev ", text: " Use *SQLite* " });
    assert.equal(response.status, 200, response.text);
    const answered = response.body;
    assert.equal(answered.status, "answered");
    assert.deepEqual(answered.answer, {
      text: " Use *SQLite* ",
      textHtml: "<p>Use <em>SQLite</em></p>\n",
      option: null,
      by: "dev",
    });
    assert.ok(!Number.isNaN(Date.parse(answered.answeredAt)));
    assert.deepEqual((await api.get(`/api/asks/${created.id}`)).body, answered);
    const [entry] = await activityOf(id);
    assert.equal(entry.action, "ask_answered");
    assert.deepEqual(entry.details, { askId: created.id, by: "dev", option: null });
  });

  test("with an option, or both; a blank text counts as not given", async () => {
    const { id } = await ticket();
    const one = await ask(id, { options: ["Postgres", "SQLite"] });
    const two = await ask(id, { options: ["Postgres", "SQLite"] });
    const byOption = await answerAsk(one.id, { by: "dev", option: "SQLite", text: "  " });
    assert.equal(byOption.status, 200, byOption.text);
    assert.deepEqual(byOption.body.answer, {
      text: null,
      textHtml: null,
      option: "SQLite",
      by: "dev",
    });
    const [entry] = await activityOf(id);
    assert.deepEqual(entry.details, { askId: one.id, by: "dev", option: "SQLite" });
    const both = await answerAsk(two.id, { by: "dev", option: "Postgres", text: "for now" });
    assert.equal(both.body.answer.option, "Postgres");
    assert.equal(both.body.answer.text, "for now");
  });

  test("rejects answers without text or option, unknown options and bad fields", async () => {
    const { id } = await ticket();
    const withOptions = await ask(id, { options: ["Yes", "No"] });
    const without = await ask(id);
    assertError(await answerAsk(without.id, { by: "dev" }), 400, "text or option is required");
    assertError(
      await answerAsk(without.id, { by: "dev", text: " \n " }),
      400,
      "text or option is required",
    );
    assertError(
      await answerAsk(without.id, { by: "dev", option: "Yes" }),
      400,
      "option given but the ask has no options",
    );
    for (const option of ["yes", " Yes", "Maybe", ""]) {
      assertError(
        await answerAsk(withOptions.id, { by: "dev", option }),
        400,
        "option is not one of the ask's options",
      );
    }
    assertError(await answerAsk(without.id, { text: "x" }), 400, "by is required");
    assertError(await answerAsk(without.id, { by: "  ", text: "x" }), 400, "by must not be empty");
    assertError(await answerAsk(without.id, { by: null, text: "x" }), 400, /^by /);
    assertError(await answerAsk(without.id, { by: "dev", text: null }), 400, /^text /);
    assertError(await answerAsk(withOptions.id, { by: "dev", option: null }), 400, /^option /);
    assertError(
      await answerAsk(without.id, { by: "dev", text: "t".repeat(10_001) }),
      400,
      "text must be at most 10000 characters",
    );
    for (const item of await asksOf(id)) assert.equal(item.status, "open");
  });

  test("an ask that is not open answers 409 naming its status, before other checks", async () => {
    const { id } = await ticket();
    const answered = await ask(id);
    const withdrawn = await ask(id);
    await answerAsk(answered.id, { by: "dev", text: "first" });
    await withdrawAsk(withdrawn.id, { actor: "agent-1" });
    assertError(
      await answerAsk(answered.id, { by: "dev", text: "second" }),
      409,
      "ask is answered",
    );
    assertError(await answerAsk(answered.id, { by: "  " }), 409, "ask is answered");
    assertError(await answerAsk(withdrawn.id, { by: "dev", text: "x" }), 409, "ask is withdrawn");
    assertError(await withdrawAsk(answered.id, { actor: "agent-1" }), 409, "ask is answered");
    assertError(await withdrawAsk(withdrawn.id, { actor: "agent-1" }), 409, "ask is withdrawn");
    assertError(await withdrawAsk(withdrawn.id, { actor: "someone" }), 409, "ask is withdrawn");
    const kept = (await api.get(`/api/asks/${answered.id}`)).body;
    assert.equal(kept.answer.text, "first");
  });

  test("of two racing answers exactly one wins; the other gets 409", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    const results = await Promise.all([
      answerAsk(created.id, { by: "dev-1", text: "one" }),
      answerAsk(created.id, { by: "dev-2", text: "two" }),
    ]);
    const statuses = results.map((result) => result.status).sort();
    assert.deepEqual(statuses, [200, 409]);
    const answers = (await activityOf(id)).filter((entry) => entry.action === "ask_answered");
    assert.equal(answers.length, 1);
  });
});

describe("withdrawing", () => {
  test("the asker withdraws: status withdrawn, no answer, ask_withdrawn recorded", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    const response = await withdrawAsk(created.id, { actor: " agent-1 " });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.status, "withdrawn");
    assert.equal(response.body.answer, null);
    assert.ok(!Number.isNaN(Date.parse(response.body.answeredAt)));
    const [entry] = await activityOf(id);
    assert.equal(entry.action, "ask_withdrawn");
    assert.deepEqual(entry.details, { askId: created.id });
  });

  test("another actor gets 409 and the ask stays open; bad actors 400", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    assertError(
      await withdrawAsk(created.id, { actor: "agent-2" }),
      409,
      "ask was opened by agent-1",
    );
    assertError(await withdrawAsk(created.id, { actor: "Agent-1" }), 409);
    assertError(await withdrawAsk(created.id, {}), 400, "actor is required");
    assertError(await withdrawAsk(created.id, { actor: null }), 400, /^actor /);
    assertError(await withdrawAsk(created.id, { actor: " " }), 400, "actor must not be empty");
    assert.equal((await api.get(`/api/asks/${created.id}`)).body.status, "open");
  });
});

describe("asks follow their ticket", () => {
  test("resolving or archiving leaves them as they are", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    await patchTicket(api, id, { isResolved: true, isArchived: true });
    assert.deepEqual((await api.get(`/api/asks/${created.id}`)).body, created);
    const answered = await answerAsk(created.id, { by: "dev", text: "late, but here" });
    assert.equal(answered.status, 200, "an open ask can still be answered");
  });

  test("moving the ticket to another board: boardId follows, in the inbox too", async () => {
    const from = await boardWithLanes(api, "From");
    const to = await boardWithLanes(api, "To");
    const moved = await ticket("moving", from);
    const created = await ask(moved.id);
    const response = await api.post(`/api/tickets/${moved.id}/move`, {
      boardId: to.boardId,
      laneId: to.laneIds[1],
    });
    assert.equal(response.status, 200, response.text);
    assert.equal((await api.get(`/api/asks/${created.id}`)).body.boardId, to.boardId);
    assert.deepEqual(await inbox(`?boardId=${from.boardId}`), []);
    assert.deepEqual(
      (await inbox(`?boardId=${to.boardId}`)).map((item) => item.id),
      [created.id],
    );
  });

  test("deleting the ticket takes its asks: 404 and gone from every list", async () => {
    const board = await boardWithLanes(api, "Deleting");
    const doomed = await ticket("doomed", board);
    const open = await ask(doomed.id);
    const answered = await ask(doomed.id);
    await answerAsk(answered.id, { by: "dev", text: "ok" });
    assert.equal((await api.delete(`/api/tickets/${doomed.id}`)).status, 204);
    for (const item of [open, answered]) {
      assertError(await api.get(`/api/asks/${item.id}`), 404, "ask not found");
      assertError(await answerAsk(item.id, { by: "dev", text: "x" }), 404);
    }
    const all = (await inbox("?status=all")).map((item) => item.id);
    assert.ok(!all.includes(open.id) && !all.includes(answered.id));
    assert.deepEqual(await inbox(`?status=all&boardId=${board.boardId}`), []);
    assertError(await api.get(`/api/tickets/${doomed.id}/asks`), 404, "ticket not found");
  });
});

describe("what asks do to their ticket", () => {
  test("open, answer, withdraw: version +1 each, openAsks, one board_updated naming it", async () => {
    const board = await boardWithLanes(api, "Ticket side");
    const { id } = await ticket("watched", board);
    const stream = await SseClient.open(`${api.url}/api/boards/${board.boardId}/events`);
    try {
      await stream.waitUntil(() => stream.comments.includes("connected"));
      let expected = (await getTicket(api, id)).version;
      const steps: Array<[string, () => Promise<unknown>, number]> = [];
      let first: any;
      let second: any;
      steps.push(["open", async () => (first = await ask(id)), 1]);
      steps.push([
        "open non-blocking",
        async () => (second = await ask(id, { blocking: false })),
        2,
      ]);
      steps.push(["answer", () => answerAsk(first.id, { by: "dev", text: "ok" }), 1]);
      steps.push(["withdraw", () => withdrawAsk(second.id, { actor: "agent-1" }), 0]);
      for (const [name, step, openAsks] of steps) {
        const messages = stream.messages.length;
        await step();
        expected += 1;
        const read = await getTicket(api, id);
        assert.equal(read.version, expected, `${name}: version`);
        assert.equal(read.openAsks, openAsks, `${name}: openAsks`);
        await stream.waitUntil(() => stream.messages.length === messages + 1);
        const message = stream.messages[messages]?.data;
        assert.equal(message?.event, "board_updated", name);
        assert.deepEqual(message?.ticketIds, [id], name);
      }
    } finally {
      stream.close();
    }
  });

  test("an open blocking ask keeps its ticket out of ready; answered, it is ready again", async () => {
    const board = await boardWithLanes(api, "Ready side");
    const { id } = await ticket("held", board);
    const ready = async () =>
      (await api.get(`/api/boards/${board.boardId}/tickets?ready=true`)).body.tickets.map(
        (item: any) => item.id,
      );
    const quiet = await ask(id, { blocking: false });
    assert.deepEqual(await ready(), [id], "a non-blocking ask holds nothing");
    const held = await ask(id);
    assert.deepEqual(await ready(), []);
    await answerAsk(held.id, { by: "dev", text: "go" });
    assert.deepEqual(await ready(), [id]);
    assert.equal(quiet.status, "open");
  });
});

describe("waiting for an answer (?wait=)", () => {
  test("wait out of range or not an integer is 400; an unknown ask 404", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    for (const wait of ["0", "61", "-1", "1.5", "abc", ""]) {
      assertError(await api.get(`/api/asks/${created.id}?wait=${wait}`), 400, /^wait /);
    }
    assertError(await api.get("/api/asks/999999?wait=5"), 404, "ask not found");
    assert.equal(asks.waiting(), 0);
  });

  test("an ask that is not open answers at once", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    await answerAsk(created.id, { by: "dev", text: "already" });
    const response = await api.get(`/api/asks/${created.id}?wait=60`);
    assert.equal(response.status, 200);
    assert.equal(response.body.status, "answered");
    assert.equal(asks.waiting(created.id), 0);
  });

  test("several waiters on one ask all wake with the answer", async () => {
    const { id } = await ticket();
    const created = await ask(id, { options: ["go", "stop"] });
    const waits = Array.from({ length: 5 }, () => api.get(`/api/asks/${created.id}?wait=60`));
    await eventually(() => asks.waiting(created.id) === 5, "five callers waiting");
    const answered = await answerAsk(created.id, { by: "dev", option: "go" });
    assert.equal(answered.status, 200);
    for (const response of await Promise.all(waits)) {
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, answered.body);
      assert.ok(response.headers.get("etag"));
    }
    assert.equal(asks.waiting(created.id), 0);
  });

  test("a withdrawal wakes waiters too", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    const waiting = api.get(`/api/asks/${created.id}?wait=60`);
    await eventually(() => asks.waiting(created.id) === 1, "one caller waiting");
    await withdrawAsk(created.id, { actor: "agent-1" });
    const response = await waiting;
    assert.equal(response.body.status, "withdrawn");
  });

  test("when the time passes the ask is answered as it is (still open)", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    const response = await api.get(`/api/asks/${created.id}?wait=1`);
    assert.equal(response.status, 200);
    assert.equal(response.body.status, "open");
    assert.deepEqual(response.body, created);
    assert.equal(asks.waiting(created.id), 0);
  });

  // Without the re-check after the delete's commit, the callers would get their 404 only after
  // 60 s: the test's timeout (half of that) is what fails then.
  test("deleting the ticket or its board answers its waiters 404 at once", {
    timeout: 30_000,
  }, async () => {
    const board = await boardWithLanes(api, "Deleted while waiting");
    const first = await ticket("first", board);
    const second = await ticket("second", board);
    const onFirst = await ask(first.id);
    const onSecond = await ask(second.id);
    const waitingFirst = api.get(`/api/asks/${onFirst.id}?wait=60`);
    const waitingSecond = api.get(`/api/asks/${onSecond.id}?wait=60`);
    await eventually(() => asks.waiting() >= 2, "two callers waiting");
    // A change to the ticket that leaves the ask open keeps its caller waiting.
    await patchTicket(api, first.id, { title: "first, renamed" });
    await sleep(50);
    assert.equal(asks.waiting(onFirst.id), 1);
    assert.equal((await api.delete(`/api/tickets/${first.id}`)).status, 204);
    assertError(await waitingFirst, 404, "ask not found");
    assert.equal(asks.waiting(onSecond.id), 1);
    assert.equal((await api.delete(`/api/boards/${board.boardId}`)).status, 204);
    assertError(await waitingSecond, 404, "ask not found");
    assert.equal(asks.waiting(), 0);
  });

  test("a client that disconnects mid-wait leaves no waiter behind", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    const url = new URL(api.url);
    for (const how of ["destroy", "end"] as const) {
      const socket = connect(Number(url.port), url.hostname);
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk.toString();
      });
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(`GET /api/asks/${created.id}?wait=60 HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
      await eventually(() => asks.waiting(created.id) === 1, `${how}: the caller waits`);
      const closed = new Promise((resolve) => socket.once("close", resolve));
      // destroy: the client is gone; end: it stops sending (a half-closed socket).
      if (how === "destroy") socket.destroy();
      else socket.end();
      await eventually(() => asks.waiting(created.id) === 0, `${how}: the waiter is removed`);
      await closed;
      assert.equal(received, "", `${how}: nothing was written to the socket`);
    }
    // The ask can still be answered, and an answer after the callers left writes to nobody.
    assert.equal((await answerAsk(created.id, { by: "dev", text: "later" })).status, 200);
    assert.equal(asks.waiting(), 0);
  });

  test("If-None-Match with the open ask's tag: 304 when the time passes unchanged", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    const tag = (await api.get(`/api/asks/${created.id}`)).headers.get("etag") as string;
    const unchanged = await api.request("GET", `/api/asks/${created.id}?wait=1`, undefined, {
      "if-none-match": tag,
    });
    assert.equal(unchanged.status, 304);
    assert.equal(unchanged.headers.get("etag"), tag);
    const waiting = api.request("GET", `/api/asks/${created.id}?wait=60`, undefined, {
      "if-none-match": tag,
    });
    await eventually(() => asks.waiting(created.id) === 1, "one caller waiting");
    await answerAsk(created.id, { by: "dev", text: "changed" });
    const changed = await waiting;
    assert.equal(changed.status, 200);
    assert.equal(changed.body.status, "answered");
  });

  // Without the answer at close, close() would wait for the caller's 60 s: the test's timeout
  // (half of that, however slow the machine) is what fails then.
  test("closing the server answers every waiting caller with its ask as it is", {
    timeout: 30_000,
  }, async () => {
    const other = await startTestServer();
    const board = await boardWithLanes(other, "Closing");
    const owned = await newTicket(other, board.boardId, board.laneIds[0], "t");
    const created = await other.post(`/api/tickets/${owned.id}/asks`, {
      actor: "agent-1",
      question: "Still there?",
    });
    const waiting = other.get(`/api/asks/${created.body.id}?wait=60`);
    await eventually(
      () => other.server.services.asks.waiting(created.body.id) === 1,
      "one caller waiting",
    );
    await other.close();
    const response = await waiting;
    assert.equal(response.status, 200);
    assert.equal(response.body.status, "open");
  });
});
