import type { TicketSearch } from "../domain/tickets/ticket-search.js";
import { INDEXED_CANDIDATES } from "./migrations/007-search-index-parts.js";
import { trigramMatch } from "./search-index.js";

// The SQL of the board list's filters and search (docs/api.md, "Search"): the conditions a
// filter adds, the shape that names one prepared statement per combination, and the parameters
// that fill it. The ticket store (tickets.ts) prepares and caches what is built here.

/** Filters of the board list; every one present narrows the result (AND). */
export interface TicketListFilter {
  laneId?: number;
  isResolved?: boolean;
  archived: "active" | "archived" | "all";
  /** Folded tag name (names.ts nameKey). */
  tagKey?: string;
  search?: TicketSearch;
}

/** The part of a search that changes the SQL text (the rest are parameters). */
function searchShape(search: TicketSearch): string {
  const indexed = usesIndex(search);
  if (search.kind !== "reference") return `${search.kind}:${indexed}`;
  return `reference:${indexed}:${search.provider !== null}:${search.remote}:${search.external}`;
}

/**
 * Whether the trigram index can find the candidates: the query has 3+ characters, and (plain
 * text) cannot be part of a `#id` (those are matched against every ticket's id, as before).
 */
function usesIndex(search: TicketSearch): boolean {
  if (trigramMatch(search.text) === null) return false;
  return search.kind !== "text" || !/^#?\d*$/.test(search.text);
}

/** The filters `matchingIds` applies (tag and search). */
export type TicketMatchFilter = Pick<TicketListFilter, "tagKey" | "search">;

const TAGGED = `EXISTS (SELECT 1 FROM ticket_tags tt JOIN tags g ON g.id = tt.tag_id
  WHERE tt.ticket_id = t.id AND g.name_key = @tagKey)`;

/** Tickets whose indexed text may contain @match, and every ticket not indexed yet. */
const INDEX_CANDIDATES = `${INDEXED_CANDIDATES}
  UNION ALL SELECT ticket_id FROM ticket_search_pending`;

/**
 * A ticket's own text as search matches it: the folded title and body joined by a line break,
 * either left out when empty (domain/search-text.ts `searchTextOf`).
 */
const TICKET_TEXT = `CASE WHEN t.title_search = '' THEN x.search_text
  WHEN x.search_text = '' THEN t.title_search
  ELSE t.title_search || char(10) || x.search_text END`;

/**
 * `@text` occurs in TICKET_TEXT. Without a line break it occurs there exactly when it occurs in
 * the title's or the body's text, which needs no joined copy; only a query with one (rare) is
 * matched against the joined text, since it may span the two.
 */
const IN_TICKET = `(instr(t.title_search, @text) > 0 OR instr(x.search_text, @text) > 0
  OR (instr(@text, char(10)) > 0 AND instr(${TICKET_TEXT}, @text) > 0))`;

/**
 * The `q` condition (docs/api.md, "Search"). `search_text` columns hold folded text, and `@text` is
 * folded the same way, so `instr` gives a literal, Unicode case-insensitive substring match.
 * With 3+ characters the trigram index (storage/search-index.ts) narrows the tickets first; the
 * same `instr` conditions then decide, so the index changes the cost, never the answer.
 */
function searchCondition(search: TicketSearch, mayUseIndex: boolean): string {
  const inTicket = IN_TICKET;
  const indexed = mayUseIndex && usesIndex(search);
  if (search.kind === "id") {
    const exact = `(t.id = @id OR ${inTicket})`;
    return indexed ? `t.id IN (SELECT @id UNION ALL ${INDEX_CANDIDATES}) AND ${exact}` : exact;
  }
  const inReferences = `EXISTS (SELECT 1 FROM remote_links r
                 WHERE r.ticket_id = t.id AND instr(r.search_text, @text) > 0)
      OR EXISTS (SELECT 1 FROM external_references e
                 WHERE e.ticket_id = t.id AND instr(e.search_text, @text) > 0)`;
  if (search.kind === "text") {
    // An indexed query is never part of a `#id`, so the id condition is left out.
    if (indexed) return `t.id IN (${INDEX_CANDIDATES}) AND (${inTicket} OR ${inReferences})`;
    return `(${inTicket} OR instr('#' || t.id, @text) > 0 OR ${inReferences})`;
  }
  const sources: string[] = [inTicket];
  const keyed: string[] = [];
  const provider = (alias: string) =>
    search.provider === null ? "" : `AND lower(${alias}.provider) = @provider`;
  if (search.remote) {
    const match = `r.issue_key = @key COLLATE NOCASE ${provider("r")}`;
    sources.push(`EXISTS (SELECT 1 FROM remote_links r WHERE r.ticket_id = t.id AND ${match})`);
    keyed.push(`SELECT r.ticket_id FROM remote_links r WHERE ${match}`);
  }
  if (search.external) {
    const match = `e.issue_key = @key COLLATE NOCASE ${provider("e")}`;
    sources.push(
      `EXISTS (SELECT 1 FROM external_references e WHERE e.ticket_id = t.id AND ${match})`,
    );
    keyed.push(`SELECT e.ticket_id FROM external_references e WHERE ${match}`);
  }
  const exact = `(${sources.join(" OR ")})`;
  if (!indexed) return exact;
  return `t.id IN (${[INDEX_CANDIDATES, ...keyed].join(" UNION ALL ")}) AND ${exact}`;
}

export function listParameters(
  filter: TicketListFilter,
  mayUseIndex = true,
): Record<string, unknown> {
  const parameters: Record<string, unknown> = {};
  if (filter.laneId !== undefined) parameters.laneId = filter.laneId;
  if (filter.isResolved !== undefined) parameters.isResolved = filter.isResolved ? 1 : 0;
  if (filter.archived !== "all") parameters.isArchived = filter.archived === "archived" ? 1 : 0;
  if (filter.tagKey !== undefined) parameters.tagKey = filter.tagKey;
  const search = filter.search;
  if (search) {
    parameters.text = search.text;
    if (mayUseIndex && usesIndex(search)) parameters.match = trigramMatch(search.text);
    if (search.kind === "id") parameters.id = search.id;
    if (search.kind === "reference") {
      parameters.key = search.key;
      if (search.provider !== null) parameters.provider = search.provider;
    }
  }
  return parameters;
}

/**
 * The board list's conditions for this filter (its values are parameters: `listParameters`),
 * and whether they read the text rows (only a search does).
 */
export function listConditions(filter: TicketListFilter): { where: string[]; readsText: boolean } {
  const where = ["t.board_id = @boardId"];
  if (filter.laneId !== undefined) where.push("t.lane_id = @laneId");
  if (filter.isResolved !== undefined) where.push("t.is_resolved = @isResolved");
  if (filter.archived !== "all") where.push("t.is_archived = @isArchived");
  if (filter.tagKey !== undefined) where.push(TAGGED);
  if (filter.search) where.push(searchCondition(filter.search, true));
  return { where, readsText: filter.search !== undefined };
}

/** What tells two filters' list statements apart: one prepared statement per shape. */
export function listShape(filter: TicketListFilter): string {
  return JSON.stringify([
    filter.laneId !== undefined,
    filter.isResolved !== undefined,
    filter.archived === "all",
    filter.tagKey !== undefined,
    filter.search ? searchShape(filter.search) : null,
  ]);
}

/**
 * The conditions of `matchingIds`: of the whole board (the search's index narrowing first), or
 * among given ids (`@ids`, a JSON array; by id, the exact test alone).
 */
export function matchConditions(
  filter: TicketMatchFilter,
  among: boolean,
): { where: string[]; readsText: boolean } {
  const where = ["t.board_id = @boardId"];
  if (among) where.push("t.id IN (SELECT value FROM json_each(@ids))");
  if (filter.tagKey !== undefined) where.push(TAGGED);
  if (filter.search) where.push(searchCondition(filter.search, !among));
  return { where, readsText: filter.search !== undefined };
}

export function matchShape(filter: TicketMatchFilter, among: boolean): string {
  return JSON.stringify([
    among,
    filter.tagKey !== undefined,
    filter.search ? searchShape(filter.search) : null,
  ]);
}

/** The parameters of `matchConditions`: the index is used only over the whole board. */
export function matchParameters(
  boardId: number,
  filter: TicketMatchFilter,
  ids: Iterable<number> | undefined,
): Record<string, unknown> {
  const only: TicketListFilter = { archived: "all" };
  if (filter.tagKey !== undefined) only.tagKey = filter.tagKey;
  if (filter.search) only.search = filter.search;
  const parameters = listParameters(only, ids === undefined);
  parameters.boardId = boardId;
  if (ids !== undefined) parameters.ids = JSON.stringify([...ids]);
  return parameters;
}
