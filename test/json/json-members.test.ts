import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { JsonReadError, jsonMembers } from "../../src/json/json-members.js";

/**
 * The streaming JSON reader (src/json/json-members.ts) of the board import's body and the CLI's
 * import answer: the same pieces however the bytes are cut, and a malformed document refused
 * with a message naming it by the caller's subject. Over real HTTP: test/api/streamed-import.test.ts
 * (the import's 400s) and test/cli/board-import.test.ts (the answer read by the CLI).
 */

const reading = { subject: "the text", streamedKey: "tickets", maxDepth: 64 };

async function* chunksOf(...parts: Buffer[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield part;
}

/** `bytes` cut at each of `cuts`. */
function cutAt(bytes: Buffer, cuts: number[]): Buffer[] {
  const edges = [0, ...cuts, bytes.length];
  return edges.slice(1).map((end, i) => bytes.subarray(edges[i], end));
}

async function read(parts: Buffer[], options = reading) {
  const found = [];
  for await (const piece of jsonMembers(chunksOf(...parts), options)) found.push(piece);
  return found;
}

async function counted(parts: Buffer[], options = reading) {
  const found = [];
  for await (const piece of jsonMembers(chunksOf(...parts), {
    ...options,
    elements: "skipped" as const,
  })) {
    found.push(piece);
  }
  return found;
}

/** The error reading `parts` ends with (fails if it reads to the end). */
async function failure(parts: Buffer[], options = reading): Promise<JsonReadError> {
  try {
    await read(parts, options);
  } catch (error) {
    assert.ok(error instanceof JsonReadError, String(error));
    return error;
  }
  assert.fail(`read to the end: ${Buffer.concat(parts).toString()}`);
}

/** Each way of cutting `text` into two pieces, and into one byte per piece. */
function everyCut(text: string): Buffer[][] {
  const bytes = Buffer.from(text);
  const ways = [
    [bytes],
    cutAt(
      bytes,
      Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
    ),
  ];
  for (let cut = 1; cut < bytes.length; cut++) ways.push(cutAt(bytes, [cut]));
  return ways;
}

const source = {
  a: 'x\\"}',
  tickets: [{ b: "é" }, [], "s", 1.5e3, null, { "k\\": ["]", "}", "\\\\"] }],
  c: true,
  d: -0.5,
};
const document = JSON.stringify(source);

/** Each piece is the exact text JSON.stringify gave its value within the document. */
const member = (key: keyof typeof source) => ({
  kind: "member",
  key,
  text: JSON.stringify(source[key]),
});
const expected = [
  member("a"),
  ...source.tickets.map((ticket) => ({ kind: "element", text: JSON.stringify(ticket) })),
  member("c"),
  member("d"),
];

describe("jsonMembers", () => {
  test("gives every member and element as its exact text, the document cut at any byte", async () => {
    for (const parts of everyCut(document)) assert.deepEqual(await read(parts), expected);
  });

  test("with elements skipped, gives the same members and one piece per element, cut anywhere", async () => {
    const skipped = expected.map((piece) =>
      piece.kind === "element" ? { kind: "element" } : piece,
    );
    for (const parts of everyCut(document)) assert.deepEqual(await counted(parts), skipped);
  });

  test("a multi-byte UTF-8 character cut between chunks arrives whole", async () => {
    const text = JSON.stringify({ "ключ ✓": "é ✓ 😀", tickets: ["😀", { "ü😀": "✓" }] });
    const want = [
      { kind: "member", key: "ключ ✓", text: '"é ✓ 😀"' },
      { kind: "element", text: '"😀"' },
      { kind: "element", text: '{"ü😀":"✓"}' },
    ];
    for (const parts of everyCut(text)) assert.deepEqual(await read(parts), want);
  });

  test("an empty object and an empty streamed array give no pieces but their members", async () => {
    assert.deepEqual(await read([Buffer.from(" { } ")]), []);
    assert.deepEqual(await read([Buffer.from('{"tickets":[ ],"x":[]}')]), [
      { kind: "member", key: "x", text: "[]" },
    ]);
    // `tickets` that is not an array is a member like any other: the caller's schema decides.
    assert.deepEqual(await read([Buffer.from('{"tickets":5}')]), [
      { kind: "member", key: "tickets", text: "5" },
    ]);
  });

  test("a document that is not a JSON object, or is malformed anywhere, is refused, cut anywhere", async () => {
    const notJson = "the text is not valid JSON";
    const notAnObject = "the text must be a JSON object";
    const cases: Array<[string, string]> = [
      ["", notAnObject],
      ["  ", notAnObject],
      ["[1]", notAnObject],
      ['"s"', notAnObject],
      ["12", notAnObject],
      ["true", notAnObject],
      ["x", notJson],
      ["{", notJson],
      ['{"a":1', notJson],
      ['{"a":1}x', notJson],
      ['{"a":1}{}', notJson],
      ['{"a" 1}', notJson],
      ['{"a":1 "b":2}', notJson],
      ['{"a":1,}', notJson],
      ["{,}", notJson],
      ["{a:1}", notJson],
      ['{"a":,}', notJson],
      ['{"a":}', notJson],
      ['{"a\\":1}', notJson],
      ['{"tickets":[1 2]}', notJson],
      ['{"tickets":[,1]}', notJson],
      ['{"tickets":[1}', notJson],
      ['{"tickets":[1]', notJson],
      ['{"a":tr', notJson],
    ];
    for (const [text, message] of cases) {
      for (const parts of text === "" ? [[Buffer.alloc(0)], []] : everyCut(text)) {
        assert.equal((await failure(parts)).message, message, JSON.stringify(text));
      }
    }
  });

  test("the streamed member twice is refused", async () => {
    const error = await failure([Buffer.from('{"tickets":[],"a":1,"tickets":[1]}')]);
    assert.equal(error.message, "the text repeats the member tickets");
  });

  test("nesting deeper than maxDepth is refused in a member and in an element, skipped or not", async () => {
    const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
    const options = { ...reading, maxDepth: 5 };
    // The top object is one level, a member's value the next; an element sits one deeper.
    const fits = [`{"a":${nested(4)}}`, `{"tickets":[${nested(3)}]}`];
    const deep = [`{"a":${nested(5)}}`, `{"tickets":[${nested(4)}]}`];
    for (const text of fits) {
      await read([Buffer.from(text)], options);
      await counted([Buffer.from(text)], options);
    }
    for (const text of deep) {
      for (const parts of everyCut(text)) {
        const error = await failure(parts, options);
        assert.equal(error.message, "the text is nested more than 5 levels deep");
      }
      await assert.rejects(counted([Buffer.from(text)], options), /nested more than 5 levels/);
    }
    const tooShallow = { ...reading, maxDepth: 1 };
    assert.match((await failure([Buffer.from('{"tickets":[]}')], tooShallow)).message, /nested/);
    const unlimited = { ...reading, maxDepth: Number.POSITIVE_INFINITY };
    assert.equal(
      (await counted([Buffer.from(`{"tickets":[${nested(10_000)}]}`)], unlimited)).length,
      1,
    );
  });
});
