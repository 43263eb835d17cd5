import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fastJsonStringify from "fast-json-stringify";
import { IMPORT_BODY_LIMIT, IMPORT_STREAM_BYTE_LIMIT } from "../../src/http/request-limits.js";
import { BoardExport } from "../../src/http/schemas/board-export.js";
import { namedSchemas } from "../../src/http/schemas/index.js";
import { ROWS_PER_STATEMENT } from "../../src/storage/bulk-insert.js";
import { assertError, createTag } from "../helpers/factories.js";
import { rawRequest } from "../helpers/raw-http.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, newTicket, patchTicket } from "../helpers/tickets.js";

const api = await startTestServer();

const ok = async <T = any>(
  response: Promise<{ status: number; body: T; text: string }>,
  status = 200,
) => {
  const result = await response;
  assert.equal(result.status, status, result.text);
  return result.body;
};

const boardCount = async () => (await api.get("/api/boards")).body.boards.length;

/** A board that uses every exportable feature, built through the API. */
async function richBoard() {
  const board = await boardWithLanes(api, "Rich board", ["backlog", "doing", "done"]);
  const [backlog, doing, done] = board.laneIds as [number, number, number];
  // Lane order differs from lane id order.
  await ok(
    api.post(`/api/boards/${board.boardId}/lanes/reorder`, { laneIds: [doing, backlog, done] }),
  );
  const bug = await createTag(api, board.boardId, "Bug", "#f00");
  const idea = await createTag(api, board.boardId, "idea", "");
  const ops = await createTag(api, board.boardId, "ops", "#12abEF");

  const parent = await newTicket(api, board.boardId, backlog, "Parent epic", {
    bodyMarkdown: "# Plan\n\n- [ ] one\n- [x] two\n\n| a | b |\n|--:|:-:|\n| 1 | 2 |",
    priority: 4,
    tagIds: [bug.id, ops.id],
  });
  const child = await newTicket(api, board.boardId, backlog, "Child task", {
    parentTicketId: parent.id,
    priority: 1,
  });
  const blocker = await newTicket(api, board.boardId, doing, "Blocker", { isResolved: true });
  const blocked = await newTicket(api, board.boardId, doing, "Blocked", {
    blockerIds: [blocker.id, child.id],
    relatedIds: [parent.id],
    priority: 3,
  });
  const archived = await newTicket(api, board.boardId, done, "Archived one", {
    bodyMarkdown: "old **stuff**",
    tagIds: [idea.id],
  });
  await patchTicket(api, archived.id, { isArchived: true });
  const last = await newTicket(api, board.boardId, done, "Unicode ✓ título", {
    relatedIds: [blocked.id],
  });
  // Put `last` before the archived ticket's old slot and `child` first in its lane.
  await ok(api.patch(`/api/tickets/${child.id}/position`, { laneId: backlog, position: 0 }));
  await ok(api.patch(`/api/tickets/${last.id}/position`, { laneId: done, position: 0 }));

  const first = await ok(
    api.post(`/api/tickets/${parent.id}/comments`, { bodyMarkdown: "first" }),
    201,
  );
  const second = await ok(
    api.post(`/api/tickets/${parent.id}/comments`, {
      bodyMarkdown: "see [docs](https://example.com)",
    }),
    201,
  );
  await ok(api.patch(`/api/comments/${first.id}`, { bodyMarkdown: "first, edited" }));
  await ok(
    api.post(`/api/tickets/${archived.id}/comments`, { bodyMarkdown: "on an archived ticket" }),
    201,
  );

  await ok(
    api.post(`/api/tickets/${parent.id}/tags/${bug.id}`, {
      reason: "crashes on start",
      details: { source: "ci", runs: [1, 2] },
      reasonCommentId: second.id,
    }),
  );
  await ok(api.post(`/api/tickets/${blocked.id}/tags/${idea.id}`, { reason: "maybe later" }));

  await ok(
    api.put(`/api/tickets/${parent.id}/external-references/source`, {
      provider: "github",
      instanceUrl: "https://github.com",
      projectKey: "acme/app",
      issueKey: "12",
      displayRef: "acme/app#12",
      url: "https://github.com/acme/app/issues/12",
      title: "Crash",
    }),
  );
  await ok(
    api.put(`/api/tickets/${parent.id}/external-references/doc`, {
      provider: "wiki",
      instanceUrl: "",
      projectKey: "",
      issueKey: "",
      displayRef: "Design",
      url: "https://wiki.example.com/design",
      resourceType: "page",
    }),
  );

  await ok(
    api.post(`/api/tickets/${blocked.id}/events`, {
      source: "agent",
      kind: "review",
      title: "Reviewed",
      summary: "2 findings",
      severity: "warning",
      icon: "🔎",
      data: { findings: [{ line: 3, text: "nit" }] },
    }),
    201,
  );
  await ok(
    api.post(`/api/tickets/${blocked.id}/events`, { source: "ci", kind: "build", title: "Green" }),
    201,
  );
  for (const name of ["release", "Bug triage"]) {
    await ok(
      api.post(`/api/boards/${board.boardId}/templates`, {
        name,
        description: "How we **{{do}}** it",
        tickets: [
          { key: "check", title: "Check {{version}}", tagNames: ["Bug", "new tag"] },
          {
            key: "ship",
            title: "Ship",
            bodyMarkdown: "Body of {{version}}",
            laneName: "done",
            priority: 4,
            parentKey: "check",
            blockerKeys: ["check"],
          },
        ],
      }),
      201,
    );
  }
  return board.boardId;
}

/**
 * The export with every id replaced by a position, so two exports of equal boards compare equal
 * whatever ids the database gave: lanes and tickets by index, tags by name, comments by index.
 */
function canonical(document: any) {
  const laneIndex = new Map(document.lanes.map((lane: any, index: number) => [lane.id, index]));
  const tagName = new Map(document.tags.map((tag: any) => [tag.id, tag.name]));
  const ticketIndex = new Map(
    document.tickets.map((ticket: any, index: number) => [ticket.id, index]),
  );
  const ticketRef = (id: number | null) => (id === null ? null : ticketIndex.get(id));
  return {
    format: document.format,
    version: document.version,
    board: { name: document.board.name },
    lanes: document.lanes.map((lane: any) => ({ name: lane.name, position: lane.position })),
    tags: document.tags.map((tag: any) => ({ name: tag.name, color: tag.color })),
    // Templates carry no ids: they compare as they are, times included.
    templates: document.templates,
    tickets: document.tickets.map((ticket: any) => {
      const commentIndex = new Map(
        ticket.comments.map((comment: any, index: number) => [comment.id, index]),
      );
      const {
        id,
        boardId,
        laneId,
        parentTicketId,
        tags,
        comments,
        blockerIds,
        relatedIds,
        externalReferences,
        tagReasons,
        events,
        ...own
      } = ticket;
      return {
        ...own,
        lane: laneIndex.get(laneId),
        parent: ticketRef(parentTicketId),
        tags: tags.map((tag: any) => ({ name: tag.name, color: tag.color })),
        comments: comments.map(({ id: _id, ticketId: _ticket, ...comment }: any) => comment),
        blockers: blockerIds.map(ticketRef).sort(),
        related: relatedIds.map(ticketRef).sort(),
        externalReferences: externalReferences.map(
          ({ id: _id, ticketId: _ticket, ...reference }: any) => reference,
        ),
        tagReasons: tagReasons.map(({ tagId, reasonCommentId, ...reason }: any) => ({
          ...reason,
          tag: tagName.get(tagId),
          reasonComment: reasonCommentId === null ? null : commentIndex.get(reasonCommentId),
        })),
        events: events.map(({ id: _id, ticketId: _ticket, ...event }: any) => event),
      };
    }),
  };
}

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

describe("import", () => {
  test("round trip: export, import, export again gives the same board, every field", async () => {
    const boardId = await richBoard();
    const exported = await ok(api.get(`/api/boards/${boardId}/export`));
    const imported = await ok(api.post("/api/boards/import", exported), 201);
    assert.notEqual(imported.board.id, boardId, "always a new board");
    const again = await ok(api.get(`/api/boards/${imported.board.id}/export`));
    assert.deepEqual(canonical(again), canonical(exported));

    // The answer is the BoardDetail of the new board, with full tickets.
    assert.deepEqual(Object.keys(imported).sort(), ["board", "lanes", "tags", "tickets"]);
    assert.deepEqual(imported.lanes, again.lanes);
    assert.deepEqual(imported.tags, again.tags);
    assert.deepEqual(
      imported.tickets.map((t: any) => t.id),
      again.tickets.map((t: any) => t.id),
    );
    const original = (await api.get(`/api/tickets/${exported.tickets[3].id}`)).body;
    const copy = imported.tickets[3];
    assert.equal(copy.bodyHtml, original.bodyHtml);
    assert.deepEqual(
      copy.comments.map((c: any) => [c.bodyHtml, c.createdAt, c.sync.status]),
      original.comments.map((c: any) => [c.bodyHtml, c.createdAt, "local_only"]),
    );
    assert.equal(copy.ref, `Rich board#${copy.id}`);
  });

  test("imported references and tags are searchable and filterable like local ones", async () => {
    const boardId = await richBoard();
    const exported = await ok(api.get(`/api/boards/${boardId}/export`));
    const { board } = await ok(api.post("/api/boards/import", exported), 201);
    const titles = async (query: string) =>
      (await ok(api.get(`/api/boards/${board.id}/tickets?archived=all&${query}`))).tickets.map(
        (ticket: any) => ticket.title,
      );
    assert.deepEqual(await titles("q=gh%2312"), ["Parent epic"]);
    assert.deepEqual(await titles("q=wiki.example"), ["Parent epic"]);
    assert.deepEqual(await titles("q=t%C3%8DTULO"), ["Unicode ✓ título"]);
    assert.deepEqual(await titles("tag=IDEA"), ["Blocked", "Archived one"]);
  });

  test("the 201 answer equals what GET answers afterwards, every ticket and field", async () => {
    // The import builds its answer from what it wrote instead of reading the board back; this
    // compares it with the read side on documents that exercise every order the views apply.
    const at = (minute: number) => `2024-03-01T10:${String(minute).padStart(2, "0")}:00.000Z`;
    const reference = (kind: string, issueKey: string) => ({
      kind,
      provider: "github",
      instanceUrl: " https://github.com ",
      projectKey: "acme/app",
      issueKey,
      displayRef: `acme/app#${issueKey}`,
      url: `https://github.com/acme/app/issues/${issueKey}`,
      title: kind === "doc" ? "  " : `Issue ${issueKey}`,
    });
    const handMade = {
      board: { name: "Answer check" },
      lanes: [
        { id: 30, name: "later" },
        { id: 10, name: "now" },
        { id: 20, name: "done" },
      ],
      tags: [
        { id: 1, name: "beta" },
        { id: 2, name: "Alpha", color: "#00ff00" },
        { id: 3, name: "😀 smile" },
        { id: 4, name: "ｆullwidth" },
        { id: 5, name: "Ωmega" },
      ],
      tickets: [
        {
          id: 9,
          laneId: 10,
          title: "child listed first",
          parentTicketId: 12,
          priority: 1,
          tags: [{ name: "ｆULLWIDTH" }, { name: "😀 SMILE" }, { id: 2 }],
          comments: [
            { id: 1, bodyMarkdown: "  tied b  ", createdAt: at(5) },
            { id: 2, bodyMarkdown: "older", createdAt: at(1) },
            { id: 3, bodyMarkdown: "tied a", createdAt: at(5) },
            { id: 4, bodyMarkdown: "newest *of all*", createdAt: at(9) },
            { id: 5, bodyMarkdown: "no time given" },
          ],
          externalReferences: [reference("source", "7"), reference("Zeta", "8")],
          blockerIds: [12, 3],
          relatedIds: [3],
        },
        {
          id: 12,
          laneId: 10,
          title: "parent after its child",
          bodyMarkdown: "# Parent\n\n- [x] done\n\nhttps://example.com",
          priority: 4,
          position: 0,
          relatedIds: [9],
          externalReferences: [reference("doc", "1"), reference("alpha", "2")],
          tagReasons: [{ tagId: 5, reason: " why ", details: { n: 1 } }],
        },
        { id: 3, laneId: 30, title: "archived blocker", isArchived: true, isCompleted: true },
        { id: 4, laneId: 30, title: "same position", position: 2, priority: 3 },
        { id: 2, laneId: 30, title: "same position too", position: 2, blockerIds: [4] },
        { id: 7, laneId: 20, title: "blocked by many", blockerIds: [2, 4, 12], relatedIds: [4] },
        { id: 8, laneId: 20, title: "child of 12 as well", parentTicketId: 12, priority: 4 },
      ],
    };
    const richExport = await ok(api.get(`/api/boards/${await richBoard()}/export`));
    for (const document of [handMade, richExport]) {
      const imported = await ok(api.post("/api/boards/import", document), 201);
      const boardId = imported.board.id;
      const { tickets, ...shell } = imported;
      assert.deepEqual(shell, await ok(api.get(`/api/boards/${boardId}`)));
      const exported = await ok(api.get(`/api/boards/${boardId}/export`));
      assert.deepEqual(
        tickets.map((ticket: any) => ticket.id),
        exported.tickets.map((ticket: any) => ticket.id),
        "board order",
      );
      for (const ticket of tickets) {
        assert.deepEqual(ticket, await ok(api.get(`/api/tickets/${ticket.id}`)), ticket.title);
      }
    }
  });

  test("accepts a minimal document without format/version and applies creation defaults", async () => {
    const imported = await ok(
      api.post("/api/boards/import", {
        board: { name: " Minimal " },
        lanes: [
          { id: 10, name: "todo" },
          { id: 20, name: "done" },
        ],
        tags: [{ id: 5, name: "Red" }],
        tickets: [
          { id: 7, laneId: 20, title: "b", isCompleted: true },
          { id: 3, laneId: 10, title: "a", tags: [{ name: "red" }] },
          { id: 9, laneId: 10, title: "c", position: 4, isResolved: false, isCompleted: true },
          { id: 4, laneId: 10, title: "d", blockerIds: [3], relatedIds: [7, 7] },
        ],
      }),
      201,
    );
    assert.equal(imported.board.name, "Minimal");
    assert.deepEqual(
      imported.lanes.map((lane: any) => [lane.name, lane.position]),
      [
        ["todo", 0],
        ["done", 1],
      ],
    );
    assert.deepEqual(
      imported.tags.map((tag: any) => [tag.name, tag.color]),
      [["Red", "#6b7280"]],
    );
    const byTitle = new Map(imported.tickets.map((ticket: any) => [ticket.title, ticket]));
    const [a, b, c, d] = ["a", "b", "c", "d"].map((title) => byTitle.get(title) as any);
    assert.equal(a.priority, 2);
    assert.equal(a.bodyMarkdown, "");
    assert.equal(a.isArchived, false);
    assert.deepEqual(
      a.tags.map((tag: any) => tag.name),
      ["Red"],
    );
    assert.equal(b.isResolved, true, "isCompleted is the alias of isResolved");
    assert.equal(c.isResolved, false, "isResolved wins over isCompleted");
    assert.equal(c.position, 4, "a given position is kept");
    assert.deepEqual(
      [a.position, d.position],
      [5, 6],
      "missing positions follow, in document order",
    );
    assert.deepEqual(d.blockerIds, [a.id]);
    assert.deepEqual(d.relatedIds, [b.id]);
    assert.deepEqual(b.relatedIds, [d.id], "related links are symmetric");
    // New ids follow the order of the document's ids.
    assert.ok(a.id < d.id && d.id < b.id && b.id < c.id);
    // A document without templates makes a board without templates.
    assert.deepEqual(await ok(api.get(`/api/boards/${imported.board.id}/templates`)), {
      templates: [],
    });
  });

  test("templates of a document written by hand: defaults filled, times given or now, usable", async () => {
    const imported = await ok(
      api.post("/api/boards/import", {
        board: { name: "Templated" },
        lanes: [
          { id: 1, name: "todo" },
          { id: 2, name: "done" },
        ],
        templates: [
          {
            name: " Weekly ",
            tickets: [{ key: "a", title: " Report {{week}} ", laneName: "done" }],
            createdAt: "2024-01-02T03:04:05.000Z",
          },
          { name: "bare", description: "d", tickets: [{ key: "x", title: "X" }] },
        ],
      }),
      201,
    );
    const { templates } = await ok(api.get(`/api/boards/${imported.board.id}/templates`));
    assert.deepEqual(
      templates.map((template: any) => [template.name, template.description, template.variables]),
      [
        ["bare", "d", []],
        ["Weekly", "", ["week"]],
      ],
    );
    const weekly = templates[1];
    assert.equal(weekly.createdAt, "2024-01-02T03:04:05.000Z");
    assert.equal(weekly.updatedAt, weekly.createdAt, "updatedAt defaults to createdAt");
    assert.ok(templates[0].createdAt > "2025", "a template without times gets the import's");
    assert.deepEqual(weekly.tickets, [
      {
        key: "a",
        title: "Report {{week}}",
        bodyMarkdown: "",
        laneName: "done",
        priority: 2,
        tagNames: [],
        parentKey: null,
        blockerKeys: [],
      },
    ]);
    const made = await ok(
      api.post(`/api/templates/${weekly.id}/instantiate`, { values: { week: "12" } }),
      201,
    );
    assert.equal(made.tickets[0].title, "Report 12");
    assert.equal(made.tickets[0].laneId, imported.lanes[1].id);
  });

  test("keeps the order of comments and events, including ones with equal timestamps", async () => {
    const at = "2024-05-01T10:00:00.000Z";
    const document = {
      board: { name: "Ties" },
      lanes: [{ id: 1, name: "todo" }],
      tickets: [
        {
          id: 1,
          laneId: 1,
          title: "tied",
          comments: ["c", "b", "a"].map((bodyMarkdown) => ({ bodyMarkdown, createdAt: at })),
          events: ["z", "y"].map((title) => ({ source: "s", kind: "k", title, createdAt: at })),
        },
      ],
    };
    const imported = await ok(api.post("/api/boards/import", document), 201);
    const exported = await ok(api.get(`/api/boards/${imported.board.id}/export`));
    const [ticket] = exported.tickets;
    assert.deepEqual(
      ticket.comments.map((c: any) => c.bodyMarkdown),
      ["c", "b", "a"],
    );
    assert.deepEqual(
      ticket.events.map((e: any) => e.title),
      ["z", "y"],
    );
    const again = await ok(api.post("/api/boards/import", exported), 201);
    const comments = (await ok(api.get(`/api/tickets/${again.tickets[0].id}/comments`))).comments;
    assert.deepEqual(
      comments.map((c: any) => [c.bodyMarkdown, c.createdAt]),
      [
        ["c", at],
        ["b", at],
        ["a", at],
      ],
    );
    const events = (await ok(api.get(`/api/tickets/${again.tickets[0].id}/events`))).events;
    assert.deepEqual(
      events.map((e: any) => e.title),
      ["z", "y"],
    );
  });

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
  const valid = (tickets: unknown[], extra: Record<string, unknown> = {}) => ({
    board: { name: "Refused" },
    lanes,
    tickets,
    ...extra,
  });
  const cases: Array<[string, unknown, string]> = [
    [
      "priority out of range",
      valid([
        { id: 1, laneId: 1, title: "a" },
        { id: 2, laneId: 1, title: "b", priority: 5 },
      ]),
      "tickets[1].priority must be one of 1, 2, 3, 4",
    ],
    ["missing title", valid([{ id: 1, laneId: 1 }]), "tickets[0].title is required"],
    [
      "blank title",
      valid([{ id: 1, laneId: 1, title: "  " }]),
      "tickets[0].title must not be empty",
    ],
    ["string id", valid([{ id: "1", laneId: 1, title: "a" }]), "tickets[0].id must be an integer"],
    [
      "unknown lane",
      valid([{ id: 1, laneId: 2, title: "a" }]),
      "tickets[0].laneId is not a lane of this board",
    ],
    [
      "repeated ticket id",
      valid([
        { id: 1, laneId: 1, title: "a" },
        { id: 1, laneId: 1, title: "b" },
      ]),
      "tickets[1].id repeats the id of tickets[0]",
    ],
    [
      "unknown parent",
      valid([{ id: 1, laneId: 1, title: "a", parentTicketId: 9 }]),
      "tickets[0].parentTicketId is not a ticket of this board",
    ],
    [
      "nested parents",
      valid([
        { id: 1, laneId: 1, title: "a" },
        { id: 2, laneId: 1, title: "b", parentTicketId: 1 },
        { id: 3, laneId: 1, title: "c", parentTicketId: 2 },
      ]),
      "tickets[2].parentTicketId is a child ticket; parents cannot be nested",
    ],
    [
      "self parent",
      valid([{ id: 1, laneId: 1, title: "a", parentTicketId: 1 }]),
      "tickets[0].parentTicketId: a ticket cannot be its own parent",
    ],
    [
      "self blocker",
      valid([{ id: 1, laneId: 1, title: "a", blockerIds: [1] }]),
      "tickets[0].blockerIds[0]: a ticket cannot block itself",
    ],
    [
      "unknown blocker",
      valid([{ id: 1, laneId: 1, title: "a", blockerIds: [2] }]),
      "tickets[0].blockerIds[0] is not a ticket of this board",
    ],
    [
      "blocker cycle of three",
      valid([
        { id: 1, laneId: 1, title: "a", blockerIds: [2] },
        { id: 2, laneId: 1, title: "b", blockerIds: [3] },
        { id: 3, laneId: 1, title: "c", blockerIds: [1] },
      ]),
      "tickets[2].blockerIds[0]: blocker would create a cycle",
    ],
    [
      "self related",
      valid([{ id: 1, laneId: 1, title: "a", relatedIds: [1] }]),
      "tickets[0].relatedIds[0]: a ticket cannot be related to itself",
    ],
    [
      "unknown ticket tag",
      valid([{ id: 1, laneId: 1, title: "a", tags: [{ name: "nope" }] }]),
      "tickets[0].tags[0] is not a tag of this board",
    ],
    [
      "duplicate tag names",
      valid([], {
        tags: [
          { id: 1, name: "Bug" },
          { id: 2, name: " bug " },
        ],
      }),
      "tags[1].name repeats the name of tags[0]",
    ],
    [
      "bad tag color",
      valid([], { tags: [{ name: "x", color: "red" }] }),
      "tags[0].color has an invalid format",
    ],
    [
      "reason comment elsewhere",
      valid(
        [
          { id: 1, laneId: 1, title: "a", comments: [{ id: 5, bodyMarkdown: "c" }] },
          { id: 2, laneId: 1, title: "b", tagReasons: [{ tagId: 1, reasonCommentId: 5 }] },
        ],
        { tags: [{ id: 1, name: "t" }] },
      ),
      "tickets[1].tagReasons[0].reasonCommentId is not a comment of this ticket",
    ],
    [
      "blank comment",
      valid([
        { id: 1, laneId: 1, title: "a", comments: [{ bodyMarkdown: "ok" }, { bodyMarkdown: " " }] },
      ]),
      "tickets[0].comments[1].bodyMarkdown must not be empty",
    ],
    [
      "bad reference kind",
      valid([
        {
          id: 1,
          laneId: 1,
          title: "a",
          externalReferences: [
            {
              kind: "9",
              provider: "p",
              instanceUrl: "",
              projectKey: "",
              issueKey: "",
              displayRef: "d",
              url: "u",
            },
          ],
        },
      ]),
      "tickets[0].externalReferences[0].kind has an invalid format",
    ],
    [
      "blank event title",
      valid([{ id: 1, laneId: 1, title: "a", events: [{ source: "s", kind: "k", title: "" }] }]),
      "tickets[0].events[0].title must not be empty",
    ],
    [
      "bad timestamp",
      valid([{ id: 1, laneId: 1, title: "a", createdAt: "yesterday" }]),
      "tickets[0].createdAt must be a valid date-time",
    ],
    ["wrong format", valid([], { format: "other.board" }), 'format must be "tack.board"'],
    ["wrong version", valid([], { version: 2 }), "version must be 1"],
    [
      "blank lane name",
      { board: { name: "x" }, lanes: [{ id: 1, name: "" }] },
      "lanes[0].name must not be empty",
    ],
    ["missing board", { lanes }, "board is required"],
    [
      "a template lane the document lacks",
      valid([], {
        templates: [{ name: "t", tickets: [{ key: "a", title: "a", laneName: "done" }] }],
      }),
      'templates[0].tickets[0].laneName "done" is not a lane of this board',
    ],
    [
      "a template name repeated ignoring case",
      valid([], {
        templates: [
          { name: "Release", tickets: [{ key: "a", title: "a" }] },
          { name: " release", tickets: [{ key: "a", title: "a" }] },
        ],
      }),
      "templates[1].name repeats the name of templates[0]",
    ],
    [
      "a template whose blockers form a cycle",
      valid([{ id: 1, laneId: 1, title: "fine" }], {
        templates: [
          {
            name: "t",
            tickets: [
              { key: "a", title: "a", blockerKeys: ["b"] },
              { key: "b", title: "b", blockerKeys: ["a"] },
            ],
          },
        ],
      }),
      "templates[0].tickets[1].blockerKeys[0]: blocker would create a cycle",
    ],
    [
      "a template with nested parents",
      valid([], {
        templates: [
          {
            name: "t",
            tickets: [
              { key: "a", title: "a" },
              { key: "b", title: "b", parentKey: "a" },
              { key: "c", title: "c", parentKey: "b" },
            ],
          },
        ],
      }),
      "templates[0].tickets[2].parentKey names a ticket that has a parent; parents cannot be nested",
    ],
    [
      "a template without tickets",
      valid([], { templates: [{ name: "t", tickets: [] }] }),
      "templates[0].tickets must not be empty",
    ],
    [
      "a template with a blank name",
      valid([], { templates: [{ name: " ", tickets: [{ key: "a", title: "a" }] }] }),
      "templates[0].name must not be empty",
    ],
  ];
  for (const [name, document, message] of cases) {
    test(name, async () => {
      const before = await boardCount();
      assertError(await api.post("/api/boards/import", document), 400, message);
      assert.equal(await boardCount(), before);
    });
  }

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
