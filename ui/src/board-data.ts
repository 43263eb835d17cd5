import { computed, signal } from "@preact/signals";
import { api } from "./api";
import type { Board, BoardShell, Lane, Meta, Tag, TicketSummary } from "./types";

// The one client-side copy of what the server holds for the open board, as signals. Tickets are
// kept as a Map of summaries (the board list answer); a single-ticket answer (a superset) replaces
// its entry. The server's order is the truth: every write answers (ticket-writes.ts), and the
// stream triggers a refetch (board-sync.ts).

export const meta = signal<Meta | null>(null);
export const boards = signal<Board[]>([]);
export const boardId = signal<number | null>(null);
export const board = signal<Board | null>(null);
export const lanes = signal<Lane[]>([]);
export const tags = signal<Tag[]>([]);
export const tickets = signal<Map<number, TicketSummary>>(new Map());
export const loading = signal(false);
/**
 * While the open board's ticket list is still arriving (board-sync.ts reads it in board order,
 * lane by lane): the lane of the latest summary in, null before the first. Lanes before it are
 * complete, it and the ones after it may get more. `undefined`: the whole list is in.
 */
export const arrivingLaneId = signal<number | null | undefined>(undefined);
export const loadError = signal<string | null>(null);
/** Bumped when a ticket changed on the server (stream): open dialogs compare versions. */
export const remoteChange = signal<{ ticketIds: number[] | null; at: number }>({
  ticketIds: null,
  at: 0,
});
export const streamState = signal<"connecting" | "live" | "offline">("connecting");
/** Bumped on every message of the open board's stream (the Insights view refetches on it). */
export const streamMessages = signal(0);

/**
 * Tickets per lane in board order (docs/api.md, "Ordering": non-archived first, then position, then
 * id).
 */
export const ticketsByLane = computed(() => {
  const byLane = new Map<number, TicketSummary[]>();
  for (const lane of lanes.value) byLane.set(lane.id, []);
  for (const ticket of tickets.value.values()) byLane.get(ticket.laneId)?.push(ticket);
  for (const list of byLane.values()) list.sort(compareInLane);
  return byLane;
});

/** Lanes whose tickets may still be arriving (see `arrivingLaneId`). */
export const lanesArriving = computed(() => {
  const arriving = arrivingLaneId.value;
  if (arriving === undefined) return new Set<number>();
  const list = lanes.value;
  const from =
    arriving === null
      ? 0
      : Math.max(
          0,
          list.findIndex((lane) => lane.id === arriving),
        );
  return new Set(list.slice(from).map((lane) => lane.id));
});

/** How many children each ticket of the open board has (one pass, not one per card shown). */
export const childCounts = computed(() => {
  const counts = new Map<number, number>();
  for (const ticket of tickets.value.values()) {
    const parent = ticket.parentTicketId;
    if (parent !== null) counts.set(parent, (counts.get(parent) ?? 0) + 1);
  }
  return counts;
});

export function compareInLane(a: TicketSummary, b: TicketSummary): number {
  if (a.isArchived !== b.isArchived) return a.isArchived ? 1 : -1;
  return a.position - b.position || a.id - b.id;
}

export async function loadMeta(): Promise<void> {
  try {
    meta.value = await api.get<Meta>("/api/meta");
  } catch {
    meta.value = null;
  }
}

export async function loadBoards(): Promise<void> {
  const answer = await api.get<{ boards: Board[] }>("/api/boards");
  boards.value = answer.boards;
}

/** Shows a board's shell (its lanes in position order, its tags) and updates its sidebar entry. */
export function applyShell(shell: BoardShell): void {
  board.value = shell.board;
  lanes.value = [...shell.lanes].sort((a, b) => a.position - b.position || a.id - b.id);
  tags.value = shell.tags;
  boards.value = boards.value.map((entry) => (entry.id === shell.board.id ? shell.board : entry));
}
