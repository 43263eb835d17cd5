import assert from "node:assert/strict";
import { Agent, request as httpRequest } from "node:http";
import { connect } from "node:net";
import { after, describe, test } from "node:test";
import Database from "better-sqlite3";
import { useClock } from "../../src/domain/clock.js";
import { assertError } from "../helpers/factories.js";
import { everythingReceived } from "../helpers/raw-http.js";
import { startTestServer } from "../helpers/server.js";
import { SseClient, sleep } from "../helpers/sse-client.js";
import { boardWithLanes, getTicket, newTicket, patchTicket } from "../helpers/tickets.js";

// docs/api.md, "Coordination for agents": claims with leases. Time is the test's clock (useClock),
// never a sleep.

const api = await startTestServer();
let clock = Date.parse("2030-01-01T00:00:00.000Z");
after(useClock(() => clock));
const advance = (seconds: number) => {
  clock += seconds * 1000;
};
const iso = (millis: number) => new Date(millis).toISOString();

const claim = (id: number, body: Record<string, unknown>) =>
  api.post(`/api/tickets/${id}/claim`, body);
const release = (id: number, body: Record<string, unknown>) =>
  api.post(`/api/tickets/${id}/release`, body);
const claimNext = (boardId: number, body: Record<string, unknown>) =>
  api.post(`/api/boards/${boardId}/claim-next`, body);
/**
 * POSTs of JSON bodies written at once on one connection: they reach the server in one turn of
 * its event loop (so claim-next requests share a unit of work). Answers in order.
 */
async function postedTogether(
  requests: Array<[path: string, body: unknown]>,
): Promise<Array<{ status: number; body: any }>> {
  const { host, hostname, port } = new URL(api.url);
  const post = ([path, body]: [string, unknown]) => {
    const text = JSON.stringify(body);
    return `POST ${path} HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
  };
  const socket = connect(Number(port), hostname);
  const received = everythingReceived(socket);
  socket.end(requests.map(post).join(""));
  return (await received).split(/(?=HTTP\/1\.1 \d{3})/).map((response) => ({
    status: Number(response.slice(9, 12)),
    body: JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4)),
  }));
}

const claimActivity = async (id: number) =>
  (await api.get(`/api/tickets/${id}/activity`)).body.activity
    .filter((entry: any) => entry.action === "ticket_claimed" || entry.action === "ticket_released")
    .map((entry: any) => [entry.action, entry.details]);

describe("claim and release", () => {
  test("a claim shows on the ticket and in the list, with its lease", async () => {
    const board = await boardWithLanes(api, "Claims");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    assert.equal(ticket.claim, null);
    const claimed = await claim(ticket.id, { actor: " agent-1 ", leaseSeconds: 60 });
    assert.equal(claimed.status, 200, claimed.text);
    assert.deepEqual(claimed.body.claim, {
      actor: "agent-1",
      claimedAt: iso(clock),
      expiresAt: iso(clock + 60_000),
    });
    assert.equal(claimed.body.version, 2);
    const [summary] = (await api.get(`/api/boards/${board.boardId}/tickets`)).body.tickets;
    assert.deepEqual(summary.claim, claimed.body.claim);
    assert.deepEqual(await claimActivity(ticket.id), [
      ["ticket_claimed", { actor: "agent-1", expiresAt: iso(clock + 60_000) }],
    ]);
  });

  test("default lease 900 s; renewal by the holder keeps claimedAt and writes no activity", async () => {
    const board = await boardWithLanes(api, "Renew");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    const first = await claim(ticket.id, { actor: "a" });
    assert.equal(first.body.claim.expiresAt, iso(clock + 900_000));
    const claimedAt = first.body.claim.claimedAt;
    advance(30);
    const renewed = await claim(ticket.id, { actor: "a", leaseSeconds: 10 });
    assert.equal(renewed.status, 200);
    assert.deepEqual(renewed.body.claim, {
      actor: "a",
      claimedAt,
      expiresAt: iso(clock + 10_000),
    });
    assert.equal(renewed.body.version, 3);
    assert.equal((await claimActivity(ticket.id)).length, 1);
  });

  test("another actor's live claim → 409 naming holder and end; nothing written", async () => {
    const board = await boardWithLanes(api, "Taken");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    const held = await claim(ticket.id, { actor: "a", leaseSeconds: 100 });
    const other = await claim(ticket.id, { actor: "b" });
    assertError(other, 409, `ticket is claimed by a until ${held.body.claim.expiresAt}`);
    // Actors compare exactly: "A" is another actor.
    assertError(await claim(ticket.id, { actor: "A" }), 409);
    assertError(await release(ticket.id, { actor: "b" }), 409);
    assert.deepEqual(await getTicket(api, ticket.id), held.body);
  });

  test("release ends the claim once; releasing again or unclaimed is 200", async () => {
    const board = await boardWithLanes(api, "Release");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    const unclaimed = await release(ticket.id, { actor: "a" });
    assert.equal(unclaimed.status, 200);
    assert.equal(unclaimed.body.version, 1, "nothing changed");
    await claim(ticket.id, { actor: "a" });
    const released = await release(ticket.id, { actor: "a" });
    assert.equal(released.status, 200);
    assert.equal(released.body.claim, null);
    assert.equal(released.body.version, 3);
    const again = await release(ticket.id, { actor: "a" });
    assert.equal(again.status, 200);
    assert.equal(again.body.version, 3);
    assert.deepEqual((await claimActivity(ticket.id))[0], [
      "ticket_released",
      { actor: "a", reason: "released" },
    ]);
  });

  test("a lease runs out by itself: null claim, others may claim, ETags change", async () => {
    const board = await boardWithLanes(api, "Expiry");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    await claim(ticket.id, { actor: "a", leaseSeconds: 10 });
    const live = await api.get(`/api/tickets/${ticket.id}`);
    const list = await api.get(`/api/boards/${board.boardId}/tickets`);
    advance(9.999);
    assert.equal((await getTicket(api, ticket.id)).claim?.actor, "a");
    advance(0.001);
    const expired = await api.request("GET", `/api/tickets/${ticket.id}`, undefined, {
      "if-none-match": live.headers.get("etag") as string,
    });
    assert.equal(expired.status, 200, "the expired claim changed the representation");
    assert.equal(expired.body.claim, null);
    const listAfter = await api.request("GET", `/api/boards/${board.boardId}/tickets`, undefined, {
      "if-none-match": list.headers.get("etag") as string,
    });
    assert.equal(listAfter.status, 200);
    assert.equal(listAfter.body.tickets[0].claim, null);
    // Releasing an expired claim is a no-op; another actor may claim.
    assert.equal((await release(ticket.id, { actor: "a" })).status, 200);
    const taken = await claim(ticket.id, { actor: "b" });
    assert.equal(taken.status, 200);
    assert.equal(taken.body.claim.actor, "b");
    assert.equal(taken.body.claim.claimedAt, iso(clock));
  });

  test("resolve, archive, move and delete end a claim; activity says why", async () => {
    const board = await boardWithLanes(api, "Ends");
    const target = await boardWithLanes(api, "Elsewhere");
    const [lane] = board.laneIds;
    const resolved = await newTicket(api, board.boardId, lane, "resolved");
    const archived = await newTicket(api, board.boardId, lane, "archived");
    const moved = await newTicket(api, board.boardId, lane, "moved");
    const deleted = await newTicket(api, board.boardId, lane, "deleted");
    for (const ticket of [resolved, archived, moved, deleted]) {
      assert.equal((await claim(ticket.id, { actor: "a" })).status, 200);
    }
    assert.equal((await patchTicket(api, resolved.id, { isResolved: true })).claim, null);
    const bulk = await api.post(`/api/boards/${board.boardId}/tickets/bulk-archive`, {
      ticketIds: [archived.id],
      isArchived: true,
    });
    assert.equal(bulk.status, 200, bulk.text);
    assert.equal(bulk.body.tickets[0].claim, null);
    const move = await api.post(`/api/tickets/${moved.id}/move`, {
      boardId: target.boardId,
      laneId: target.laneIds[0],
    });
    assert.equal(move.body.claim, null);
    assert.equal((await api.delete(`/api/tickets/${deleted.id}`)).status, 204);
    for (const [ticket, reason] of [
      [resolved, "resolved"],
      [archived, "archived"],
      [moved, "moved"],
    ] as const) {
      assert.deepEqual((await claimActivity(ticket.id))[0], [
        "ticket_released",
        { actor: "a", reason },
      ]);
    }
    // A resolved or archived ticket cannot be claimed.
    assertError(await claim(resolved.id, { actor: "a" }), 409, "ticket is resolved");
    assertError(await claim(archived.id, { actor: "a" }), 409, "ticket is archived");
  });

  test("bad input → 400 naming the field; unknown ticket → 404", async () => {
    const board = await boardWithLanes(api, "Bad");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t");
    assertError(await claim(ticket.id, {}), 400, /actor/);
    assertError(await claim(ticket.id, { actor: "   " }), 400, /actor/);
    assertError(await claim(ticket.id, { actor: "x".repeat(101) }), 400, /actor/);
    assertError(await claim(ticket.id, { actor: "a", leaseSeconds: 9 }), 400, /leaseSeconds/);
    assertError(await claim(ticket.id, { actor: "a", leaseSeconds: 86_401 }), 400, /leaseSeconds/);
    assertError(await claim(ticket.id, { actor: "a", leaseSeconds: "60" }), 400, /leaseSeconds/);
    assertError(await release(ticket.id, {}), 400, /actor/);
    assertError(await claim(999_999, { actor: "a" }), 404, "ticket not found");
    assertError(await claimNext(999_999, { actor: "a" }), 404);
    assertError(await claimNext(board.boardId, { actor: "a", priority: 5 }), 400, /priority/);
    const other = await boardWithLanes(api, "Other");
    assertError(await claimNext(board.boardId, { actor: "a", laneId: other.laneIds[0] }), 400);
    assert.equal((await getTicket(api, ticket.id)).version, 1, "nothing written");
  });
});

describe("claim-next", () => {
  test("takes the ready queue's first ticket within the filters; 204 when none", async () => {
    const board = await boardWithLanes(api, "Next");
    const tag = await api.post(`/api/boards/${board.boardId}/tags`, { name: "Backend" });
    const low = await newTicket(api, board.boardId, board.laneIds[0], "low", { priority: 1 });
    const high = await newTicket(api, board.boardId, board.laneIds[1], "high", { priority: 4 });
    const tagged = await newTicket(api, board.boardId, board.laneIds[1], "tagged", {
      tagIds: [tag.body.id],
    });
    const byLane = await claimNext(board.boardId, { actor: "a", laneId: board.laneIds[0] });
    assert.equal(byLane.body.id, low.id);
    const byTag = await claimNext(board.boardId, { actor: "a", tag: " backend " });
    assert.equal(byTag.body.id, tagged.id);
    const first = await claimNext(board.boardId, { actor: "a", leaseSeconds: 30 });
    assert.equal(first.status, 200);
    assert.equal(first.body.id, high.id);
    assert.equal(first.body.claim.expiresAt, iso(clock + 30_000));
    const none = await claimNext(board.boardId, { actor: "a" });
    assert.equal(none.status, 204);
    assert.equal(none.text, "");
    assert.deepEqual(await claimActivity(high.id), [
      ["ticket_claimed", { actor: "a", expiresAt: iso(clock + 30_000) }],
    ]);
  });

  test("a released or shortened claim hands its ticket out again, before those after it", async () => {
    // A claim ending early (a release, a shorter lease) makes its ticket the next pick again.
    const board = await boardWithLanes(api, "Reopen");
    const [a, b, c] = [
      await newTicket(api, board.boardId, board.laneIds[0], "a"),
      await newTicket(api, board.boardId, board.laneIds[0], "b"),
      await newTicket(api, board.boardId, board.laneIds[0], "c"),
    ];
    const next = async () =>
      (await claimNext(board.boardId, { actor: "x", leaseSeconds: 600 })).body.id;
    assert.deepEqual([await next(), await next()], [a.id, b.id]);
    await release(a.id, { actor: "x" });
    assert.equal(await next(), a.id, "released");
    assert.equal(await next(), c.id);
    // The holder renews with a shorter lease: its ticket is ready again once that one ends.
    await claim(b.id, { actor: "x", leaseSeconds: 10 });
    advance(11);
    assert.equal(await next(), b.id, "lease shortened, then over");
    assert.equal((await claimNext(board.boardId, { actor: "x" })).status, 204);
    // A ticket that goes first in the ready queue is the next pick.
    const urgent = await newTicket(api, board.boardId, board.laneIds[1], "d", { priority: 4 });
    assert.equal(await next(), urgent.id, "a new first ticket");
  });

  test("requests arriving together share a unit of work; each keeps its own answer", async () => {
    // Four requests in one write on one connection reach the server in one turn of its event
    // loop: the two good ones are claimed in one unit (one stream message names both), the
    // others answer their own error and change nothing.
    const board = await boardWithLanes(api, "Together");
    const first = await newTicket(api, board.boardId, board.laneIds[0], "first");
    const second = await newTicket(api, board.boardId, board.laneIds[0], "second");
    const stream = await SseClient.open(`${api.url}/api/boards/${board.boardId}/events`);
    try {
      await stream.waitUntil(() => stream.comments.includes("connected"));
      const path = `/api/boards/${board.boardId}/claim-next`;
      const answers = await postedTogether([
        [path, { actor: "a" }],
        [path, { actor: "b", laneId: 999_999 }],
        [path, { actor: "c" }],
        ["/api/boards/999999/claim-next", { actor: "d" }],
      ]);
      assert.deepEqual(
        answers.map(({ status, body }) => [status, body.claim?.actor ?? body.error]),
        [
          [200, "a"],
          [400, "laneId must be a lane of this board"],
          [200, "c"],
          [404, "board not found"],
        ],
      );
      assert.deepEqual([answers[0]?.body.id, answers[2]?.body.id], [first.id, second.id]);
      await stream.waitForMessages(1);
      await sleep(60);
      assert.deepEqual(
        stream.messages.map((message) => message.data.ticketIds),
        [[first.id, second.id]],
      );
    } finally {
      stream.close();
    }
  });

  test("a unit of work whose write fails fails all its requests and leaves nothing behind", async () => {
    // A write failing mid-unit (here a trigger refusing one actor's claim row, added through a
    // second connection to the file) rolls the whole unit back: the claim made before it in
    // the same unit is undone too, no stream message goes out, and the first ticket is handed
    // out next.
    const board = await boardWithLanes(api, "Failing unit");
    const first = await newTicket(api, board.boardId, board.laneIds[0], "first");
    const second = await newTicket(api, board.boardId, board.laneIds[0], "second");
    const path = `/api/boards/${board.boardId}/claim-next`;
    await claimNext(board.boardId, { actor: "warm", leaseSeconds: 10 });
    advance(11);
    const stream = await SseClient.open(`${api.url}/api/boards/${board.boardId}/events`);
    const other = new Database(api.dbFile);
    try {
      await stream.waitUntil(() => stream.comments.includes("connected"));
      other.exec(`CREATE TRIGGER refuse_claim BEFORE INSERT ON ticket_claims
        WHEN NEW.actor = 'refused' BEGIN SELECT RAISE(ABORT, 'claim refused'); END`);
      const answers = await postedTogether([
        [path, { actor: "a" }],
        [path, { actor: "refused" }],
        [path, { actor: "c" }],
      ]);
      assert.deepEqual(
        answers.map(({ status, body }) => [status, body.error]),
        [
          [500, "internal error"],
          [500, "internal error"],
          [500, "internal error"],
        ],
      );
      other.exec("DROP TRIGGER refuse_claim");
      // The warm-up claim of `first` raised its version once; the failed unit raised none.
      for (const [ticket, version] of [
        [first, 2],
        [second, 1],
      ] as const) {
        const now = await getTicket(api, ticket.id);
        assert.deepEqual([now.claim, now.version], [null, version]);
      }
      assert.deepEqual(await claimActivity(second.id), []);
      const next = await claimNext(board.boardId, { actor: "a" });
      assert.equal(next.body.id, first.id);
      await stream.waitForMessages(1);
      await sleep(60);
      assert.deepEqual(
        stream.messages.map((message) => message.data.ticketIds),
        [[first.id]],
        "the failed unit sent no message",
      );
    } finally {
      other.close();
      stream.close();
    }
  });

  test("20 callers on separate connections, repeated: each ready ticket handed out once", async () => {
    const board = await boardWithLanes(api, "Race");
    const tickets = 30;
    await api.post(`/api/boards/${board.boardId}/tickets`, {
      laneId: board.laneIds[0],
      title: "x",
    });
    for (let i = 1; i < tickets; i++) {
      await newTicket(api, board.boardId, board.laneIds[i % 3], `t${i}`, {
        priority: (i % 4) + 1,
      });
    }
    const url = new URL(`${api.url}/api/boards/${board.boardId}/claim-next`);
    // One agent (socket) per caller: the requests really arrive concurrently.
    const agents = Array.from({ length: 20 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    const post = (agent: Agent, actor: string) =>
      new Promise<{ status: number; id?: number }>((resolve, reject) => {
        const body = JSON.stringify({ actor, leaseSeconds: 600 });
        const req = httpRequest(
          url,
          { method: "POST", agent, headers: { "content-type": "application/json" } },
          (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (chunk) => {
              text += chunk;
            });
            res.on("end", () =>
              resolve({ status: res.statusCode ?? 0, id: text ? JSON.parse(text).id : undefined }),
            );
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    try {
      for (let round = 0; round < 3; round++) {
        const handed = new Map<number, string>();
        let empty = 0;
        // Rounds of 20 concurrent calls until the queue is empty.
        for (;;) {
          const results = await Promise.all(agents.map((agent, n) => post(agent, `agent-${n}`)));
          for (const [n, result] of results.entries()) {
            if (result.status === 204) {
              empty++;
              continue;
            }
            assert.equal(result.status, 200);
            const id = result.id as number;
            assert.ok(!handed.has(id), `ticket ${id} handed to ${handed.get(id)} and agent-${n}`);
            handed.set(id, `agent-${n}`);
          }
          if (results.every((result) => result.status === 204)) break;
        }
        assert.equal(handed.size, tickets, "every ready ticket handed out");
        assert.ok(empty >= 20);
        // Every claim is the one its caller got.
        const list = (await api.get(`/api/boards/${board.boardId}/tickets`)).body.tickets;
        for (const summary of list) assert.equal(summary.claim.actor, handed.get(summary.id));
        // Leases run out: the next round starts with the whole board ready again.
        advance(601);
      }
    } finally {
      for (const agent of agents) agent.destroy();
    }
  });
});
