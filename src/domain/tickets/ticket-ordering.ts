import type { Stores } from "../../storage/index.js";
import { InvalidInput } from "../errors.js";
import type { Lane } from "../model.js";

export interface LaneEntry {
  id: number;
  isArchived: boolean;
}

/**
 * Inserts `moving` into a lane's order (which must not contain it) at `index`, then keeps
 * archived tickets after active ones (stable, docs/api.md, "Rules clients can rely on"). Returns
 * the ids in their new order.
 */
export function placeInOrder(order: readonly LaneEntry[], moving: LaneEntry, index: number) {
  const placed = [...order];
  placed.splice(Math.min(Math.max(index, 0), placed.length), 0, moving);
  return activeFirst(placed);
}

/** Stable partition: active tickets, then archived ones, each in their given order. */
export function activeFirst(entries: readonly LaneEntry[]): number[] {
  return [
    ...entries.filter((entry) => !entry.isArchived),
    ...entries.filter((entry) => entry.isArchived),
  ].map((entry) => entry.id);
}

/**
 * Lanes as ticket containers: which lane a request names, and positions within lanes. Positions
 * are always 0..n-1 per lane with archived tickets after active ones; callers that move many
 * tickets collect the touched lanes and renumber each once at the end.
 */
export function ticketLanes(stores: Pick<Stores, "lanes" | "tickets">) {
  const { lanes, tickets } = stores;

  return {
    /** The lane `laneId` if it belongs to the board; otherwise 400 naming `field`. */
    laneOfBoard(boardId: number, laneId: number, field = "laneId", board = "this board"): Lane {
      const lane = lanes.get(laneId);
      if (lane?.boardId !== boardId) throw new InvalidInput(`${field} is not a lane of ${board}`);
      return lane;
    },

    /**
     * Transition by name (docs/api.md, "Rules clients can rely on"): trimmed, exact and
     * case-sensitive, the first by lane order when names repeat.
     */
    laneNamed(boardId: number, laneName: string): Lane {
      const name = laneName.trim();
      if (name === "") throw new InvalidInput("laneName must not be empty");
      const lane = lanes.listByBoard(boardId).find((candidate) => candidate.name === name);
      if (!lane)
        throw new InvalidInput(`laneName ${JSON.stringify(name)} is not a lane of this board`);
      return lane;
    },

    /** Moves a ticket after every other ticket of the lane; renumber the lane afterwards. */
    append(ticketId: number, laneId: number): void {
      tickets.appendToLane(ticketId, laneId);
    },

    renumber(laneIds: Iterable<number>): void {
      for (const laneId of new Set(laneIds)) tickets.renumberLane(laneId);
    },

    /** The lane's tickets in order, active first. */
    order: (laneId: number): LaneEntry[] => tickets.laneOrder(laneId),

    /** Writes a lane's order as positions 0..n-1 (only changed rows are written). */
    write(ids: readonly number[]): void {
      tickets.setPositions(ids);
    },
  };
}

export type TicketLanes = ReturnType<typeof ticketLanes>;
