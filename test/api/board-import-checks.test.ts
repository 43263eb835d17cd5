import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardDocuments } from "./board-documents.js";

// POST /api/boards/import refuses a document breaking any rule with a 400 naming the element.

const api = await startTestServer();
const { boardCount } = boardDocuments(api);

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
});
