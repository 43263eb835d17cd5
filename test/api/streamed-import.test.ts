import assert from "node:assert/strict";
import { request } from "node:http";
import { describe, test } from "node:test";
import { assertError, snapshot } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";

/**
 * The board import reads its body as it arrives (http/streamed-import.ts, json/json-members.ts):
 * the same document cut into pieces anywhere imports the same board, and a body that is not
 * JSON, nests too deep or breaks the schema in any piece answers the same 400 as a body read
 * whole, creating nothing.
 */
const api = await startTestServer();

/**
 * Sends `body` in pieces of `size` bytes, each written on its own; the parsed answer. Without a
 * declared length (chunked) the import keeps what it reads in scratch files, as for a large
 * document; with one under 16 MiB, in memory (domain/transfer/import-keeping.ts).
 */
function postInPieces(
  body: string,
  size: number,
  chunked = false,
): Promise<{ status: number; body: any; text: string }> {
  const bytes = Buffer.from(body);
  const url = new URL(api.url);
  return new Promise((resolve, reject) => {
    const sending = request(
      {
        hostname: url.hostname,
        port: url.port,
        method: "POST",
        path: "/api/boards/import",
        headers: {
          "content-type": "application/json",
          ...(chunked ? {} : { "content-length": bytes.length }),
        },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text), text });
        });
      },
    );
    sending.on("error", reject);
    sending.setNoDelay(true);
    let sent = 0;
    const next = () => {
      if (sent >= bytes.length) {
        sending.end();
        return;
      }
      sending.write(bytes.subarray(sent, sent + size));
      sent += size;
      setImmediate(next);
    };
    next();
  });
}

/** Tickets first, then lanes, tags and the board: any order of members imports. */
const document = {
  tickets: [
    {
      id: 7,
      laneId: 2,
      title: 'Ünïcode ✓ {braces} [brackets] "quotes" \\ back',
      bodyMarkdown: 'body with } and ] and \\" inside',
      tags: [{ name: "urgent" }],
      comments: [{ id: 1, bodyMarkdown: "a comment 😀" }],
      events: [
        { source: "ci", kind: "k", title: "t", data: { nested: { list: [1, [2, { a: null }]] } } },
      ],
    },
    { id: 3, laneId: 1, title: "child", parentTicketId: 7, blockerIds: [], relatedIds: [7] },
  ],
  lanes: [
    { id: 1, name: "todo" },
    { id: 2, name: "doing", wipLimit: null },
  ],
  tags: [{ id: 1, name: "urgent", color: "#f00" }],
  board: { name: "Pieces" },
  version: 1,
  format: "tack.board",
};

describe("a streamed board import", () => {
  test("imports the same board whatever the pieces its body arrives in", async () => {
    const text = JSON.stringify(document, null, 1);
    const answers = [];
    for (const [size, chunked] of [
      [1, false],
      [3, true],
      [7, false],
      [64, true],
      [text.length, false],
      [text.length, true],
    ] as const) {
      const answer = await postInPieces(text, size, chunked);
      assert.equal(answer.status, 201, answer.text);
      const { board, lanes, tags, tickets } = answer.body;
      const exported = await api.get(`/api/boards/${board.id}/export`);
      answers.push({
        lanes: lanes.map((lane: any) => [lane.name, lane.wipLimit]),
        tags: tags.map((tag: any) => [tag.name, tag.color]),
        tickets: exported.body.tickets.map((ticket: any) => ({
          title: ticket.title,
          body: ticket.bodyMarkdown,
          comments: ticket.comments.map((comment: any) => comment.bodyMarkdown),
          events: ticket.events.map((event: any) => event.data),
          tags: ticket.tags.map((tag: any) => tag.name),
          hasParent: ticket.parentTicketId !== null,
          related: ticket.relatedIds.length,
        })),
        count: tickets.length,
      });
    }
    for (const answer of answers.slice(1)) assert.deepEqual(answer, answers[0]);
    assert.equal(answers[0]?.count, 2);
    assert.deepEqual(answers[0]?.tickets[1]?.events, [{ nested: { list: [1, [2, { a: null }]] } }]);
  });

  test("a body that is not JSON, nests too deep or breaks the schema anywhere is a 400, and nothing is created", async () => {
    const before = await snapshot(api);
    const valid = JSON.stringify(document);
    const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
    const cases: Array<[string, string | RegExp]> = [
      ["", "request body must be a JSON object"],
      ["[1]", "request body must be a JSON object"],
      [valid.slice(0, -1), "request body is not valid JSON"],
      [`${valid}x`, "request body is not valid JSON"],
      [valid.replace('"version":1', '"version":1 "x":2'), "request body is not valid JSON"],
      [valid.replace('"title":"child"', '"title":"child",'), "request body is not valid JSON"],
      [valid.replace('"title":"child"', '"title":tru'), "request body is not valid JSON"],
      [valid.replace('"lanes":[', '"lanes":]['), "request body is not valid JSON"],
      [valid.replace('"id":3,', `"id":3,"x":${deep(70)},`), /nested more than 64 levels/],
      [valid.replace('"id":3,', '"id":"3",'), "tickets[1].id must be an integer"],
      [valid.replace('"title":"child",', ""), "tickets[1].title is required"],
      [valid.replace('"board":{"name":"Pieces"}', '"board":{}'), "board.name is required"],
      [valid.replace('"tickets":[', '"tickets":5,"t":['), "tickets must be an array"],
      [
        valid.replace('"format":"tack.board"', `"format":"tack.board","tickets":[]`),
        "request body repeats the member tickets",
      ],
    ];
    for (const [body, message] of cases) {
      for (const size of [5, body.length || 1]) {
        assertError(await postInPieces(body, size, size === 5), 400, message);
      }
    }
    assert.deepEqual(await snapshot(api), before);
  });
});
