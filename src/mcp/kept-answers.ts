import type { KeptAnswers } from "../client/tack-client.js";

// GET answers `/mcp` sessions keep, parsed, with their ETag. An agent asks `ready` again and
// again; while the board did not change, the API answers 304 and the tool reuses the list it
// parsed before instead of taking the whole list through inject and JSON.parse once more
// (docs/performance.md, "MCP: `ready` at `/mcp`"). Every request still reaches the API, so its
// guards, a revoked token, and a claim that expired by the clock (part of the board's ETag) apply
// as ever.
//
// One store serves every session: an answer's ETag names its content for that path, whoever
// asks, so sessions share it rather than each keeping its own copy of a large board.

/** Text length kept in all (parsed objects take about two to three times as many bytes). */
export const KEPT_ANSWERS_MAX_CHARS = 8 * 1024 * 1024;

export class KeptAnswerStore implements KeptAnswers {
  private readonly entries = new Map<string, { etag: string; body: unknown; size: number }>();
  private size = 0;

  constructor(private readonly maxChars = KEPT_ANSWERS_MAX_CHARS) {}

  get(path: string): { etag: string; body: unknown } | undefined {
    const entry = this.entries.get(path);
    if (!entry) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(path);
    this.entries.set(path, entry);
    return entry;
  }

  set(path: string, etag: string, body: unknown, size: number): unknown {
    // Handed to every session's tools from now on: frozen, so no tool can change what others see.
    deepFreeze(body);
    this.drop(path);
    if (size > this.maxChars) return body;
    this.entries.set(path, { etag, body, size });
    this.size += size;
    for (const [oldest] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.drop(oldest);
    }
    return body;
  }

  private drop(path: string): void {
    const entry = this.entries.get(path);
    if (!entry) return;
    this.entries.delete(path);
    this.size -= entry.size;
  }
}

function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}
