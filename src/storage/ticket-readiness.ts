import { PRIORITY_MAX, PRIORITY_MIN } from "../model/limits.js";
import type { Db } from "./database.js";
import { IN_IDS } from "./id-lists.js";

/**
 * The ready queue's rule (docs/agents.md, "The ready queue") as one SQL condition on ticket `t`:
 * not resolved, not archived, no unresolved blocker, no parent with an unresolved blocker, no
 * unresolved child (archived or not), no open blocking ask (docs/api.md, "Asks"), no live claim
 * and no `notBefore` still to come (docs/api.md, "Not before"; `@now` is the current ISO
 * timestamp, and both are stored in that form, so text order is time order). The claim test
 * comes first: claim-next walks past every ticket claimed before, and that probe is the cheapest.
 */
const UNCLAIMED =
  "NOT EXISTS (SELECT 1 FROM ticket_claims k WHERE k.ticket_id = t.id AND k.expires_at > @now)";
const UNBLOCKED = `NOT EXISTS (SELECT 1 FROM ticket_blockers b JOIN tickets bt ON bt.id = b.blocker_id
                  WHERE b.ticket_id = t.id AND bt.is_resolved = 0)
  AND NOT EXISTS (SELECT 1 FROM ticket_blockers b JOIN tickets bt ON bt.id = b.blocker_id
                  WHERE b.ticket_id = t.parent_ticket_id AND bt.is_resolved = 0)
  AND NOT EXISTS (SELECT 1 FROM tickets c WHERE c.parent_ticket_id = t.id AND c.is_resolved = 0)
  AND NOT EXISTS (SELECT 1 FROM asks a WHERE a.ticket_id = t.id AND a.status = 'open'
                  AND a.blocking = 1)`;
const DUE = "(t.not_before IS NULL OR t.not_before <= @now)";
const READY = `t.is_resolved = 0 AND t.is_archived = 0 AND ${UNCLAIMED} AND ${DUE} AND ${UNBLOCKED}`;
/**
 * The rule without its tests of the clock (claim, not before): what the in-memory ready sets keep
 * (claims change often, and both end with no row changing; the lists test them per read).
 */
const STARTABLE = `t.is_resolved = 0 AND t.is_archived = 0 AND ${UNBLOCKED}`;

/** The ready queue's priorities, highest first (its order: priority desc, then board order). */
export const PRIORITIES: readonly number[] = Array.from(
  { length: PRIORITY_MAX - PRIORITY_MIN + 1 },
  (_, index) => PRIORITY_MAX - index,
);

/** Narrowing of `claim-next`; every one present applies (AND). */
export interface ReadyFilter {
  laneId?: number;
  /** Folded tag name (names.ts nameKey). */
  tagKey?: string;
  priority?: number;
}

export function ticketReadinessStore(db: Db) {
  const startableOfBoard = db
    .prepare<[number], [number]>(`SELECT t.id FROM tickets t WHERE t.board_id = ? AND ${STARTABLE}`)
    .raw(true);
  const startableOf = db
    .prepare<[string, number], [number]>(
      `SELECT t.id FROM tickets t
       WHERE t.id ${IN_IDS} AND t.board_id = ? AND ${STARTABLE}`,
    )
    .raw(true);
  const childrenOf = db
    .prepare<[string], [number]>(`SELECT id FROM tickets WHERE parent_ticket_id ${IN_IDS}`)
    .raw(true);
  const isReady = db
    .prepare<[{ id: number; boardId: number; now: string }], [number]>(
      `SELECT 1 FROM tickets t WHERE t.id = @id AND t.board_id = @boardId AND ${READY}`,
    )
    .raw(true);
  const readyIds = db
    .prepare<[{ boardId: number; now: string }], [number]>(
      `SELECT t.id FROM tickets t WHERE t.board_id = @boardId AND ${READY}`,
    )
    .raw(true);

  // One priority at a time, walking lanes (lanes_by_board) and each lane's open tickets of that
  // priority (tickets_ready_walk: neither resolved nor archived) in board order: the first ready
  // ticket ends the walk, with no sort of the board. The ready queue's order is priority desc,
  // then board order, so the caller asks PRIORITY_MAX down to PRIORITY_MIN.
  const firstReady = new Map<string, ReturnType<typeof prepareFirst>>();
  function prepareFirst(filter: ReadyFilter) {
    const where = ["l.board_id = @boardId", "t.priority = @priority", READY];
    if (filter.laneId !== undefined) where.push("t.lane_id = @laneId");
    if (filter.tagKey !== undefined) {
      where.push(`EXISTS (SELECT 1 FROM ticket_tags tt JOIN tags g ON g.id = tt.tag_id
        WHERE tt.ticket_id = t.id AND g.name_key = @tagKey)`);
    }
    return db
      .prepare<[Record<string, unknown>], [number]>(
        `SELECT t.id FROM lanes l JOIN tickets t ON t.lane_id = l.id AND t.is_archived = 0
         WHERE ${where.join(" AND ")} ORDER BY l.position, l.id, t.position, t.id LIMIT 1`,
      )
      .raw(true);
  }

  return {
    /** Ids of a board's tickets that are ready or only held by a live claim. */
    startableIds(boardId: number): Set<number> {
      const ids = new Set<number>();
      for (const [id] of startableOfBoard.iterate(boardId)) ids.add(id);
      return ids;
    },

    /** Those of `ids` on the board that are ready or only held by a live claim. */
    startableAmong(boardId: number, ids: Iterable<number>): Set<number> {
      const result = new Set<number>();
      for (const [id] of startableOf.iterate(JSON.stringify([...ids]), boardId)) result.add(id);
      return result;
    },

    /** Ids of the children of `ids` (their readiness depends on their parent's blockers). */
    childIdsOf(ids: Iterable<number>): number[] {
      return childrenOf.all(JSON.stringify([...ids])).map((row) => row[0]);
    },

    /** Whether a ticket of the board is ready at `now`. */
    isReady: (boardId: number, id: number, now: string): boolean =>
      isReady.get({ id, boardId, now }) !== undefined,

    /** Ids of a board's ready tickets (one query whatever the board size). */
    readyIds(boardId: number, now: string): Set<number> {
      const ids = new Set<number>();
      for (const [id] of readyIds.iterate({ boardId, now })) ids.add(id);
      return ids;
    },

    /** The first ticket of the board's ready queue within the filter, if any (≤ 4 queries). */
    firstReady(boardId: number, now: string, filter: ReadyFilter): number | undefined {
      const key = `${filter.laneId !== undefined}:${filter.tagKey !== undefined}`;
      let statement = firstReady.get(key);
      if (!statement) {
        statement = prepareFirst(filter);
        firstReady.set(key, statement);
      }
      const parameters: Record<string, unknown> = { boardId, now };
      if (filter.laneId !== undefined) parameters.laneId = filter.laneId;
      if (filter.tagKey !== undefined) parameters.tagKey = filter.tagKey;
      const priorities = filter.priority !== undefined ? [filter.priority] : PRIORITIES;
      for (const priority of priorities) {
        const row = statement.get({ ...parameters, priority });
        if (row) return row[0];
      }
      return undefined;
    },
  };
}

export type TicketReadinessStore = ReturnType<typeof ticketReadinessStore>;
