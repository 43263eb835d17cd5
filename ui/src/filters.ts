import { computed, effect, signal } from "@preact/signals";
import { api } from "./api";
import { boardId, tickets } from "./board-data";
import { recall, remember } from "./prefs";
import { boardUrl, navigate, query, route } from "./router";
import type { TicketSummary } from "./types";

// Filters live in the URL (?q=&lane=&tag=&priority=&status=), so a filtered view can be shared and
// survives reload; the last filters and view of each board are remembered in localStorage.
// Lane, tag, priority and status are applied in memory; `q` is the API's search (so `#12` and
// `gh#34` mean what they mean everywhere), answered as a set of ids.

export type Status = "open" | "resolved" | "archived" | "all";

export interface Filters {
  q: string;
  lane: number | null;
  /** A tag name, or "" for "no tag". */
  tag: string | null;
  priority: number | null;
  status: Status;
}

export const DEFAULT_STATUS: Status = "all";

export const filters = computed<Filters>(() => {
  const params = query.value;
  const lane = Number(params.get("lane"));
  const priority = Number(params.get("priority"));
  const status = params.get("status");
  return {
    q: params.get("q") ?? "",
    lane: Number.isInteger(lane) && lane > 0 ? lane : null,
    tag: params.has("tag") ? (params.get("tag") ?? "") : null,
    priority: priority >= 1 && priority <= 4 ? priority : null,
    status:
      status === "open" || status === "resolved" || status === "archived" || status === "all"
        ? status
        : DEFAULT_STATUS,
  };
});

export const filtersActive = computed(() => {
  const value = filters.value;
  return (
    value.q !== "" ||
    value.lane !== null ||
    value.tag !== null ||
    value.priority !== null ||
    value.status !== DEFAULT_STATUS
  );
});

export function filtersToSearch(value: Filters): string {
  const params = new URLSearchParams();
  if (value.q) params.set("q", value.q);
  if (value.lane !== null) params.set("lane", String(value.lane));
  if (value.tag !== null) params.set("tag", value.tag);
  if (value.priority !== null) params.set("priority", String(value.priority));
  if (value.status !== DEFAULT_STATUS) params.set("status", value.status);
  return params.toString();
}

export function setFilters(changes: Partial<Filters>): void {
  const current = route.value;
  if (current.name !== "board") return;
  const next = { ...filters.value, ...changes };
  navigate(boardUrl(current.boardId, current.view, filtersToSearch(next)), { replace: true });
}

export function resetFilters(): void {
  setFilters({ q: "", lane: null, tag: null, priority: null, status: DEFAULT_STATUS });
}

/** Remembered per board: the view and the query string. */
export function rememberedView(id: number): { view: "kanban" | "list"; search: string } {
  return recall(`tack.board.${id}`, { view: "kanban", search: "" });
}

effect(() => {
  const current = route.value;
  // Only once the board is open: a bare /boards/{id} first gets its remembered filters back.
  if (current.name !== "board" || boardId.value !== current.boardId) return;
  remember(`tack.board.${current.boardId}`, {
    view: current.view,
    search: query.value.toString(),
  });
});

// ---- search through the API ------------------------------------------------------------------

/** Ids the API's `q` search matched, or null when there is no query. */
export const searchHits = signal<Set<number> | null>(null);
let searchToken = 0;

effect(() => {
  const q = filters.value.q.trim();
  const id = boardId.value;
  // Re-run after live changes too, so new matches appear.
  void tickets.value;
  const token = ++searchToken;
  if (!q || id === null) {
    searchHits.value = null;
    return;
  }
  const timer = setTimeout(async () => {
    try {
      const answer = await api.get<{ tickets: TicketSummary[] }>(
        `/api/boards/${id}/tickets?archived=all&q=${encodeURIComponent(q)}`,
      );
      if (token === searchToken) searchHits.value = new Set(answer.tickets.map((t) => t.id));
    } catch {
      if (token === searchToken) searchHits.value = new Set();
    }
  }, 120);
  return () => clearTimeout(timer);
});

/** The predicate of the current filters (status, tag, priority, lane, search hits). */
export const matches = computed(() => {
  const value = filters.value;
  const hits = searchHits.value;
  const tagName = value.tag?.toLowerCase() ?? null;
  const searching = value.q.trim() !== "";
  return (ticket: TicketSummary): boolean => {
    if (value.status === "open" && (ticket.isResolved || ticket.isArchived)) return false;
    if (value.status === "resolved" && (!ticket.isResolved || ticket.isArchived)) return false;
    if (value.status === "archived" && !ticket.isArchived) return false;
    if (value.lane !== null && ticket.laneId !== value.lane) return false;
    if (value.priority !== null && ticket.priority !== value.priority) return false;
    if (tagName !== null) {
      if (tagName === "") {
        if (ticket.tags.length > 0) return false;
      } else if (!ticket.tags.some((tag) => tag.name.toLowerCase() === tagName)) return false;
    }
    if (searching && !(hits?.has(ticket.id) ?? false)) return false;
    return true;
  };
});
