import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { IMPORT_BODY_LIMIT, IMPORT_STREAM_BYTE_LIMIT } from "../../src/http/request-limits.js";
import { ROWS_PER_STATEMENT } from "../../src/storage/bulk-insert.js";
import { assertError, ok } from "../helpers/factories.js";
import { rawRequest } from "../helpers/raw-http.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, newTicket } from "../helpers/tickets.js";

// POST /api/boards/import of large documents: several insert statements, bodies past the
// default request limit, and a refusal found at the last of 5,000 tickets.

const api = await startTestServer();

describe("import", () => {
  test("a document of several insert statements gets the ids a row-by-row write gave", async () => {
    // The import writes each table in multi-row statements of ROWS_PER_STATEMENT rows and numbers
    // the rows itself (src/storage/bulk-insert.ts). With two full statements and a remainder, and
    // document order, id order and parent order all different, every id and link must be what
    // inserting row by row gave: ticket ids in source-id order after the highest ticket id ever
    // used (not a deleted ticket's: its history stays readable), comment and activity ids in
    // document order, parents, blockers, related links and reason comments on the right rows.
    const size = 2 * ROWS_PER_STATEMENT + 37;
    const sourceId = (index: number) => ((index * 7919) % size) + 1; // a permutation of 1..size
    const parentOf = (index: number) => index - (index % 4); // groups of 4, the first is the parent
    const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute)).toISOString();
    const tickets = Array.from({ length: size }, (_, index) => {
      const id = sourceId(index);
      return {
        id,
        laneId: (index % 2) + 1,
        title: `ticket ${index}`,
        parentTicketId: parentOf(index) === index ? null : sourceId(parentOf(index)),
        blockerIds: index % 3 === 0 && index > 0 ? [sourceId(index - 1)] : [],
        relatedIds:
          index % 5 === 0
            ? [sourceId((index + 1) % size)]
            : index % 5 === 1
              ? [sourceId(index - 1)]
              : [],
        tags: [{ name: index % 2 ? "odd" : "even" }],
        // Few distinct bodies: this test is about the writes, not about rendering.
        comments: [
          { id: 2 * id, bodyMarkdown: "newer", createdAt: at(2) },
          { id: 2 * id - 1, bodyMarkdown: "older", createdAt: at(1) },
        ],
        tagReasons: [
          { tagId: (index % 2) + 1, reason: `why ${index}`, reasonCommentId: 2 * id - 1 },
        ],
        externalReferences:
          index % 2
            ? []
            : [
                {
                  kind: "source",
                  provider: "github",
                  instanceUrl: "https://github.com",
                  projectKey: "acme/app",
                  issueKey: String(index),
                  displayRef: `acme/app#${index}`,
                  url: `https://github.com/acme/app/issues/${index}`,
                },
              ],
        events: index % 3 ? [] : [{ source: "ci", kind: "build", title: `build ${index}` }],
      };
    });
    const document = {
      board: { name: "Several statements" },
      lanes: [
        { id: 1, name: "one" },
        { id: 2, name: "two" },
      ],
      tags: [
        { id: 1, name: "even" },
        { id: 2, name: "odd" },
      ],
      tickets,
    };

    // The newest ticket, comment and activity entry before the import; the newest ticket is then
    // deleted with its comment: their ids stay taken (an id once used never names anything else).
    const before = await boardWithLanes(api, "Before the import", ["l"]);
    const kept = await newTicket(api, before.boardId, before.laneIds[0], "kept");
    await ok(api.post(`/api/tickets/${kept.id}/comments`, { bodyMarkdown: "c" }), 201);
    const deleted = await newTicket(api, before.boardId, before.laneIds[0], "deleted");
    const deletedComment = await ok(
      api.post(`/api/tickets/${deleted.id}/comments`, { bodyMarkdown: "c" }),
      201,
    );
    await ok(api.delete(`/api/tickets/${deleted.id}`), 204);
    const [lastEntry] = (await ok(api.get(`/api/tickets/${deleted.id}/activity`))).activity;

    const imported = await ok(api.post("/api/boards/import", document), 201);
    const byTitle = new Map<string, any>(imported.tickets.map((t: any) => [t.title, t]));
    const answerOf = (index: number) => byTitle.get(`ticket ${index}`);
    const newId = (index: number) => answerOf(index).id as number;

    const inIdOrder = Array.from({ length: size }, (_, index) => index).sort(
      (a, b) => sourceId(a) - sourceId(b),
    );
    assert.deepEqual(
      inIdOrder.map(newId),
      inIdOrder.map((_, rank) => deleted.id + 1 + rank),
      "ticket ids follow the source ids, right after the highest id ever used",
    );
    const exported = await ok(api.get(`/api/boards/${imported.board.id}/export`));
    const reasonOf = new Map<number, any>(
      exported.tickets.map((t: any) => [t.id, t.tagReasons[0]]),
    );
    for (let index = 0; index < size; index++) {
      const ticket = answerOf(index);
      assert.deepEqual(ticket, await ok(api.get(`/api/tickets/${ticket.id}`)), ticket.title);
      const older = deletedComment.id + 1 + 2 * index; // oldest first, in document order
      assert.deepEqual(
        ticket.comments.map((c: any) => [c.id, c.ticketId, c.bodyMarkdown]),
        [
          [older + 1, ticket.id, "newer"],
          [older, ticket.id, "older"],
        ],
      );
      assert.equal(reasonOf.get(ticket.id).reasonCommentId, older);
      assert.equal(reasonOf.get(ticket.id).reason, `why ${index}`);
      const parent = parentOf(index);
      assert.equal(ticket.parentTicketId, parent === index ? null : newId(parent));
      assert.deepEqual(ticket.blockerIds, index % 3 === 0 && index > 0 ? [newId(index - 1)] : []);
      const other = index % 5 === 0 ? (index + 1) % size : index % 5 === 1 ? index - 1 : null;
      assert.deepEqual(ticket.relatedIds, other === null ? [] : [newId(other)]);
      assert.deepEqual(
        ticket.externalReferences.map((r: any) => r.issueKey),
        index % 2 ? [] : [String(index)],
      );
      // Newest first.
      const [entry] = (await ok(api.get(`/api/tickets/${ticket.id}/activity`))).activity;
      assert.deepEqual(
        [entry.id, entry.action, entry.details],
        [
          lastEntry.id + 1 + index,
          "ticket_created",
          { importedFromTicketId: sourceId(index), title: `ticket ${index}` },
        ],
      );
    }
  });

  test("accepts bodies above the default 1 MiB request limit", async () => {
    const body = "x".repeat(150_000);
    const tickets = Array.from({ length: 10 }, (_, index) => ({
      id: index + 1,
      laneId: 1,
      title: `big ${index}`,
      bodyMarkdown: body,
    }));
    const imported = await ok(
      api.post("/api/boards/import", {
        board: { name: "Big" },
        lanes: [{ id: 1, name: "l" }],
        tickets,
      }),
      201,
    );
    assert.equal(imported.tickets.length, 10);
  });

  test(`a body announced beyond ${IMPORT_STREAM_BYTE_LIMIT} bytes is 413, one with an Idempotency-Key beyond ${IMPORT_BODY_LIMIT}`, async () => {
    // docs/api.md, "Limits": the body is read as it arrives, so only the size of the board
    // bounds it; a keyed import is read whole (its key is checked against the whole body).
    for (const [length, key] of [
      [IMPORT_STREAM_BYTE_LIMIT + 1, undefined],
      [IMPORT_BODY_LIMIT + 1, "a-key"],
    ] as const) {
      const response = await rawRequest(api.url, {
        method: "POST",
        path: "/api/boards/import",
        headers: {
          "content-type": "application/json",
          "content-length": String(length),
          ...(key ? { "idempotency-key": key } : {}),
        },
      });
      assert.equal(response.status, 413);
      assert.deepEqual(response.body, { error: "request body is too large" });
    }
  });
});

describe("import refuses any violation, naming the element, and creates nothing", () => {
  const lanes = [{ id: 1, name: "todo" }];

  test("a large document broken at its last ticket creates nothing", async () => {
    const tickets = Array.from({ length: 5000 }, (_, index) => ({
      id: index + 1,
      laneId: 1,
      title: `ticket ${index}`,
      bodyMarkdown: `body of ${index}`,
      comments: [{ bodyMarkdown: `comment on ${index}` }],
      blockerIds: index > 0 ? [index] : [],
    }));
    const before = await api.get("/api/boards");
    tickets[4999] = { ...(tickets[4999] as (typeof tickets)[number]), title: "   " };
    assertError(
      await api.post("/api/boards/import", { board: { name: "Huge" }, lanes, tickets }),
      400,
      "tickets[4999].title must not be empty",
    );
    (tickets[4999] as any).title = "fine";
    (tickets[4999] as any).priority = 9;
    assertError(
      await api.post("/api/boards/import", { board: { name: "Huge" }, lanes, tickets }),
      400,
      "tickets[4999].priority must be one of 1, 2, 3, 4",
    );
    assert.deepEqual((await api.get("/api/boards")).body, before.body);
  });
});
