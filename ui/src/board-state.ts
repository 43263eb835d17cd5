import { computed, signal } from "@preact/signals";
import { lanes, tickets, ticketsByLane } from "./board-data";
import { filters, matches } from "./filters";
import { moveTicket } from "./ticket-writes";
import { announce } from "./toasts";
import type { TicketSummary } from "./types";

// What the person is doing on the board: focus, selection, expanded "done" groups, a drag in
// progress (pointer or keyboard) and which dialog is open.

export const focusedTicketId = signal<number | null>(null);
export const focusedLaneId = signal<number | null>(null);
export const selection = signal<Set<number>>(new Set());
/** The lane whose quick-add form is open. */
export const addingLaneId = signal<number | null>(null);
export const expandedLanes = signal<Set<number>>(new Set());
/** The lane shown on a phone (one lane at a time). */
export const phoneLaneId = signal<number | null>(null);

export interface DragState {
  ticketId: number;
  fromLaneId: number;
  laneId: number;
  /** Index in the target lane's visible list without the dragged ticket. */
  index: number;
  mode: "pointer" | "keyboard";
}
export const drag = signal<DragState | null>(null);

export type Overlay =
  | { kind: "help" }
  | { kind: "move"; ticketId: number }
  | { kind: "import" }
  | { kind: "trash" }
  | { kind: "templates"; fromTicketIds?: number[] }
  | { kind: "confirm"; title: string; message: string; action: string; run: () => void };
export const overlay = signal<Overlay | null>(null);

/** Whether a ticket counts as "done" for collapsing (resolved or archived). */
export function isDone(ticket: TicketSummary): boolean {
  return ticket.isResolved || ticket.isArchived;
}

export interface LaneView {
  /** Cards shown in order (open first; done ones only when expanded or filtered for). */
  shown: TicketSummary[];
  /** Done cards hidden behind "show N more". */
  hiddenDone: number;
  /** Every card that matches the filters. */
  total: number;
}

export const laneViews = computed(() => {
  const match = matches.value;
  const status = filters.value.status;
  const expanded = expandedLanes.value;
  const views = new Map<number, LaneView>();
  for (const [laneId, list] of ticketsByLane.value) {
    const visible = list.filter(match);
    if (status === "resolved" || status === "archived" || expanded.has(laneId)) {
      views.set(laneId, { shown: visible, hiddenDone: 0, total: visible.length });
      continue;
    }
    const open = visible.filter((ticket) => !isDone(ticket));
    views.set(laneId, {
      shown: open,
      hiddenDone: visible.length - open.length,
      total: visible.length,
    });
  }
  return views;
});

export function shownInLane(laneId: number, without?: number): TicketSummary[] {
  const shown = laneViews.value.get(laneId)?.shown ?? [];
  return without === undefined ? shown : shown.filter((ticket) => ticket.id !== without);
}

export function toggleSelected(ids: readonly number[], on?: boolean): void {
  const next = new Set(selection.value);
  const turnOn = on ?? !ids.every((id) => next.has(id));
  for (const id of ids) {
    if (turnOn) next.add(id);
    else next.delete(id);
  }
  selection.value = next;
}

export function laneName(laneId: number): string {
  return lanes.value.find((lane) => lane.id === laneId)?.name ?? "?";
}

// ---- moving a card (pointer drop, keyboard drop, "Move to…") ----------------------------------

/** Places a ticket at `index` of the lane's shown list (the ticket itself left out). */
export async function dropAt(ticketId: number, laneId: number, index: number): Promise<boolean> {
  const list = shownInLane(laneId, ticketId);
  const ticket = tickets.value.get(ticketId);
  if (!ticket) return false;
  const currentList = shownInLane(ticket.laneId);
  const currentIndex = currentList.findIndex((entry) => entry.id === ticketId);
  if (ticket.laneId === laneId && currentIndex === index) return true;
  const before = list[index];
  const after = list[index - 1];
  const anchor = before
    ? { beforeTicketId: before.id }
    : after
      ? { afterTicketId: after.id }
      : { position: 0 };
  const ok = await moveTicket(ticketId, laneId, anchor);
  if (ok) {
    announce(
      `${ticket.shortRef} moved to ${laneName(laneId)}, position ${index + 1} of ${list.length + 1}.`,
    );
  }
  return ok;
}

export function liftWithKeyboard(ticketId: number): void {
  const ticket = tickets.value.get(ticketId);
  if (!ticket) return;
  const index = shownInLane(ticket.laneId).findIndex((entry) => entry.id === ticketId);
  drag.value = {
    ticketId,
    fromLaneId: ticket.laneId,
    laneId: ticket.laneId,
    index,
    mode: "keyboard",
  };
  announce(
    `Lifted ${ticket.shortRef} ${ticket.title}, in ${laneName(ticket.laneId)} position ${index + 1}. ` +
      "Arrow keys move it, Space drops, Escape cancels.",
  );
}

export function moveLifted(dx: number, dy: number): void {
  const state = drag.value;
  if (!state) return;
  const laneList = lanes.value;
  let laneIndex = laneList.findIndex((lane) => lane.id === state.laneId);
  laneIndex = Math.max(0, Math.min(laneList.length - 1, laneIndex + dx));
  const lane = laneList[laneIndex];
  if (!lane) return;
  const length = shownInLane(lane.id, state.ticketId).length;
  const index = Math.max(
    0,
    Math.min(length, (dx !== 0 ? Math.min(state.index, length) : state.index) + dy),
  );
  drag.value = { ...state, laneId: lane.id, index };
  announce(`${lane.name}, position ${index + 1} of ${length + 1}.`);
}

export async function dropLifted(): Promise<void> {
  const state = drag.value;
  if (!state) return;
  drag.value = null;
  await dropAt(state.ticketId, state.laneId, state.index);
  focusedTicketId.value = state.ticketId;
}

export function cancelLift(): void {
  const state = drag.value;
  if (!state) return;
  drag.value = null;
  const ticket = tickets.value.get(state.ticketId);
  announce(`Move of ${ticket?.shortRef ?? "the ticket"} cancelled.`);
}
