import assert from "node:assert/strict";
import { test } from "node:test";
import { TackClient } from "../../src/client/tack-client.js";
import { KeptAnswerStore } from "../../src/mcp/kept-answers.js";
import { startTestServer } from "../helpers/server.js";

// The GET answers `/mcp` keeps: revalidated with If-None-Match on every call, reused on a 304,
// replaced after any change, frozen for the sessions that share them, bounded in size.

const api = await startTestServer();
const { board } = (await api.post("/api/boards", { name: "Kept answers" })).body;
const laneId = (await api.get(`/api/boards/${board.id}`)).body.lanes[0].id;
await api.post(`/api/boards/${board.id}/tickets`, { laneId, title: "One" });

function clientWith(answers: KeptAnswerStore) {
  const statuses: number[] = [];
  const client = new TackClient({
    url: api.url,
    actor: "kept",
    answers,
    fetch: async (input, init) => {
      const answer = await fetch(input, init);
      statuses.push(answer.status);
      return answer;
    },
  });
  return { client, statuses };
}

test("an unchanged list comes back as 304 and the kept body; a write makes it 200 again", async () => {
  const answers = new KeptAnswerStore();
  const { client, statuses } = clientWith(answers);
  const first = await client.listTickets(board.id, { ready: true });
  const second = await client.listTickets(board.id, { ready: true });
  assert.deepEqual(statuses, [200, 304]);
  assert.equal(second, first, "the very object kept");
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0]), "frozen for every session");
  await api.post(`/api/boards/${board.id}/tickets`, { laneId, title: "Two" });
  const third = await client.listTickets(board.id, { ready: true });
  assert.equal(statuses.at(-1), 200);
  assert.deepEqual(
    third.map((ticket) => ticket.title),
    ["One", "Two"],
  );
  // Another session's client shares the store: it revalidates what the first one kept.
  const other = clientWith(answers);
  await other.client.listTickets(board.id, { ready: true });
  assert.deepEqual(other.statuses, [304]);
});

test("the store keeps at most its size, dropping the least recently used", () => {
  const answers = new KeptAnswerStore(10);
  answers.set("/a", '"1"', { a: 1 }, 4);
  answers.set("/b", '"1"', { b: 1 }, 4);
  answers.get("/a");
  answers.set("/c", '"1"', { c: 1 }, 4);
  assert.ok(answers.get("/a") && answers.get("/c"));
  assert.equal(answers.get("/b"), undefined, "the least recently used went");
  assert.deepEqual(answers.set("/big", '"1"', { big: 1 }, 11), { big: 1 }, "handed out, not kept");
  assert.equal(answers.get("/big"), undefined);
});
