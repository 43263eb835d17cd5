import type { LaneT, TicketSummary } from "./api-types.js";

/**
 * The compact row lists show to people and models: enough to choose a ticket and act on it,
 * about a fifth of a TicketSummary's size. `get_ticket` / `tack ticket show` give the rest.
 */
export interface TicketRow {
  id: number;
  title: string;
  lane: string;
  priority: number;
  tags: string[];
  resolved: boolean;
  archived: boolean;
  blockerIds: number[];
  parentId: number | null;
  claimedBy: string | null;
  version: number | null;
}

export function ticketRow(ticket: TicketSummary, lanes: Map<number, LaneT>): TicketRow {
  return {
    id: ticket.id,
    title: ticket.title,
    lane: lanes.get(ticket.laneId)?.name ?? String(ticket.laneId),
    priority: ticket.priority,
    tags: ticket.tags.map((tag) => tag.name),
    resolved: ticket.isResolved,
    archived: ticket.isArchived,
    blockerIds: ticket.blockerIds,
    parentId: ticket.parentTicketId,
    claimedBy: ticket.claim?.actor ?? null,
    version: ticket.version ?? null,
  };
}

export function laneMap(lanes: LaneT[]): Map<number, LaneT> {
  return new Map(lanes.map((lane) => [lane.id, lane]));
}

export interface Page<T> {
  total: number;
  offset: number;
  hasMore: boolean;
  items: T[];
}

export function page<T>(all: T[], offset: number, limit: number): Page<T> {
  const items = all.slice(offset, offset + limit);
  return { total: all.length, offset, hasMore: offset + items.length < all.length, items };
}

export const PRIORITY_NAMES: Record<number, string> = {
  1: "low",
  2: "medium",
  3: "high",
  4: "urgent",
};
