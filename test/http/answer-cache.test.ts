import assert from "node:assert/strict";
import { test } from "node:test";
import { AnswerCache } from "../../src/http/conditional-requests.js";

test("a small answer is kept and given back as its string, a large one as its UTF-8 bytes", () => {
  const cache = new AnswerCache(1024 * 1024);
  const small = JSON.stringify({ title: "é ✓", body: "x".repeat(100) });
  assert.equal(cache.set("small", '"1"', small), small);
  assert.equal(cache.get("small", '"1"'), small);

  const large = JSON.stringify({ body: "ü".repeat(70_000) });
  const sent = cache.set("large", '"1"', large);
  assert.ok(Buffer.isBuffer(sent));
  assert.equal(sent.toString("utf8"), large);
  assert.equal(cache.get("large", '"1"'), sent);
});

test("an answer that is bytes already (a Ticket joined from kept pieces) is kept as it is", () => {
  const cache = new AnswerCache(1024 * 1024);
  const bytes = Buffer.from(JSON.stringify({ title: "é ✓" }));
  assert.equal(cache.set("joined", '"1"', bytes), bytes);
  assert.equal(cache.get("joined", '"1"'), bytes);
});

test("an answer is given back only for the tag it was kept with", () => {
  const cache = new AnswerCache(1024);
  cache.set("ticket:1", '"v1"', "{}");
  assert.equal(cache.get("ticket:1", '"v2"'), undefined);
  assert.equal(cache.get("ticket:2", '"v1"'), undefined);
});

test("the cache stays within its bound, oldest answers out first", () => {
  // 100 characters count as 200 bytes (a string's in-memory size bounds its UTF-8 size).
  const cache = new AnswerCache(1000);
  const answer = "a".repeat(100);
  for (let key = 1; key <= 7; key++) cache.set(String(key), '"t"', answer);
  assert.equal(cache.get("1", '"t"'), undefined);
  assert.equal(cache.get("2", '"t"'), undefined);
  for (let key = 3; key <= 7; key++) assert.equal(cache.get(String(key), '"t"'), answer);
  // Larger than the whole bound: sent, never kept.
  assert.equal(cache.set("8", '"t"', "b".repeat(600)), "b".repeat(600));
  assert.equal(cache.get("8", '"t"'), undefined);
  assert.equal(cache.get("7", '"t"'), answer);
});

test("admitOnRepeat keeps an answer from the second time its key and tag are answered", () => {
  const cache = new AnswerCache(1024 * 1024, { admitOnRepeat: true });
  cache.set("ticket:1", '"v1"', "first");
  assert.equal(cache.get("ticket:1", '"v1"'), undefined, "not kept the first time");
  cache.set("ticket:1", '"v1"', "first");
  assert.equal(cache.get("ticket:1", '"v1"'), "first", "kept the second time");
  // A new tag starts over: once seen, kept the time after.
  cache.set("ticket:1", '"v2"', "second");
  assert.equal(cache.get("ticket:1", '"v2"'), undefined);
  cache.set("ticket:1", '"v2"', "second");
  assert.equal(cache.get("ticket:1", '"v2"'), "second");
  // A key answered once among many others is still remembered, within the bound.
  cache.set("ticket:2", '"v1"', "two");
  for (let key = 3; key < 1000; key++) cache.set(`ticket:${key}`, '"v1"', "x");
  cache.set("ticket:2", '"v1"', "two");
  assert.equal(cache.get("ticket:2", '"v1"'), "two");
});

test("admit and keep: an answer gathered only once admitted (a streamed export) follows the same rule", () => {
  const cache = new AnswerCache(1000, { admitOnRepeat: true });
  assert.equal(cache.admit("board:1", '"r1"'), false, "the first export of a state is not kept");
  assert.equal(cache.admit("board:1", '"r1"'), true, "the second is");
  cache.keep("board:1", '"r1"', Buffer.from("whole"));
  assert.deepEqual(cache.get("board:1", '"r1"'), Buffer.from("whole"));
  // A new state drops the kept answer of the old one and starts over.
  assert.equal(cache.admit("board:1", '"r2"'), false);
  assert.equal(cache.get("board:1", '"r1"'), undefined);
  // Larger than the bound: admitted, never kept.
  assert.equal(cache.admit("board:1", '"r2"'), true);
  cache.keep("board:1", '"r2"', Buffer.alloc(1001));
  assert.equal(cache.get("board:1", '"r2"'), undefined);
});
