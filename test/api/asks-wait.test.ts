import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { boardWithLanes, newTicket, patchTicket } from "../helpers/tickets.js";
import { askRequests } from "./asks-setup.js";

// Asks (docs/api.md, "Asks"): waiting for an answer with ?wait=.

const api = await startTestServer();
const asks = api.server.services.asks;
const { answerAsk, ask, ticket, withdrawAsk } = askRequests(api);

/** Resolves once `condition` holds (the server's state, polled), failing after `limitMs`. */
async function eventually(condition: () => boolean, what: string, limitMs = 5000) {
  const end = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > end) assert.fail(`never happened: ${what}`);
    await sleep(10);
  }
}

describe("waiting for an answer (?wait=)", () => {
  test("wait out of range or not an integer is 400; an unknown ask 404", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    for (const wait of ["0", "61", "-1", "1.5", "abc", ""]) {
      assertError(await api.get(`/api/asks/${created.id}?wait=${wait}`), 400, /^wait /);
    }
    assertError(await api.get("/api/asks/999999?wait=5"), 404, "ask not found");
    assert.equal(asks.waiting(), 0);
  });

  test("an ask that is not open answers at once", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    await answerAsk(created.id, { by: "dev", text: "already" });
    const response = await api.get(`/api/asks/${created.id}?wait=60`);
    assert.equal(response.status, 200);
    assert.equal(response.body.status, "answered");
    assert.equal(asks.waiting(created.id), 0);
  });

  test("several waiters on one ask all wake with the answer", async () => {
    const { id } = await ticket();
    const created = await ask(id, { options: ["go", "stop"] });
    const waits = Array.from({ length: 5 }, () => api.get(`/api/asks/${created.id}?wait=60`));
    await eventually(() => asks.waiting(created.id) === 5, "five callers waiting");
    const answered = await answerAsk(created.id, { by: "dev", option: "go" });
    assert.equal(answered.status, 200);
    for (const response of await Promise.all(waits)) {
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, answered.body);
      assert.ok(response.headers.get("etag"));
    }
    assert.equal(asks.waiting(created.id), 0);
  });

  test("a withdrawal wakes waiters too", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    const waiting = api.get(`/api/asks/${created.id}?wait=60`);
    await eventually(() => asks.waiting(created.id) === 1, "one caller waiting");
    await withdrawAsk(created.id, { actor: "agent-1" });
    const response = await waiting;
    assert.equal(response.body.status, "withdrawn");
  });

  test("when the time passes the ask is answered as it is (still open)", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    const response = await api.get(`/api/asks/${created.id}?wait=1`);
    assert.equal(response.status, 200);
    assert.equal(response.body.status, "open");
    assert.deepEqual(response.body, created);
    assert.equal(asks.waiting(created.id), 0);
  });

  // Without the re-check after the delete's commit, the callers would get their 404 only after
  // 60 s: the test's timeout (half of that) is what fails then.
  test("deleting the ticket or its board answers its waiters 404 at once", {
    timeout: 30_000,
  }, async () => {
    const board = await boardWithLanes(api, "Deleted while waiting");
    const first = await ticket("first", board);
    const second = await ticket("second", board);
    const onFirst = await ask(first.id);
    const onSecond = await ask(second.id);
    const waitingFirst = api.get(`/api/asks/${onFirst.id}?wait=60`);
    const waitingSecond = api.get(`/api/asks/${onSecond.id}?wait=60`);
    await eventually(() => asks.waiting() >= 2, "two callers waiting");
    // A change to the ticket that leaves the ask open keeps its caller waiting.
    await patchTicket(api, first.id, { title: "first, renamed" });
    await sleep(50);
    assert.equal(asks.waiting(onFirst.id), 1);
    assert.equal((await api.delete(`/api/tickets/${first.id}`)).status, 204);
    assertError(await waitingFirst, 404, "ask not found");
    assert.equal(asks.waiting(onSecond.id), 1);
    assert.equal((await api.delete(`/api/boards/${board.boardId}`)).status, 204);
    assertError(await waitingSecond, 404, "ask not found");
    assert.equal(asks.waiting(), 0);
  });

  test("a client that disconnects mid-wait leaves no waiter behind", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    const url = new URL(api.url);
    for (const how of ["destroy", "end"] as const) {
      const socket = connect(Number(url.port), url.hostname);
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk.toString();
      });
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(`GET /api/asks/${created.id}?wait=60 HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
      await eventually(() => asks.waiting(created.id) === 1, `${how}: the caller waits`);
      const closed = new Promise((resolve) => socket.once("close", resolve));
      // destroy: the client is gone; end: it stops sending (a half-closed socket).
      if (how === "destroy") socket.destroy();
      else socket.end();
      await eventually(() => asks.waiting(created.id) === 0, `${how}: the waiter is removed`);
      await closed;
      assert.equal(received, "", `${how}: nothing was written to the socket`);
    }
    // The ask can still be answered, and an answer after the callers left writes to nobody.
    assert.equal((await answerAsk(created.id, { by: "dev", text: "later" })).status, 200);
    assert.equal(asks.waiting(), 0);
  });

  test("If-None-Match with the open ask's tag: 304 when the time passes unchanged", async () => {
    const { id } = await ticket();
    const created = await ask(id);
    const tag = (await api.get(`/api/asks/${created.id}`)).headers.get("etag") as string;
    const unchanged = await api.request("GET", `/api/asks/${created.id}?wait=1`, undefined, {
      "if-none-match": tag,
    });
    assert.equal(unchanged.status, 304);
    assert.equal(unchanged.headers.get("etag"), tag);
    const waiting = api.request("GET", `/api/asks/${created.id}?wait=60`, undefined, {
      "if-none-match": tag,
    });
    await eventually(() => asks.waiting(created.id) === 1, "one caller waiting");
    await answerAsk(created.id, { by: "dev", text: "changed" });
    const changed = await waiting;
    assert.equal(changed.status, 200);
    assert.equal(changed.body.status, "answered");
  });

  // Without the answer at close, close() would wait for the caller's 60 s: the test's timeout
  // (half of that, however slow the machine) is what fails then.
  test("closing the server answers every waiting caller with its ask as it is", {
    timeout: 30_000,
  }, async () => {
    const other = await startTestServer();
    const board = await boardWithLanes(other, "Closing");
    const owned = await newTicket(other, board.boardId, board.laneIds[0], "t");
    const created = await other.post(`/api/tickets/${owned.id}/asks`, {
      actor: "agent-1",
      question: "Still there?",
    });
    const waiting = other.get(`/api/asks/${created.body.id}?wait=60`);
    await eventually(
      () => other.server.services.asks.waiting(created.body.id) === 1,
      "one caller waiting",
    );
    await other.close();
    const response = await waiting;
    assert.equal(response.status, 200);
    assert.equal(response.body.status, "open");
  });
});
