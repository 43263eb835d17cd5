import { api, errorMessage } from "./api";
import { boardId, compareInLane, tickets } from "./board-data";
import { schedule } from "./board-sync";
import { changedLocally, moveAnswered, moveStarted } from "./local-changes";
import { toast } from "./toasts";
import type { Ticket, TicketSummary } from "./types";

// The page's writes to the open board's tickets: each answer replaces the local copy (and counts
// as the page's own change, local-changes.ts); a move shows at once and rolls back on error.

export function putTicket(ticket: TicketSummary | Ticket): void {
  changedLocally([ticket.id]);
  if (ticket.boardId !== boardId.value) {
    removeTickets([ticket.id]);
    return;
  }
  const next = new Map(tickets.value);
  next.set(ticket.id, ticket as TicketSummary);
  tickets.value = next;
}

export function putTickets(list: readonly TicketSummary[]): void {
  changedLocally(list.map((ticket) => ticket.id));
  const next = new Map(tickets.value);
  for (const ticket of list) {
    if (ticket.boardId === boardId.value) next.set(ticket.id, ticket);
    else next.delete(ticket.id);
  }
  tickets.value = next;
}

export function removeTickets(ids: readonly number[]): void {
  changedLocally(ids);
  const next = new Map(tickets.value);
  for (const id of ids) next.delete(id);
  tickets.value = next;
}

type Anchor = { beforeTicketId?: number; afterTicketId?: number; position?: number };

/** Moves a ticket (optimistically) next to the given neighbours; rolls back on error. */
export async function moveTicket(
  ticketId: number,
  laneId: number,
  anchor: Anchor,
): Promise<boolean> {
  const before = tickets.value;
  const ticket = before.get(ticketId);
  if (!ticket) return false;
  const onBoard = boardId.value;
  // Shown moved at once; until the answer comes, no refetch puts it back where it was.
  moveStarted(ticketId);
  const shown = reorderLocally(before, ticket, laneId, anchor);
  tickets.value = shown;
  try {
    const moved = await api.patch<Ticket>(`/api/tickets/${ticketId}/position`, {
      laneId,
      ...anchor,
    });
    moveAnswered(ticketId);
    putTicket(moved);
    return true;
  } catch (error) {
    moveAnswered(ticketId);
    changedLocally([ticketId]);
    tickets.value = rolledBack(tickets.value, shown, before);
    // Refetches that came during the move left the moved ticket as shown (they may have read
    // it before the move); one read now brings what changed meanwhile (a title edited
    // elsewhere), or drops it if it is gone.
    if (boardId.value === onBoard) schedule([ticketId]);
    toast(`Move failed: ${errorMessage(error)}`, "error");
    return false;
  }
}

/**
 * The page's copy after a failed move: each ticket the move showed changed (`shown` against
 * `before`) goes back to what it was, unless something replaced it since (a refetch, a write's
 * answer) or took it away, which is newer than both; everything else stays as it is now.
 */
function rolledBack(
  now: Map<number, TicketSummary>,
  shown: Map<number, TicketSummary>,
  before: Map<number, TicketSummary>,
): Map<number, TicketSummary> {
  const next = new Map(now);
  for (const [id, entry] of shown) {
    const old = before.get(id);
    if (old === entry || now.get(id) !== entry) continue;
    if (old) next.set(id, old);
    else next.delete(id);
  }
  return next;
}

/** The copy as the server will order it after the move: both lanes renumbered from 0. */
function reorderLocally(
  all: Map<number, TicketSummary>,
  ticket: TicketSummary,
  laneId: number,
  anchor: Anchor,
): Map<number, TicketSummary> {
  const next = new Map(all);
  const laneOf = (id: number) =>
    [...all.values()]
      .filter((entry) => entry.laneId === id && entry.id !== ticket.id)
      .sort(compareInLane);
  const target = laneOf(laneId);
  let index = target.length;
  if (anchor.beforeTicketId !== undefined) {
    const at = target.findIndex((entry) => entry.id === anchor.beforeTicketId);
    if (at >= 0) index = at;
  } else if (anchor.afterTicketId !== undefined) {
    const at = target.findIndex((entry) => entry.id === anchor.afterTicketId);
    if (at >= 0) index = at + 1;
  } else if (anchor.position !== undefined) {
    index = Math.min(anchor.position, target.length);
  }
  target.splice(index, 0, { ...ticket, laneId });
  const renumber = (list: TicketSummary[]) => {
    const active = list.filter((entry) => !entry.isArchived);
    const archived = list.filter((entry) => entry.isArchived);
    [...active, ...archived].forEach((entry, position) => {
      next.set(entry.id, { ...entry, position });
    });
  };
  renumber(target);
  if (ticket.laneId !== laneId) renumber(laneOf(ticket.laneId));
  return next;
}

/** PATCHes a ticket; the answer replaces the local copy. Errors become a toast and rethrow. */
export async function patchTicket(
  ticketId: number,
  changes: Record<string, unknown>,
  options: { ifMatch?: string; quiet?: boolean } = {},
): Promise<Ticket> {
  try {
    const updated = await api.patch<Ticket>(`/api/tickets/${ticketId}`, changes, {
      ifMatch: options.ifMatch,
    });
    putTicket(updated);
    return updated;
  } catch (error) {
    if (!options.quiet) toast(errorMessage(error), "error");
    throw error;
  }
}

export async function createTicket(laneId: number, title: string): Promise<Ticket | null> {
  const id = boardId.value;
  if (id === null) return null;
  try {
    const created = await api.post<Ticket>(`/api/boards/${id}/tickets`, { laneId, title });
    putTicket(created);
    return created;
  } catch (error) {
    toast(errorMessage(error), "error");
    return null;
  }
}
