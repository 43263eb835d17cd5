import assert from "node:assert/strict";
import { test } from "node:test";
import { RecentKeys } from "../../src/kept-answers/recent-keys.js";
import { KeptTicketParts } from "../../src/kept-answers/ticket-parts.js";

// The memory of the caches that keep an answer only once it is asked for again
// (src/kept-answers/recent-keys.ts): bounded, least recently seen out first.

test("a key is given back with the value it was last seen with, once", () => {
  const recent = new RecentKeys<string, string>(4);
  assert.equal(recent.take("a"), undefined, "never seen");
  recent.note("a", "v1");
  recent.note("a", "v2");
  assert.equal(recent.take("a"), "v2", "the last value");
  assert.equal(recent.take("a"), undefined, "taking forgets it");
});

test("beyond its bound, the least recently seen key is forgotten first", () => {
  const recent = new RecentKeys<number, true>(3);
  for (const key of [1, 2, 3]) recent.note(key, true);
  recent.note(1, true); // 1 seen again: 2 is now the oldest
  recent.note(4, true);
  assert.equal(recent.take(2), undefined, "the oldest went");
  for (const key of [1, 3, 4]) assert.equal(recent.take(key), true, `${key} stays`);
});

test("a ticket's parts are admitted on its second read only within the last 1,024 tickets read", () => {
  const kept = new KeptTicketParts();
  assert.equal(kept.admit(1), false, "the first read");
  assert.equal(kept.admit(1), true, "the second read");
  assert.equal(kept.admit(1), true, "and the ones after, while it is read lately");
  for (let other = 2; other <= 1024; other++) kept.admit(other);
  assert.equal(kept.admit(1), true, "1,023 other tickets read since: still remembered");
  for (let other = 2; other <= 1025; other++) kept.admit(other);
  assert.equal(kept.admit(1), false, "1,024 other tickets read since: forgotten");
});
