import assert from "node:assert/strict";
import { test } from "node:test";
import { createBoard, createTicket } from "../helpers/factories.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/**
 * An id, once used, never names anything else: for every resource, deleting the row with the
 * highest id and creating another must give a new, higher id, also across a restart and a board
 * import. (SQLite without AUTOINCREMENT hands the highest id out again.)
 */

interface Kind {
  name: string;
  /** Creates one resource on the given board and returns its id. */
  create(api: TestServer, boardId: number, laneId: number, ticketId: number): Promise<number>;
  /** Removes it (directly or through its parent) so that its id is no longer in use. */
  remove(api: TestServer, id: number): Promise<void>;
}

async function ok(response: Promise<{ status: number; text: string }>) {
  const answer = await response;
  assert.ok(answer.status < 300, answer.text);
  return answer as any;
}

const kinds: Kind[] = [
  {
    name: "board",
    create: async (api) => (await createBoard(api, "b")).board.id,
    remove: async (api, id) => void (await ok(api.delete(`/api/boards/${id}`))),
  },
  {
    name: "lane",
    create: async (api, boardId) =>
      (await ok(api.post(`/api/boards/${boardId}/lanes`, { name: "l" }))).body.id,
    remove: async (api, id) => void (await ok(api.delete(`/api/lanes/${id}`))),
  },
  {
    name: "tag",
    create: async (api, boardId) =>
      (await ok(api.post(`/api/boards/${boardId}/tags`, { name: `t${Math.random()}` }))).body.id,
    remove: async (api, id) => void (await ok(api.delete(`/api/tags/${id}`))),
  },
  {
    name: "ticket",
    create: async (api, boardId, laneId) =>
      (await createTicket(api, boardId, { laneId, title: "t" })).id,
    remove: async (api, id) => void (await ok(api.delete(`/api/tickets/${id}`))),
  },
  {
    name: "comment",
    create: async (api, _b, _l, ticketId) =>
      (await ok(api.post(`/api/tickets/${ticketId}/comments`, { bodyMarkdown: "c" }))).body.id,
    remove: async (api, id) => void (await ok(api.delete(`/api/comments/${id}`))),
  },
  {
    name: "ticket event",
    // Events go with their ticket, so each hangs on a ticket of its own, deleted to remove it.
    create: async (api, boardId, laneId) => {
      const owner = await createTicket(api, boardId, { laneId, title: "holder" });
      const event = (
        await ok(
          api.post(`/api/tickets/${owner.id}/events`, { source: "ci", kind: "run", title: "e" }),
        )
      ).body;
      eventOwners.set(event.id, owner.id);
      return event.id;
    },
    remove: async (api, id) => {
      const owner = eventOwners.get(id) as number;
      await ok(api.delete(`/api/tickets/${owner}`));
    },
  },
  {
    name: "external reference",
    create: async (api, _b, _l, ticketId) => {
      const kind = `k${Math.floor(Math.random() * 1e9)}`;
      const ticket = (
        await ok(
          api.put(`/api/tickets/${ticketId}/external-references/${kind}`, {
            provider: "github",
            instanceUrl: "https://github.com",
            projectKey: "o/r",
            issueKey: "1",
            displayRef: "o/r#1",
            url: "https://github.com/o/r/issues/1",
          }),
        )
      ).body;
      const reference = ticket.externalReferences.find((r: any) => r.kind === kind);
      referenceOwners.set(reference.id, { ticketId, kind });
      return reference.id;
    },
    remove: async (api, id) => {
      const { ticketId, kind } = referenceOwners.get(id) as { ticketId: number; kind: string };
      await ok(api.delete(`/api/tickets/${ticketId}/external-references/${kind}`));
    },
  },
];
const eventOwners = new Map<number, number>();
const referenceOwners = new Map<number, { ticketId: number; kind: string }>();

/** A board with a lane and a fresh ticket to hang comments, events and references on. */
async function workspace(api: TestServer) {
  const shell = await createBoard(api, "work", ["todo"]);
  const laneId = shell.lanes[0]?.id as number;
  const ticket = await createTicket(api, shell.board.id, { laneId, title: "holder" });
  return { boardId: shell.board.id, laneId, ticketId: ticket.id };
}

for (const kind of kinds) {
  test(`a deleted ${kind.name}'s id is never given again, also after a restart`, async () => {
    const api = await startTestServer();
    const place = await workspace(api);
    const create = (server: TestServer) =>
      kind.create(server, place.boardId, place.laneId, place.ticketId);
    const first = await create(api);
    const highest = await create(api);
    assert.ok(highest > first);
    await kind.remove(api, highest);
    const next = await create(api);
    assert.ok(next > highest, `${kind.name}: got ${next} after deleting ${highest}`);

    await kind.remove(api, next);
    await api.close();
    const restarted = await startTestServer({ dbFile: api.dbFile });
    const afterRestart = await create(restarted);
    assert.ok(afterRestart > next, `${kind.name} after restart: ${afterRestart} <= ${next}`);
  });
}

test("a board import never gives out ids of deleted boards, lanes, tags, tickets or comments", async () => {
  const api = await startTestServer();
  const source = await workspace(api);
  const tag = (await ok(api.post(`/api/boards/${source.boardId}/tags`, { name: "x" }))).body;
  await ok(api.patch(`/api/tickets/${source.ticketId}`, { tagIds: [tag.id] }));
  const comment = (
    await ok(api.post(`/api/tickets/${source.ticketId}/comments`, { bodyMarkdown: "c" }))
  ).body;
  const exported = (await ok(api.get(`/api/boards/${source.boardId}/export`))).body;
  const shell = (await ok(api.get(`/api/boards/${source.boardId}`))).body;
  await ok(api.delete(`/api/boards/${source.boardId}`));

  const imported = (await ok(api.post("/api/boards/import", exported))).body;
  assert.ok(imported.board.id > source.boardId);
  assert.ok(
    Math.min(...imported.lanes.map((l: any) => l.id)) >
      Math.max(...shell.lanes.map((l: any) => l.id)),
  );
  assert.ok(imported.tags[0].id > tag.id);
  const ticket = imported.tickets[0];
  assert.ok(ticket.id > source.ticketId);
  const comments = (await ok(api.get(`/api/tickets/${ticket.id}/comments`))).body.comments;
  assert.ok(comments[0].id > comment.id);
});

test("activity ids of a deleted board are never given again", async () => {
  const api = await startTestServer();
  const gone = await workspace(api);
  const lastActivity = (await ok(api.get(`/api/tickets/${gone.ticketId}/activity`))).body
    .activity[0];
  await ok(api.delete(`/api/boards/${gone.boardId}`));
  const kept = await workspace(api);
  const activity = (await ok(api.get(`/api/tickets/${kept.ticketId}/activity`))).body.activity;
  assert.ok(activity[0].id > lastActivity.id);
});
