import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { SseClient } from "../helpers/sse-client.js";
import { boardWithLanes, getTicket, patchTicket } from "../helpers/tickets.js";
import { askRequests } from "./asks-setup.js";

// Asks (docs/api.md, "Asks"): answering and withdrawing, and how asks and their ticket follow
// each other.

const api = await startTestServer();
const { activityOf, answerAsk, ask, asksOf, inbox, ticket, withdrawAsk } = askRequests(api);

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
