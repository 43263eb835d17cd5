import assert from "node:assert/strict";
import { test } from "node:test";
import { MadeOnRead } from "../../src/domain/transfer/import-detail.js";
import { streamDocument } from "../../src/http/document-serialization.js";

async function text(document: object): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of streamDocument(document)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

test("a streamed document is exactly JSON.stringify's text, over many chunks", async () => {
  const tickets = Array.from({ length: 3000 }, (_, id) => ({
    id,
    title: `ticket "${id}" \u2028 ü`,
    bodyHtml: "<p>x</p>".repeat(40),
    gone: undefined,
    tags: [{ id: 1, name: "a" }],
  }));
  const documents = [
    { board: { id: 1, name: "b" }, lanes: [], tags: [{ id: 2 }], tickets },
    { skipped: undefined, empty: [], nothing: null, tickets: [undefined, 1, "two"], last: 3 },
    // An element larger than a chunk, with multi-byte characters around chunk boundaries.
    { tickets: ["ü".repeat(10), "€".repeat(200_000), "é".repeat(131_070), { a: "ß".repeat(5) }] },
    {},
  ];
  for (const document of documents) assert.equal(await text(document), JSON.stringify(document));
  let chunks = 0;
  for await (const _ of streamDocument(documents[0] as object)) chunks++;
  assert.ok(chunks > 2, `${chunks} chunks: the large array is streamed in parts`);
});

test("a list made on read streams as the array JSON.stringify writes, made as the socket takes it", async () => {
  let made = 0;
  const tickets = new MadeOnRead(3000, (index) => {
    made++;
    return { id: index, bodyHtml: "<p>é</p>".repeat(50) };
  });
  const document = { board: { id: 1 }, tickets, empty: new MadeOnRead(0, () => 0) };
  assert.equal(await text(document), JSON.stringify(document));
  assert.match(JSON.stringify(document), /^\{"board":\{"id":1\},"tickets":\[\{"id":0,/);

  made = 0;
  const stream = streamDocument(document);
  for await (const _ of stream) break; // the first chunk only
  assert.ok(made > 0 && made < 3000, `${made} of 3000 made for the first chunk`);
});
