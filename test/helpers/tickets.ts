import assert from "node:assert/strict";
import { createBoard, createTag } from "./factories.js";
import type { TestServer } from "./server.js";

/** Small builders shared by the ticket test files (test/api/tickets-*.test.ts). */

export interface BoardFixture {
  boardId: number;
  name: string;
  laneIds: number[];
  /** The id of the lane with this name. */
  lane(name: string): number;
}

export async function boardWithLanes(
  api: TestServer,
  name = "Board",
  laneNames = ["todo", "doing", "done"],
): Promise<BoardFixture> {
  const shell = await createBoard(api, name, laneNames);
  return {
    boardId: shell.board.id,
    name: shell.board.name,
    laneIds: shell.lanes.map((lane) => lane.id),
    lane(laneName: string) {
      const lane = shell.lanes.find((candidate) => candidate.name === laneName);
      assert.ok(lane, `no lane ${laneName}`);
      return lane.id;
    },
  };
}

/** Creates a ticket and answers the full Ticket (`laneId` may come from an indexed array). */
export async function newTicket(
  api: TestServer,
  boardId: number,
  laneId: number | undefined,
  title: string,
  fields: Record<string, unknown> = {},
): Promise<any> {
  assert.ok(laneId !== undefined, "newTicket needs a lane");
  const response = await api.post(`/api/boards/${boardId}/tickets`, { laneId, title, ...fields });
  assert.equal(response.status, 201, response.text);
  return response.body;
}

export async function getTicket(api: TestServer, ticketId: number): Promise<any> {
  const response = await api.get(`/api/tickets/${ticketId}`);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

export async function patchTicket(
  api: TestServer,
  ticketId: number,
  body: Record<string, unknown>,
): Promise<any> {
  const response = await api.patch(`/api/tickets/${ticketId}`, body);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** The board list with an optional query string (without the `?`). */
export async function listTickets(api: TestServer, boardId: number, query = ""): Promise<any[]> {
  const response = await api.get(`/api/boards/${boardId}/tickets${query ? `?${query}` : ""}`);
  assert.equal(response.status, 200, response.text);
  return response.body.tickets;
}

export const idsOf = (items: Array<{ id: number }>) => items.map((item) => item.id);

/** `[laneId, position, id]` of each ticket, to assert lane layouts compactly. */
export const layout = (items: Array<{ id: number; laneId: number; position: number }>) =>
  items.map((item) => [item.laneId, item.position, item.id]);

export type TicketSpec = string | ({ title: string } & Record<string, unknown>);

/**
 * A board (lanes todo, doing, done) whose first lane holds one ticket per spec, created in order,
 * so their positions follow the list: a title, or a title with other fields. A count gives
 * tickets t0, t1, ... Answers the board, the created Tickets and their ids.
 */
export async function boardWithTickets(
  api: TestServer,
  name: string,
  specs: number | TicketSpec[],
): Promise<{ board: BoardFixture; tickets: any[]; ids: number[] }> {
  const board = await boardWithLanes(api, name);
  const list = typeof specs === "number" ? Array.from({ length: specs }, (_, i) => `t${i}`) : specs;
  const tickets = [];
  for (const spec of list) {
    const { title, ...fields } = typeof spec === "string" ? { title: spec } : spec;
    tickets.push(await newTicket(api, board.boardId, board.laneIds[0], title, fields));
  }
  return { board, tickets, ids: idsOf(tickets) };
}

/**
 * A board where one ticket (`rich`) holds everything a ticket can: body, priority, a parent,
 * two tags (one with a reason pointing at a comment), blockers both ways, a related ticket, two
 * comments, an event and an external reference; with neighbours before and after it in its lane.
 * For "comes back exactly" and "is carried over whole" tests.
 */
export async function ticketWithEverything(api: TestServer, name: string) {
  const board = await boardWithLanes(api, name);
  const [todo, doing] = board.laneIds;
  const tag = await createTag(api, board.boardId, `${name}-bug`, "#ff0000");
  const other = await createTag(api, board.boardId, `${name}-ui`);
  const parent = await newTicket(api, board.boardId, doing, "parent");
  const before = await newTicket(api, board.boardId, doing, "before");
  const rich = await newTicket(api, board.boardId, doing, "rich", {
    bodyMarkdown: "# body\n\ntext",
    priority: 4,
    parentTicketId: parent.id,
    tagIds: [tag.id, other.id],
  });
  const afterIt = await newTicket(api, board.boardId, doing, "after");
  const blocker = await newTicket(api, board.boardId, todo, "blocker");
  const blocked = await newTicket(api, board.boardId, todo, "blocked");
  const related = await newTicket(api, board.boardId, todo, "related");
  await patchTicket(api, rich.id, { blockerIds: [blocker.id], relatedIds: [related.id] });
  await patchTicket(api, blocked.id, { blockerIds: [rich.id] });
  const comment = await api.post(`/api/tickets/${rich.id}/comments`, { bodyMarkdown: "first" });
  assert.equal(comment.status, 201, comment.text);
  await api.post(`/api/tickets/${rich.id}/comments`, { bodyMarkdown: "second\nline" });
  const reason = await api.post(`/api/tickets/${rich.id}/tags/${tag.id}`, {
    reason: "seen in logs",
    details: { count: 3 },
    reasonCommentId: comment.body.id,
  });
  assert.equal(reason.status, 200, reason.text);
  const event = await api.post(`/api/tickets/${rich.id}/events`, {
    source: "ci",
    kind: "build",
    title: "failed",
    data: { run: 7 },
  });
  assert.equal(event.status, 201, event.text);
  const reference = await api.put(`/api/tickets/${rich.id}/external-references/origin`, {
    provider: "github",
    instanceUrl: "https://github.com",
    projectKey: "acme/app",
    issueKey: "42",
    displayRef: "acme/app#42",
    url: "https://github.com/acme/app/issues/42",
  });
  assert.equal(reference.status, 200, reference.text);
  return {
    board,
    tag,
    other,
    parent,
    before,
    rich,
    afterIt,
    blocker,
    blocked,
    related,
    todo,
    doing,
  };
}

/** Everything a client can read about a ticket: itself and each of its sub-resources. */
export async function everythingAbout(api: TestServer, ticketId: number) {
  const get = async (path: string) => {
    const response = await api.get(path);
    assert.equal(response.status, 200, `${path}: ${response.text}`);
    return response.body;
  };
  return {
    ticket: await get(`/api/tickets/${ticketId}`),
    comments: await get(`/api/tickets/${ticketId}/comments`),
    events: await get(`/api/tickets/${ticketId}/events`),
    reasons: await get(`/api/tickets/${ticketId}/tag-reasons`),
    relations: await get(`/api/tickets/${ticketId}/relations`),
    activity: (await get(`/api/tickets/${ticketId}/activity`)).activity,
  };
}
