import assert from "node:assert/strict";
import { after } from "node:test";
import type { TestServer } from "../helpers/server.js";
import { SseClient, sleep } from "../helpers/sse-client.js";

// What the board stream test files (board-stream-*.test.ts) share: boards, stream clients closed
// when the file ends, and a count of messages that would see an extra one.

export function streamClients(api: TestServer) {
  const open: SseClient[] = [];
  after(() => {
    for (const client of open) client.close();
  });

  async function createBoard(name = "stream"): Promise<{ boardId: number; laneIds: number[] }> {
    const created = await api.post("/api/boards", { name });
    assert.equal(created.status, 201);
    return {
      boardId: created.body.board.id,
      laneIds: created.body.lanes.map((lane: { id: number }) => lane.id),
    };
  }

  async function connect(
    server: TestServer | { url: string },
    boardId: number,
    headers: Record<string, string> = {},
  ): Promise<SseClient> {
    const client = await SseClient.open(`${server.url}/api/boards/${boardId}/events`, headers);
    open.push(client);
    if (client.status === 200) await client.waitUntil(() => client.comments.includes("connected"));
    return client;
  }

  return { connect, createBoard, open };
}

/**
 * Every message of a request is written before its response returns; this waits for the expected
 * count and then a little longer, so an extra message would be seen.
 */
export async function expectMessageCount(client: SseClient, count: number): Promise<void> {
  await client.waitForMessages(count);
  await sleep(60);
  assert.equal(client.messages.length, count);
}
