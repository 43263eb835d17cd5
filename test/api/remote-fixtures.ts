// Shared setup of the remote-*.test.ts files: tokens, credential environments and small
// builders over the public API. Remote issues live in the fake providers of test/fakes.

import assert from "node:assert/strict";
import type { ApiResponse, TestServer } from "../helpers/server.js";

/** Distinctive values, so a leak anywhere is found by a plain substring search. */
export const TOKENS = {
  github: "ghp_tackRemoteTestWrite0001",
  githubReadOnly: "ghp_tackRemoteTestRead0002",
  gitlab: "glpat-tackRemoteTestWrite0003",
  gitlabReadOnly: "glpat-tackRemoteTestRead0004",
  redmine: "rmkeytackRemoteTestWrite0005",
  redmineReadOnly: "rmkeytackRemoteTestRead0006",
} as const;

export const ALL_TOKENS: readonly string[] = Object.values(TOKENS);

/** The environment tack reads credentials from: `{ "<provider>:<instance>": token }`. */
export function credentialsEnv(
  credentials: Record<string, string>,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { TACK_REMOTE_CREDENTIALS: JSON.stringify(credentials), ...extra };
}

export interface BoardLanes {
  boardId: number;
  name: string;
  laneIds: number[];
}

export async function createBoard(api: TestServer, name = "Work"): Promise<BoardLanes> {
  const response = await api.post("/api/boards", { name });
  assert.equal(response.status, 201, response.text);
  return {
    boardId: response.body.board.id,
    name,
    laneIds: response.body.lanes.map((lane: { id: number }) => lane.id),
  };
}

/** Imports and asserts 201; returns the Ticket. */
export async function importIssue(
  api: TestServer,
  board: BoardLanes,
  reference: Record<string, unknown>,
): Promise<any> {
  const response = await api.post(`/api/boards/${board.boardId}/remote-import`, {
    laneId: board.laneIds[0],
    ...reference,
  });
  assert.equal(response.status, 201, response.text);
  return response.body;
}

export async function addComment(api: TestServer, ticketId: number, bodyMarkdown: string) {
  const response = await api.post(`/api/tickets/${ticketId}/comments`, { bodyMarkdown });
  assert.equal(response.status, 201, response.text);
  return response.body as { id: number; sync: { status: string } };
}

/** Activity of a ticket, newest first. */
export async function activityOf(api: TestServer, ticketId: number): Promise<any[]> {
  const response = await api.get(`/api/tickets/${ticketId}/activity`);
  assert.equal(response.status, 200, response.text);
  return response.body.activity;
}

export async function actionsOf(api: TestServer, ticketId: number): Promise<string[]> {
  return (await activityOf(api, ticketId)).map((entry) => entry.action);
}

export async function ticketCount(api: TestServer, boardId: number): Promise<number> {
  const response = await api.get(`/api/boards/${boardId}/tickets?archived=all`);
  assert.equal(response.status, 200, response.text);
  return response.body.tickets.length;
}

/**
 * An error response that is exactly `{ error: message }`. For messages naming a loopback
 * instance ("… at http://127.0.0.1:<port>"), which the shared assertError's stack-trace
 * heuristic (`at <something>:<digits>`) would mistake for a stack frame.
 */
export function assertErrorBody(response: ApiResponse, status: number, message: string): void {
  assert.equal(response.status, status, response.text);
  assert.deepEqual(response.body, { error: message });
}
