import assert from "node:assert/strict";
import { createBoard } from "./factories.js";
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
