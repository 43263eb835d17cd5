import type { Db } from "./database.js";
import { IN_IDS } from "./id-lists.js";

/** How a related ticket stands to the ticket asked about. */
export type RelationKind = "parent" | "child" | "blocker" | "blockedBy" | "related";

/** One neighbour of a ticket with the columns a TicketRelation needs. */
export interface RelationRow {
  kind: RelationKind;
  id: number;
  title: string;
  laneId: number;
  isResolved: boolean;
  priority: number;
}

/** A neighbour as the query reads it, a raw row: kind, then the NEIGHBOUR columns. */
type SqlRelationRow = [
  kind: RelationKind,
  id: number,
  title: string,
  laneId: number,
  isResolved: number,
  priority: number,
];

type Pair = [number, number];
const NEIGHBOUR = "t.id, t.title, t.lane_id, t.is_resolved, t.priority";

/** Blocker links (`ticket_blockers`: ticket_id is blocked by blocker_id) and related links. */
export function ticketRelationStore(db: Db) {
  // Pair queries answer raw [ticket, other] rows: lists ask them for thousands of tickets.
  const blockersOf = db
    .prepare<[string], Pair>(
      `SELECT ticket_id, blocker_id FROM ticket_blockers WHERE ticket_id ${IN_IDS}
       ORDER BY ticket_id, blocker_id`,
    )
    .raw(true);
  const relatedOf = db
    .prepare<[string, string], Pair>(
      `SELECT low_id, high_id FROM ticket_related WHERE low_id ${IN_IDS}
       UNION ALL
       SELECT high_id, low_id FROM ticket_related WHERE high_id ${IN_IDS}
       ORDER BY 1, 2`,
    )
    .raw(true);
  const blockedByOf = db
    .prepare<[string], Pair>(
      `SELECT blocker_id, ticket_id FROM ticket_blockers WHERE blocker_id ${IN_IDS}`,
    )
    .raw(true);
  const neighbours = db
    .prepare<[number, number, number, number, number, number], SqlRelationRow>(
      `SELECT 'parent' AS kind, ${NEIGHBOUR} FROM tickets t
         WHERE t.id = (SELECT parent_ticket_id FROM tickets WHERE id = ?)
       UNION ALL SELECT 'child', ${NEIGHBOUR} FROM tickets t WHERE t.parent_ticket_id = ?
       UNION ALL SELECT 'blocker', ${NEIGHBOUR} FROM ticket_blockers b
         JOIN tickets t ON t.id = b.blocker_id WHERE b.ticket_id = ?
       UNION ALL SELECT 'blockedBy', ${NEIGHBOUR} FROM ticket_blockers b
         JOIN tickets t ON t.id = b.ticket_id WHERE b.blocker_id = ?
       UNION ALL SELECT 'related', ${NEIGHBOUR} FROM ticket_related r
         JOIN tickets t ON t.id = r.high_id WHERE r.low_id = ?
       UNION ALL SELECT 'related', ${NEIGHBOUR} FROM ticket_related r
         JOIN tickets t ON t.id = r.low_id WHERE r.high_id = ?`,
    )
    .raw(true);
  const clearBlockers = db.prepare<[number]>("DELETE FROM ticket_blockers WHERE ticket_id = ?");
  const addBlockers = db.prepare<[number, string]>(
    "INSERT OR IGNORE INTO ticket_blockers (ticket_id, blocker_id) SELECT ?, value FROM json_each(?)",
  );
  const clearBlocking = db.prepare<[number]>("DELETE FROM ticket_blockers WHERE blocker_id = ?");
  const clearRelated = db.prepare<[number, number]>(
    "DELETE FROM ticket_related WHERE low_id = ? OR high_id = ?",
  );
  const addRelated = db.prepare<[number, number, string]>(
    `INSERT OR IGNORE INTO ticket_related (low_id, high_id)
     SELECT MIN(?, value), MAX(?, value) FROM json_each(?)`,
  );
  // Follows "is blocked by" links from the start tickets; finding `target` means that making
  // `target` blocked by one of them would close a cycle.
  const reaches = db.prepare<[string, number], { found: number }>(
    `WITH RECURSIVE reach(id) AS (
       SELECT value FROM json_each(?)
       UNION
       SELECT b.blocker_id FROM ticket_blockers b JOIN reach ON b.ticket_id = reach.id)
     SELECT 1 AS found FROM reach WHERE id = ? LIMIT 1`,
  );

  return {
    /** Blocker ids of each given ticket that has any, ascending. */
    blockerIds: (ticketIds: readonly number[]): Map<number, number[]> =>
      group(blockersOf.iterate(JSON.stringify(ticketIds))),

    /** Related ids of each given ticket that has any, ascending. */
    relatedIds(ticketIds: readonly number[]): Map<number, number[]> {
      const json = JSON.stringify(ticketIds);
      return group(relatedOf.iterate(json, json));
    },

    /** Ids of the tickets each given ticket blocks. */
    blockedIds: (ticketIds: readonly number[]): Map<number, number[]> =>
      group(blockedByOf.iterate(JSON.stringify(ticketIds))),

    /** Parent, children, blockers, blocked tickets and related tickets of one ticket. */
    neighbours: (id: number): RelationRow[] =>
      neighbours.all(id, id, id, id, id, id).map((row) => ({
        kind: row[0],
        id: row[1],
        title: row[2],
        laneId: row[3],
        isResolved: row[4] === 1,
        priority: row[5],
      })),

    /** Replaces the tickets blocking `ticketId`. */
    setBlockers(ticketId: number, blockerIds: readonly number[]): void {
      clearBlockers.run(ticketId);
      addBlockers.run(ticketId, JSON.stringify(blockerIds));
    },

    /** Replaces every related link touching `ticketId` (stored once as low < high). */
    setRelated(ticketId: number, relatedIds: readonly number[]): void {
      clearRelated.run(ticketId, ticketId);
      addRelated.run(ticketId, ticketId, JSON.stringify(relatedIds));
    },

    /** Removes every blocker and related link of a ticket, in both directions. */
    clearLinks(ticketId: number): void {
      clearBlockers.run(ticketId);
      clearBlocking.run(ticketId);
      clearRelated.run(ticketId, ticketId);
    },

    /** Whether `target` is reachable from any of `from` through blocker links. */
    blockerPathExists: (from: readonly number[], target: number): boolean =>
      reaches.get(JSON.stringify(from), target) !== undefined,
  };
}

export type TicketRelationStore = ReturnType<typeof ticketRelationStore>;

/** Groups [key, value] rows into lists per key, keeping row order. */
function group(rows: Iterable<Pair>): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const [key, value] of rows) {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  }
  return map;
}
