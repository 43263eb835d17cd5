import assert from "node:assert/strict";
import { test } from "node:test";
import {
  deliverAfterAnswer,
  HeldDeliveries,
  whileHandling,
} from "../../src/events/held-deliveries.js";

test("a delivery caused inside a handler waits for that request's answer only", () => {
  const delivered: string[] = [];
  const write = new HeldDeliveries(true);
  const other = new HeldDeliveries(true);
  whileHandling(write, () => deliverAfterAnswer(() => delivered.push("a")));
  assert.equal(delivered.length, 0);
  write.release();
  assert.deepEqual(delivered, ["a"], "the other unanswered write does not hold it");
  other.release();
});

test("a delivery of unknown origin waits for every unanswered write, not for reads", () => {
  const delivered: string[] = [];
  const first = new HeldDeliveries(true);
  const second = new HeldDeliveries(true);
  // A read (an open event stream, a slow list download) must never hold anybody's messages.
  const read = new HeldDeliveries(false);
  // Published after an await: no handler is running.
  deliverAfterAnswer(() => delivered.push("b"));
  first.release();
  assert.equal(delivered.length, 0);
  second.release();
  assert.deepEqual(delivered, ["b"]);
  read.release();
  // Outside any request and with no write unanswered: at once.
  deliverAfterAnswer(() => delivered.push("c"));
  assert.deepEqual(delivered, ["b", "c"]);
});

test("the handler's scope ends with its synchronous part, also when it throws", () => {
  const delivered: string[] = [];
  const scope = new HeldDeliveries(false);
  assert.throws(() =>
    whileHandling(scope, () => {
      throw new Error("refused");
    }),
  );
  deliverAfterAnswer(() => delivered.push("d"));
  assert.deepEqual(delivered, ["d"]);
  scope.release();
});
