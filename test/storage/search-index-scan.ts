import assert from "node:assert/strict";
import { searchTextOf } from "../../src/domain/search-text.js";
import { parseTicketSearch } from "../../src/domain/tickets/ticket-search.js";

// What the search index test files (search-index-*.test.ts) compare the index's answers with.

export interface Known {
  id: number;
  title: string;
  bodyMarkdown: string;
  references: Array<{ kind: string; provider: string; issueKey: string; searchText: string }>;
}

/** docs/api.md, "Search", applied to every ticket: the answer the index must give. */
export function scan(tickets: readonly Known[], q: string): number[] {
  const search = parseTicketSearch(q);
  if (!search) return tickets.map((ticket) => ticket.id).sort((a, b) => a - b);
  const ascii = (value: string) => value.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return tickets
    .filter((ticket) => {
      const own = searchTextOf(ticket.title, ticket.bodyMarkdown).includes(search.text);
      if (search.kind === "id") return ticket.id === search.id || own;
      if (search.kind === "text") {
        return (
          own ||
          `#${ticket.id}`.includes(search.text) ||
          ticket.references.some((reference) => reference.searchText.includes(search.text))
        );
      }
      return (
        own ||
        (search.external &&
          ticket.references.some(
            (reference) =>
              ascii(reference.issueKey) === ascii(search.key) &&
              (search.provider === null || ascii(reference.provider) === search.provider),
          ))
      );
    })
    .map((ticket) => ticket.id)
    .sort((a, b) => a - b);
}

/** Polls (no timing assertion: only a guard against waiting forever). */
export async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, "gave up waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
