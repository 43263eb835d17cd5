import type { LaneT, TicketSummary } from "./api-types.js";

/** A lane whose load (open tickets: neither resolved nor archived) reached its WIP limit. */
export interface LaneAtLimit {
  laneId: number;
  name: string;
  load: number;
  wipLimit: number;
}

/**
 * The lanes at or over their WIP limit (docs/api.md, "Lanes"), in lane order. `tickets` must hold
 * every unarchived ticket of the board (a plain ticket list does): limits are soft, so agents
 * are told where starting more would pile up rather than stopped.
 */
export function lanesAtLimit(
  lanes: readonly LaneT[],
  tickets: readonly TicketSummary[],
): LaneAtLimit[] {
  const load = new Map<number, number>();
  for (const ticket of tickets) {
    if (ticket.isResolved || ticket.isArchived) continue;
    load.set(ticket.laneId, (load.get(ticket.laneId) ?? 0) + 1);
  }
  const full: LaneAtLimit[] = [];
  for (const lane of lanes) {
    const count = load.get(lane.id) ?? 0;
    // Another implementation of the interface may not send wipLimit at all.
    if (lane.wipLimit != null && count >= lane.wipLimit) {
      full.push({ laneId: lane.id, name: lane.name, load: count, wipLimit: lane.wipLimit });
    }
  }
  return full;
}

/** One line for people and agents, or "" when no lane is at its limit. */
export function atLimitLine(full: readonly LaneAtLimit[]): string {
  if (full.length === 0) return "";
  const named = full.map((lane) => `${lane.laneId} ${lane.name} (${lane.load}/${lane.wipLimit})`);
  return `Lanes at their WIP limit (avoid starting more there): ${named.join(", ")}.`;
}
