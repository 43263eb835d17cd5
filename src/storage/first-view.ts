import type { Db } from "./database.js";
import { IN_IDS } from "./id-lists.js";

/** A card of a board's first view (domain/boards/first-view.ts): what its card shows first. */
export interface FirstViewCard {
  id: number;
  title: string;
  priority: number;
  /** Its tags by name, then id, as its card shows them. */
  tags: Array<{ name: string; color: string }>;
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

  // The tags of the given tickets, each ticket's by name, then id (the card's order).
  const tagsOf = db
    .prepare<[string], [number, string, string]>(
      `SELECT tt.ticket_id, g.name, g.color FROM ticket_tags tt JOIN tags g ON g.id = tt.tag_id
       WHERE tt.ticket_id ${IN_IDS} ORDER BY tt.ticket_id, g.name_key, g.id`,
    )
    .raw(true);

  return {
    /** The first `limit` open tickets of the lane, in board order, without their tags yet. */
    firstOfLane: (laneId: number, limit: number): FirstViewCard[] =>
      firstOfLane
        .all(laneId, limit)
        .map(([id, title, priority]) => ({ id, title, priority, tags: [] })),

    /** Fills in the cards' tags (one query for all of them). */
    addTags(cards: readonly FirstViewCard[]): void {
      const byId = new Map(cards.map((card) => [card.id, card]));
      for (const [ticketId, name, color] of tagsOf.iterate(JSON.stringify([...byId.keys()]))) {
        byId.get(ticketId)?.tags.push({ name, color });
      }
    },
  };
}

export type FirstViewStore = ReturnType<typeof firstViewStore>;
