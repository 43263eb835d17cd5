import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ok } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardDocuments, canonical } from "./board-documents.js";

// POST /api/boards/import of exported and hand-written documents: what the new board holds.

const api = await startTestServer();
const { richBoard } = boardDocuments(api);

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
});
