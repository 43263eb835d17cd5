import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fastJsonStringify from "fast-json-stringify";
import { BoardExport } from "../../src/http/schemas/board-export.js";
import { namedSchemas } from "../../src/http/schemas/index.js";
import { assertError, ok } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardDocuments } from "./board-documents.js";

// GET /api/boards/{id}/export (docs/api.md, "Export and import"; docs/export-format.md).

const api = await startTestServer();
const { richBoard } = boardDocuments(api);

describe("export", () => {
  test("answers the whole board as a tack.board document in board order", async () => {
    const boardId = await richBoard();
    const document = await ok(api.get(`/api/boards/${boardId}/export`));
    assert.equal(document.format, "tack.board");
    assert.equal(document.version, 1);
    assert.equal(document.board.id, boardId);
    assert.deepEqual(
      document.lanes.map((lane: any) => lane.name),
      ["doing", "backlog", "done"],
    );
    assert.deepEqual(
      document.tags.map((tag: any) => [tag.name, tag.color]),
      [
        ["Bug", "#f00"],
        ["idea", ""],
        ["ops", "#12abEF"],
      ],
    );
    // Lane position, then active before archived, then position: the archived ticket is last.
    assert.deepEqual(
      document.tickets.map((ticket: any) => ticket.title),
      ["Blocker", "Blocked", "Child task", "Parent epic", "Unicode ✓ título", "Archived one"],
    );
    const parent = document.tickets[3];
    assert.deepEqual(Object.keys(parent).sort(), [
      "asks",
      "blockerIds",
      "boardId",
      "bodyMarkdown",
      "comments",
      "createdAt",
      "events",
      "externalReferences",
      "hasChildren",
      "id",
      "isArchived",
      "isCompleted",
      "isResolved",
      "laneId",
      "notBefore",
      "parentTicketId",
      "position",
      "priority",
      "relatedIds",
      "tagReasons",
      "tags",
      "title",
      "updatedAt",
    ]);
    assert.equal(parent.hasChildren, true);
    assert.deepEqual(
      parent.comments.map((comment: any) => comment.bodyMarkdown),
      ["see [docs](https://example.com)", "first, edited"],
    );
    assert.deepEqual(Object.keys(parent.comments[0]).sort(), [
      "bodyHtml",
      "bodyMarkdown",
      "createdAt",
      "id",
      "ticketId",
    ]);
    assert.equal(parent.tagReasons.length, 2, "one entry per attached tag");
    assert.equal(document.tickets[5].isArchived, true);
    assert.ok(!("remote" in parent), "remote tracking is omitted");
    // The board's templates by name ignoring case, as GET lists them, without ids.
    const listed = await ok(api.get(`/api/boards/${boardId}/templates`));
    assert.deepEqual(
      document.templates,
      listed.templates.map(({ id: _id, boardId: _board, ...template }: any) => template),
    );
    assert.deepEqual(
      document.templates.map((template: any) => template.name),
      ["Bug triage", "release"],
    );
    assert.deepEqual(Object.keys(document.templates[0]).sort(), [
      "createdAt",
      "description",
      "name",
      "tickets",
      "updatedAt",
      "variables",
    ]);
  });

  test("holds exactly the fields its schema lists, with the schema's types", async () => {
    // The export is serialized with JSON.stringify, not through its response schema
    // (http/document-serialization.ts). Passing it through the schema serializer drops any field
    // the schema lacks and coerces any wrong type, so it must come out unchanged.
    const throughSchema = fastJsonStringify(BoardExport, {
      schema: Object.fromEntries(namedSchemas.map((schema) => [schema.$id, schema])),
    });
    const document = await ok(api.get(`/api/boards/${await richBoard()}/export`));
    assert.ok(document.tickets.some((ticket: any) => ticket.events.length > 0));
    assert.deepEqual(JSON.parse(throughSchema(document)), document);
  });

  test("404 for an unknown board, 400 for a malformed id", async () => {
    assertError(await api.get("/api/boards/999999/export"), 404, "board not found");
    assertError(await api.get("/api/boards/x/export"), 400);
  });
});
