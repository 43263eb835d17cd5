import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fastJsonStringify from "fast-json-stringify";
import { BoardExport } from "../../src/http/schemas/board-export.js";
import { namedSchemas } from "../../src/http/schemas/index.js";
import { assertError, ok } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, newTicket } from "../helpers/tickets.js";
import { boardDocuments, canonical } from "./board-documents.js";

// Asks in the board export and import: kept, recreated, and refused when broken.

const api = await startTestServer();
const { boardCount } = boardDocuments(api);

describe("asks in the export and the import (docs/api.md, Asks)", () => {
  /** A board whose tickets carry open, answered and withdrawn asks. */
  async function boardWithAsks() {
    const board = await boardWithLanes(api, "Asked board");
    const first = await newTicket(api, board.boardId, board.laneIds[0], "first");
    const second = await newTicket(api, board.boardId, board.laneIds[1], "second");
    const open = (ticketId: number, body: Record<string, unknown>) =>
      ok(api.post(`/api/tickets/${ticketId}/asks`, { actor: "agent", ...body }), 201);
    const choice = await open(first.id, {
      question: "Which **db**?",
      options: ["Postgres", "SQLite"],
    });
    await ok(
      api.post(`/api/asks/${choice.id}/answer`, { by: "dev", option: "SQLite", text: "*small*" }),
    );
    const withdrawn = await open(first.id, { question: "Still needed?", blocking: false });
    await ok(api.post(`/api/asks/${withdrawn.id}/withdraw`, { actor: "agent" }));
    await open(first.id, { question: "  Open one  " });
    await open(second.id, { question: "Another", options: ["a", "b"] });
    return board.boardId;
  }

  test("each ticket carries its asks oldest first, without id, ticketId and boardId", async () => {
    const boardId = await boardWithAsks();
    const document = await ok(api.get(`/api/boards/${boardId}/export`));
    const [first, second] = document.tickets;
    const live = (await api.get(`/api/tickets/${first.id}/asks`)).body.asks;
    assert.deepEqual(
      first.asks,
      live.map(({ id: _id, ticketId: _ticket, boardId: _board, ...ask }: any) => ask),
    );
    assert.deepEqual(
      first.asks.map((ask: any) => ask.status),
      ["answered", "withdrawn", "open"],
    );
    assert.deepEqual(Object.keys(first.asks[0]).sort(), [
      "actor",
      "answer",
      "answeredAt",
      "blocking",
      "createdAt",
      "options",
      "question",
      "questionHtml",
      "status",
    ]);
    assert.equal(second.asks.length, 1);
    const throughSchema = fastJsonStringify(BoardExport, {
      schema: Object.fromEntries(namedSchemas.map((schema) => [schema.$id, schema])),
    });
    assert.deepEqual(JSON.parse(throughSchema(document)), document);
  });

  test("import recreates them with new ids, times, status and answers kept", async () => {
    const boardId = await boardWithAsks();
    const exported = await ok(api.get(`/api/boards/${boardId}/export`));
    const imported = await ok(api.post("/api/boards/import", exported), 201);
    const again = await ok(api.get(`/api/boards/${imported.board.id}/export`));
    assert.deepEqual(canonical(again), canonical(exported));
    const before = (await api.get(`/api/tickets/${exported.tickets[0].id}/asks`)).body.asks;
    const after = (await api.get(`/api/tickets/${again.tickets[0].id}/asks`)).body.asks;
    assert.equal(after.length, before.length);
    after.forEach((ask: any, index: number) => {
      assert.ok(ask.id > before[before.length - 1].id, "new ids");
      assert.equal(ask.ticketId, again.tickets[0].id);
      assert.equal(ask.boardId, imported.board.id);
      assert.equal(ask.createdAt, before[index].createdAt);
      assert.equal(ask.answeredAt, before[index].answeredAt);
      assert.deepEqual(ask.answer, before[index].answer);
    });
    // The 201 answer counts the open asks as a GET does.
    for (const ticket of imported.tickets) {
      const read = (await api.get(`/api/tickets/${ticket.id}`)).body;
      assert.equal(ticket.openAsks, read.openAsks);
    }
    assert.deepEqual(
      imported.tickets.map((ticket: any) => ticket.openAsks),
      [1, 1],
    );
    const inbox = (await api.get(`/api/asks?boardId=${imported.board.id}`)).body.asks;
    assert.deepEqual(
      inbox.map((ask: any) => ask.question),
      ["  Open one  ", "Another"],
    );
  });

  test("HTML is rendered again, never taken from the document; defaults fill the rest", async () => {
    const document = {
      board: { name: "Foreign asks" },
      lanes: [{ id: 1, name: "todo" }],
      tickets: [
        {
          id: 1,
          laneId: 1,
          title: "t",
          asks: [
            {
              actor: " bot ",
              question: "**q**\n\n<script>x</script>",
              questionHtml: "<script>x</script>",
            },
            {
              actor: "bot",
              question: "done?",
              status: "answered",
              answer: { by: "dev", text: "_yes_", textHtml: "<script>" },
              createdAt: "2024-01-01T00:00:00.000Z",
            },
          ],
        },
        { id: 2, laneId: 1, title: "without asks" },
      ],
    };
    const imported = await ok(api.post("/api/boards/import", document), 201);
    const [withAsks, without] = imported.tickets;
    // Oldest first: the ask that kept its 2024 time comes before the one made now.
    const asks = (await api.get(`/api/tickets/${withAsks.id}/asks`)).body.asks.reverse();
    assert.equal(asks[0].actor, "bot");
    assert.equal(asks[0].status, "open");
    assert.equal(asks[0].blocking, true);
    assert.deepEqual(asks[0].options, []);
    assert.equal(asks[0].answeredAt, null);
    assert.doesNotMatch(asks[0].questionHtml, /<script/);
    assert.match(asks[0].questionHtml, /<strong>q<\/strong>/);
    assert.equal(asks[1].createdAt, "2024-01-01T00:00:00.000Z");
    assert.deepEqual(asks[1].answer, {
      text: "_yes_",
      textHtml: "<p><em>yes</em></p>\n",
      option: null,
      by: "dev",
    });
    assert.ok(!Number.isNaN(Date.parse(asks[1].answeredAt)));
    assert.deepEqual((await api.get(`/api/tickets/${without.id}/asks`)).body.asks, []);
  });

  const lanes = [{ id: 1, name: "todo" }];
  const withAsk = (ask: Record<string, unknown>) => ({
    board: { name: "Refused asks" },
    lanes,
    tickets: [
      { id: 1, laneId: 1, title: "fine" },
      { id: 2, laneId: 1, title: "t", asks: [{ actor: "a", question: "q" }, ask] },
    ],
  });
  const refused: Array<[string, Record<string, unknown>, string | RegExp]> = [
    [
      "a blank question",
      { actor: "a", question: "  " },
      "tickets[1].asks[1].question must not be empty",
    ],
    ["a blank actor", { actor: " ", question: "q" }, "tickets[1].asks[1].actor must not be empty"],
    ["a null question", { actor: "a", question: null }, /^tickets\[1\]\.asks\[1\]\.question /],
    [
      "repeated options",
      { actor: "a", question: "q", options: ["x", " x"] },
      "tickets[1].asks[1].options[1] repeats tickets[1].asks[1].options[0]",
    ],
    [
      "more than ten options",
      { actor: "a", question: "q", options: Array.from({ length: 11 }, (_, i) => `o${i}`) },
      /^tickets\[1\]\.asks\[1\]\.options /,
    ],
    [
      "an unknown status",
      { actor: "a", question: "q", status: "closed" },
      /^tickets\[1\]\.asks\[1\]\.status /,
    ],
    [
      "an answered ask without an answer",
      { actor: "a", question: "q", status: "answered" },
      "tickets[1].asks[1].answer is required when status is answered",
    ],
    [
      "an open ask with an answer",
      { actor: "a", question: "q", answer: { by: "d", text: "t" } },
      "tickets[1].asks[1].answer must be null unless status is answered",
    ],
    [
      "an open ask with answeredAt",
      { actor: "a", question: "q", answeredAt: "2024-01-01T00:00:00Z" },
      "tickets[1].asks[1].answeredAt must be null while status is open",
    ],
    [
      "an answer whose option is not offered",
      {
        actor: "a",
        question: "q",
        options: ["x"],
        status: "answered",
        answer: { by: "d", option: "y" },
      },
      "tickets[1].asks[1].answer.option is not one of the ask's options",
    ],
    [
      "an answer with neither text nor option",
      { actor: "a", question: "q", status: "answered", answer: { by: "d", text: " " } },
      "tickets[1].asks[1].answer.text or option is required",
    ],
  ];
  for (const [name, ask, message] of refused) {
    test(`${name}: 400 naming it, nothing created`, async () => {
      const before = await boardCount();
      assertError(await api.post("/api/boards/import", withAsk(ask)), 400, message);
      assert.equal(await boardCount(), before);
    });
  }
});
