import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertError, ok } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { release, templateRequests } from "./templates-setup.js";

// Creating templates (docs/api.md, "Templates"): the answer and every validation rule.

const api = await startTestServer();
const { board, createTemplate, templatesOf } = templateRequests(api);

describe("POST /api/boards/{boardId}/templates", () => {
  test("answers 201 Template: trimmed name and titles, defaults filled, variables", async () => {
    const fixture = await board();
    const created = await ok(
      createTemplate(fixture.boardId, { ...release, name: " Release " }),
      201,
    );
    assert.deepEqual(Object.keys(created).sort(), [
      "boardId",
      "createdAt",
      "description",
      "id",
      "name",
      "tickets",
      "updatedAt",
      "variables",
    ]);
    assert.equal(created.boardId, fixture.boardId);
    assert.equal(created.name, "Release");
    assert.equal(created.description, "Steps of a {{ignored}} release");
    assert.equal(created.createdAt, created.updatedAt);
    assert.deepEqual(created.tickets, [
      {
        key: "prep",
        title: "Prepare {{version}}",
        bodyMarkdown: "For {{team}}",
        laneName: null,
        priority: 3,
        tagNames: [],
        parentKey: null,
        blockerKeys: [],
      },
      {
        key: "ship",
        title: "Ship {{version}}",
        bodyMarkdown: "",
        laneName: "doing",
        priority: 2,
        tagNames: ["release"],
        parentKey: null,
        blockerKeys: [],
      },
    ]);
    // Titles and bodies, not the description; each name once.
    assert.deepEqual(created.variables, ["team", "version"]);
    assert.deepEqual(await ok(api.get(`/api/templates/${created.id}`)), created);
    assert.deepEqual(await templatesOf(fixture.boardId), [created]);
  });

  test("variables: {{name}} with a letter or _ first, up to 50 characters, sorted by code point", async () => {
    const fixture = await board();
    const long = `a${"b".repeat(49)}`;
    const created = await ok(
      createTemplate(fixture.boardId, {
        name: "Vars",
        tickets: [
          { key: "a", title: "{{beta}} {{Zeta}} {{_x}} {{alpha}} {{beta}}" },
          {
            key: "b",
            title: "literal {{ spaced }} {{1x}} {{x-y}} {x} {{}}",
            bodyMarkdown: `{{${long}}} {{${long}b}} {{{wrapped}}} {{Zeta}} {{ä}}`,
          },
        ],
      }),
      201,
    );
    assert.deepEqual(created.variables, ["Zeta", "_x", long, "alpha", "beta", "wrapped"]);
  });

  test("a name the board has, ignoring case, is 409; another board may use it", async () => {
    const fixture = await board();
    await ok(createTemplate(fixture.boardId, release), 201);
    assertError(
      await createTemplate(fixture.boardId, { ...release, name: " RELEASE " }),
      409,
      "a template named Release already exists on this board",
    );
    assert.equal((await templatesOf(fixture.boardId)).length, 1);
    const other = await board();
    await ok(createTemplate(other.boardId, release), 201);
  });

  test("404 for an unknown board, 400 for a malformed id", async () => {
    assertError(await createTemplate(999_999, release), 404, "board not found");
    assertError(await createTemplate(0, release), 400, /boardId/);
  });

  const one = (ticket: Record<string, unknown>) => ({ name: "T", tickets: [ticket] });
  const two = (first: Record<string, unknown>, second: Record<string, unknown>) => ({
    name: "T",
    tickets: [first, second],
  });
  const invalid: Array<[string, unknown, string | RegExp]> = [
    ["a missing name", { tickets: [{ key: "a", title: "x" }] }, "name is required"],
    ["a blank name", { name: "  ", tickets: [{ key: "a", title: "x" }] }, "name must not be empty"],
    [
      "a name over 200 characters",
      { name: "n".repeat(201), tickets: [{ key: "a", title: "x" }] },
      "name must be at most 200 characters",
    ],
    [
      "a description over 10,000 characters",
      { name: "T", description: "d".repeat(10_001), tickets: [{ key: "a", title: "x" }] },
      "description must be at most 10000 characters",
    ],
    [
      "a null description",
      { name: "T", description: null, tickets: [{ key: "a", title: "x" }] },
      /description/,
    ],
    ["missing tickets", { name: "T" }, "tickets is required"],
    ["no tickets", { name: "T", tickets: [] }, "tickets must not be empty"],
    [
      "201 tickets",
      {
        name: "T",
        tickets: Array.from({ length: 201 }, (_, index) => ({ key: `k${index}`, title: "x" })),
      },
      "tickets must have at most 200 items",
    ],
    ["a missing key", one({ title: "x" }), "tickets[0].key is required"],
    ["a blank key", one({ key: " ", title: "x" }), "tickets[0].key must not be empty"],
    [
      "a key over 50 characters",
      one({ key: "k".repeat(51), title: "x" }),
      "tickets[0].key must be at most 50 characters",
    ],
    [
      "a repeated key",
      two({ key: "a", title: "x" }, { key: " a ", title: "y" }),
      "tickets[1].key repeats the key of tickets[0]",
    ],
    ["a missing title", one({ key: "a" }), "tickets[0].title is required"],
    ["a blank title", one({ key: "a", title: "  " }), "tickets[0].title must not be empty"],
    [
      "a title over 500 characters",
      one({ key: "a", title: "t".repeat(501) }),
      "tickets[0].title must be at most 500 characters",
    ],
    [
      "a body over 200,000 characters",
      one({ key: "a", title: "x", bodyMarkdown: "b".repeat(200_001) }),
      /tickets\[0\]\.bodyMarkdown must be at most 200000 characters/,
    ],
    [
      "a lane the board lacks",
      one({ key: "a", title: "x", laneName: "review" }),
      'tickets[0].laneName "review" is not a lane of this board',
    ],
    [
      "a lane named in another case",
      one({ key: "a", title: "x", laneName: "DOING" }),
      'tickets[0].laneName "DOING" is not a lane of this board',
    ],
    ["a blank lane", one({ key: "a", title: "x", laneName: " " }), /tickets\[0\]\.laneName/],
    [
      "priority 5",
      one({ key: "a", title: "x", priority: 5 }),
      "tickets[0].priority must be one of 1, 2, 3, 4",
    ],
    ["priority as text", one({ key: "a", title: "x", priority: "2" }), /tickets\[0\]\.priority/],
    [
      "a blank tag name",
      one({ key: "a", title: "x", tagNames: ["ok", " "] }),
      "tickets[0].tagNames[1] must not be empty",
    ],
    [
      "a parent key the template lacks",
      one({ key: "a", title: "x", parentKey: "b" }),
      "tickets[0].parentKey is not a key of this template",
    ],
    [
      "a ticket its own parent",
      one({ key: "a", title: "x", parentKey: "a" }),
      "tickets[0].parentKey: a ticket cannot be its own parent",
    ],
    [
      "a blocker key the template lacks",
      one({ key: "a", title: "x", blockerKeys: ["zz"] }),
      "tickets[0].blockerKeys[0] is not a key of this template",
    ],
    [
      "a ticket blocking itself",
      two({ key: "a", title: "x" }, { key: "b", title: "y", blockerKeys: ["a", "b"] }),
      "tickets[1].blockerKeys[1]: a ticket cannot block itself",
    ],
    [
      "blocker keys that are not strings",
      one({ key: "a", title: "x", blockerKeys: [1] }),
      /tickets\[0\]\.blockerKeys\[0\]/,
    ],
  ];
  for (const [name, body, message] of invalid) {
    test(`400 for ${name}, and nothing is written`, async () => {
      const fixture = await board();
      assertError(await createTemplate(fixture.boardId, body), 400, message);
      assert.deepEqual(await templatesOf(fixture.boardId), []);
    });
  }

  test("parents are one level deep, either way round", async () => {
    const fixture = await board();
    // c's parent b has a parent itself (b is both child and parent).
    assertError(
      await createTemplate(fixture.boardId, {
        name: "Nested",
        tickets: [
          { key: "a", title: "a" },
          { key: "b", title: "b", parentKey: "a" },
          { key: "c", title: "c", parentKey: "b" },
        ],
      }),
      400,
      "tickets[2].parentKey names a ticket that has a parent; parents cannot be nested",
    );
    assertError(
      await createTemplate(fixture.boardId, {
        name: "Nested the other way",
        tickets: [
          { key: "c", title: "c", parentKey: "b" },
          { key: "b", title: "b", parentKey: "a" },
          { key: "a", title: "a" },
        ],
      }),
      400,
      "tickets[0].parentKey names a ticket that has a parent; parents cannot be nested",
    );
    assert.deepEqual(await templatesOf(fixture.boardId), []);
  });

  test("blockers form no cycle of any length", async () => {
    const fixture = await board();
    assertError(
      await createTemplate(fixture.boardId, {
        name: "Pair",
        tickets: [
          { key: "a", title: "a", blockerKeys: ["b"] },
          { key: "b", title: "b", blockerKeys: ["a"] },
        ],
      }),
      400,
      /blockerKeys\[0\]: blocker would create a cycle/,
    );
    assertError(
      await createTemplate(fixture.boardId, {
        name: "Triangle",
        tickets: [
          { key: "a", title: "a", blockerKeys: ["c"] },
          { key: "b", title: "b", blockerKeys: ["a"] },
          { key: "c", title: "c", blockerKeys: ["x", "b"] },
          { key: "x", title: "x" },
        ],
      }),
      400,
      /blocker would create a cycle/,
    );
    assert.deepEqual(await templatesOf(fixture.boardId), []);
    // A diamond is no cycle.
    await ok(
      createTemplate(fixture.boardId, {
        name: "Diamond",
        tickets: [
          { key: "a", title: "a" },
          { key: "b", title: "b", blockerKeys: ["a"] },
          { key: "c", title: "c", blockerKeys: ["a"] },
          { key: "d", title: "d", blockerKeys: ["b", "c", "b"] },
        ],
      }),
      201,
    );
  });

  test("repeated blocker keys and tag names (ignoring case) collapse; null lane and parent are defaults", async () => {
    const fixture = await board();
    const created = await ok(
      createTemplate(fixture.boardId, {
        name: "Collapse",
        tickets: [
          { key: "a", title: "a", laneName: null, parentKey: null },
          {
            key: "b",
            title: "b",
            tagNames: [" Bug ", "bug", "ops"],
            blockerKeys: ["a", " a "],
            laneName: " done ",
          },
        ],
      }),
      201,
    );
    assert.deepEqual(created.tickets[0].laneName, null);
    assert.deepEqual(created.tickets[0].parentKey, null);
    assert.deepEqual(created.tickets[1].tagNames, ["Bug", "ops"]);
    assert.deepEqual(created.tickets[1].blockerKeys, ["a"]);
    assert.equal(created.tickets[1].laneName, "done");
  });
});
