import assert from "node:assert/strict";
import { test } from "node:test";
import { issueBoardDocument } from "../../bench/dataset.js";
import type { ImportSource } from "../../src/domain/transfer/import-plan.js";
import { createBoard, createTicket } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";

/**
 * Other requests are answered while a board import runs (docs/decisions.md, "A board import
 * streams into scratch files"): the import reads, checks and renders between turns of the event
 * loop, and only its one write transaction holds the server. The order of answers is asserted,
 * never a duration: each request below is sent the moment the import's handler starts.
 */
const api = await startTestServer();
const other = await createBoard(api, "Other board", ["todo"]);
const otherLane = other.lanes[0]?.id as number;

/** Runs `meanwhile` when the next import reaches the importer (the body read, if keyed). */
function whenImportStarts(meanwhile: () => void): void {
  const importer = api.server.services.boardImport;
  const original = importer.import;
  importer.import = (source: ImportSource) => {
    importer.import = original;
    meanwhile();
    return original(source);
  };
}

/** Which of the two settles first, and both results. */
async function race<A, B>(first: Promise<A>, second: Promise<B>) {
  const order: string[] = [];
  const [a, b] = await Promise.all([
    first.then((value) => {
      order.push("first");
      return value;
    }),
    second.then((value) => {
      order.push("second");
      return value;
    }),
  ]);
  return { order, a, b };
}

test("a write to another board sent as an import starts is answered before the import", async () => {
  const document = issueBoardDocument({ tickets: 1000, comments: 1000 });
  let write: Promise<{ status: number; text: string }> | undefined;
  whenImportStarts(() => {
    write = createTicket(api, other.board.id, { laneId: otherLane, title: "meanwhile" }).then(
      () => ({ status: 201, text: "" }),
    );
  });
  const imported = api.post("/api/boards/import", document);
  // The write exists once the import has started, which needs the import's first turns.
  const started = async () => {
    for (let turn = 0; write === undefined; turn++) {
      assert.ok(turn < 10_000, "the import never reached the importer");
      await new Promise((resolve) => setImmediate(resolve));
    }
    return write;
  };
  const { order, b: answer } = await race(started(), imported);
  assert.deepEqual(order, ["first", "second"], "the other board's write waited for the import");
  assert.equal(answer.status, 201, answer.text);
  const tickets = await api.get(`/api/boards/${answer.body.board.id}/tickets?archived=all`);
  assert.equal(tickets.body.tickets.length, 1000, "the imported board is whole");
});

test("a read sent as an import's checking starts is answered before the import's 400", async () => {
  // Sent with an Idempotency-Key, the body is read whole before the importer starts; the last
  // ticket is refused by the checks, in the first round (4,000 tickets) before any rendering. So
  // from the importer's start to its answer, only the checks can let another request through.
  const count = 4000;
  const tickets = Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    laneId: index === count - 1 ? 99 : 1,
    title: `ticket ${index + 1}`,
  }));
  const document = {
    format: "tack.board",
    version: 1,
    board: { name: "Refused" },
    lanes: [{ id: 1, name: "todo" }],
    tickets,
  };
  const before = (await api.get("/api/boards")).body.boards.length;
  let read: Promise<{ status: number }> | undefined;
  whenImportStarts(() => {
    read = api.get(`/api/boards/${other.board.id}`);
  });
  const imported = api.request("POST", "/api/boards/import", document, {
    "idempotency-key": "import-meanwhile-refused",
  });
  const started = async () => {
    for (let turn = 0; read === undefined; turn++) {
      assert.ok(turn < 10_000, "the import never reached the importer");
      await new Promise((resolve) => setImmediate(resolve));
    }
    return read;
  };
  const { order, a: answered, b: refused } = await race(started(), imported);
  assert.equal(answered.status, 200);
  assert.equal(refused.status, 400, refused.text);
  assert.match(refused.body.error, /tickets\[3999\]\.laneId/);
  assert.deepEqual(order, ["first", "second"], "the read waited for the import's checks");
  assert.equal((await api.get("/api/boards")).body.boards.length, before, "nothing was created");
});
