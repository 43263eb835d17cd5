import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, patchTicket } from "../helpers/tickets.js";
import { askRequests } from "./asks-setup.js";

// Asks (docs/api.md, "Asks"): opening one on a ticket, a ticket's asks and the inbox.

const api = await startTestServer();
const { activityOf, answerAsk, ask, asksOf, inbox, ticket, withdrawAsk } = askRequests(api);

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
