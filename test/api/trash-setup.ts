import assert from "node:assert/strict";
import { after } from "node:test";
import { useClock } from "../../src/domain/clock.js";
import { assertError } from "../helpers/factories.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

// The requests the trash test files (trash-*.test.ts) repeat, each asserting its own success.

export const DAY = 24 * 60 * 60 * 1000;
/** The trash files' clock, where it stands still. */
export const TRASH_CLOCK = Date.parse("2030-01-01T00:00:00.000Z");

/** A server for a trash file whose clock stands at TRASH_CLOCK (restored when the file ends). */
export async function trashTestServer() {
  const api = await startTestServer();
  after(useClock(() => TRASH_CLOCK));
  return { api, ...trashRequests(api) };
}

export function trashRequests(api: TestServer) {
  async function trash(query = ""): Promise<any[]> {
    const response = await api.get(`/api/trash${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body.items;
  }

  /** The trash entry of the object just deleted. */
  async function entryOf(kind: string, objectId: number): Promise<any> {
    const entry = (await trash()).find((item) => item.kind === kind && item.objectId === objectId);
    assert.ok(entry, `no trash entry for ${kind} ${objectId}`);
    return entry;
  }

  async function restore(entryId: number) {
    return api.post(`/api/trash/${entryId}/restore`);
  }

  async function deleted(path: string) {
    const response = await api.delete(path);
    assert.equal(response.status, 204, response.text);
    assertError(await api.get(path), 404);
  }

  return { deleted, entryOf, restore, trash };
}

export const without = (object: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
