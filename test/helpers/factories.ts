import assert from "node:assert/strict";
import type { ApiResponse, TestServer } from "./server.js";

/** Data builders over the public API: each asserts its own success so tests read as intent. */

export interface BoardShellBody {
  board: { id: number; name: string; position: number; createdAt: string; updatedAt: string };
  lanes: { id: number; boardId: number; name: string; position: number; wipLimit: number | null }[];
  tags: { id: number; boardId: number; name: string; color: string }[];
}

export async function createBoard(
  api: TestServer,
  name = "Board",
  laneNames?: string[],
): Promise<BoardShellBody> {
  const response = await api.post("/api/boards", laneNames ? { name, laneNames } : { name });
  assert.equal(response.status, 201, response.text);
  return response.body;
}

export async function createLane(api: TestServer, boardId: number, name: string) {
  const response = await api.post(`/api/boards/${boardId}/lanes`, { name });
  assert.equal(response.status, 201, response.text);
  return response.body as BoardShellBody["lanes"][number];
}

export async function createTag(api: TestServer, boardId: number, name: string, color?: string) {
  const response = await api.post(
    `/api/boards/${boardId}/tags`,
    color === undefined ? { name } : { name, color },
  );
  assert.equal(response.status, 201, response.text);
  return response.body as BoardShellBody["tags"][number];
}

export async function createTicket(
  api: TestServer,
  boardId: number,
  fields: { laneId: number; title: string } & Record<string, unknown>,
) {
  const response = await api.post(`/api/boards/${boardId}/tickets`, fields);
  assert.equal(response.status, 201, response.text);
  return response.body as { id: number; boardId: number; laneId: number; title: string };
}

/** Awaits a request, asserts its status (200 unless given) and answers its body. */
export const ok = async <T = any>(
  response: Promise<{ status: number; body: T; text: string }>,
  status = 200,
) => {
  const result = await response;
  assert.equal(result.status, status, result.text);
  return result.body;
};

/** Asserts an error response: the status, and a body that is exactly `{ error: <string> }`. */
export function assertError(
  response: ApiResponse | { status: number; body: any; text: string },
  status: number,
  message?: string | RegExp,
): void {
  assert.equal(response.status, status, response.text);
  assert.deepEqual(Object.keys(response.body ?? {}), ["error"], response.text);
  assert.equal(typeof response.body.error, "string");
  assert.ok(response.body.error.length > 0);
  // One short sentence: never a stack trace, SQL or a library's multi-line dump.
  assert.doesNotMatch(response.body.error, /\n|\(\S+:\d+:\d+\)|SQLITE|sqlite/);
  if (typeof message === "string") assert.equal(response.body.error, message);
  else if (message) assert.match(response.body.error, message);
}

/**
 * Everything the board endpoints can show (boards, shells, every ticket), for "nothing changed"
 * assertions after a refused request.
 */
export async function snapshot(api: TestServer): Promise<unknown> {
  const boards = (await api.get("/api/boards")).body.boards as { id: number }[];
  return {
    boards,
    details: await Promise.all(
      boards.map(async (board) => ({
        shell: (await api.get(`/api/boards/${board.id}`)).body,
        tickets: (await api.get(`/api/boards/${board.id}/tickets?archived=all`)).body,
      })),
    ),
  };
}
