import type { Db } from "./database.js";

/** A card of a board's first view (domain/boards/first-view.ts): what its card shows first. */
export interface FirstViewCard {
  id: number;
  title: string;
  priority: number;
}

/**
 * How far down a lane its first open tickets are looked for: a lane whose first active tickets
 * are all resolved shows none in the first view rather than costing a walk of the whole lane.
 */
const LOOKED_AT = 200;

/** The first tickets of a lane, for the board page's first view. */
export function firstViewStore(db: Db) {
  // A lane's first open tickets (neither resolved nor archived: the cards the web UI shows
  // unless asked for more) in board order (docs/api.md, "Ordering"): one seek down
  // tickets_by_lane (lane, archived, position, id), at most LOOKED_AT entries read.
  const firstOfLane = db
    .prepare<[number, number], [number, string, number]>(
      `SELECT id, title, priority FROM (
         SELECT id, title, priority, is_resolved FROM tickets
         WHERE lane_id = ? AND is_archived = 0 ORDER BY position, id LIMIT ${LOOKED_AT})
       WHERE is_resolved = 0 LIMIT ?`,
    )
    .raw(true);

  return {
    /** The first `limit` open tickets of the lane, in board order. */
    firstOfLane: (laneId: number, limit: number): FirstViewCard[] =>
      firstOfLane.all(laneId, limit).map(([id, title, priority]) => ({ id, title, priority })),
  };
}

export type FirstViewStore = ReturnType<typeof firstViewStore>;
