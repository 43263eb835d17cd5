import { now } from "../domain/clock.js";
import type { Stores } from "../storage/index.js";
import type { TicketListFilter } from "../storage/tickets.js";
import {
  type BoardList,
  heldUntil,
  type Listed,
  type ReadyGroup,
  type ReadyLane,
} from "./board-list.js";
import { joined } from "./pieces.js";

/**
 * The ready queue from a kept board list (board-lists.ts): the board's startable set (the
 * ready rule of storage/ticket-readiness.ts without its tests of the clock) kept up to date, and
 * per lane and priority the ready tickets' pieces joined in runs.
 */

/** Serializes the pieces the given tickets lack (board-lists.ts `fill`). */
export type Fill = (chosen: Listed[]) => void;

/** The board's startable set, brought up to date. */
export function startable(
  list: BoardList,
  boardId: number,
  readiness: Stores["ticketReadiness"],
): Set<number> {
  if (!list.startable) {
    list.startable = readiness.startableIds(boardId);
    list.startableStale.clear();
  } else if (list.startableStale.size > 0) {
    // A ticket's readiness also follows its parent's blockers: a changed ticket's children
    // are re-checked too (every other dependency notes the ticket itself as changed).
    const ids = new Set(list.startableStale);
    for (const child of readiness.childIdsOf(list.startableStale)) ids.add(child);
    const found = readiness.startableAmong(boardId, ids);
    for (const id of ids) {
      const is = found.has(id);
      if (is === list.startable.has(id)) continue;
      if (is) list.startable.add(id);
      else list.startable.delete(id);
      // A child whose readiness flipped with its parent's blockers: nothing of its own changed.
      const listed = list.tickets.get(id);
      if (listed) list.readyLanes.delete(listed.laneId);
    }
    list.startableStale.clear();
  }
  return list.startable;
}

/**
 * The ready ones of `chosen` (in board order) in the ready queue's order: priority desc, then
 * board order. One pass into a bucket per priority, no sort.
 */
export function inReadyOrder(ids: ReadonlySet<number>, chosen: readonly Listed[]): Listed[] {
  const at = now();
  const byPriority = new Map<number, Listed[]>();
  for (const listed of chosen) {
    if (!ids.has(listed.id) || heldUntil(listed, at) !== null) continue;
    const bucket = byPriority.get(listed.priority);
    if (bucket) bucket.push(listed);
    else byPriority.set(listed.priority, [listed]);
  }
  return [...byPriority.keys()]
    .sort((a, b) => b - a)
    .flatMap((priority) => byPriority.get(priority) ?? []);
}

/** A lane's part of the ready queue, made from its startable active tickets when missing. */
export function readyLaneOf(
  list: BoardList,
  laneId: number,
  tickets: readonly Listed[],
  ids: ReadonlySet<number>,
): ReadyLane {
  let lane = list.readyLanes.get(laneId);
  if (!lane) {
    const candidates: Listed[] = [];
    for (const listed of tickets) {
      if (listed.isArchived) break;
      if (ids.has(listed.id)) candidates.push(listed);
    }
    lane = { candidates, byPriority: new Map(), stale: new Set() };
    for (const listed of candidates) lane.stale.add(listed.priority);
    list.readyLanes.set(laneId, lane);
  }
  for (const priority of lane.stale) {
    const members = lane.candidates.filter((listed) => listed.priority === priority);
    if (members.length === 0) lane.byPriority.delete(priority);
    else lane.byPriority.set(priority, { members, runs: [], head: 0, headUntil: null });
  }
  lane.stale.clear();
  return lane;
}

/**
 * The ready queue without tag or search, as UTF-8 runs: per priority (highest first), each
 * lane's ready tickets of that priority. Only the runs whose tickets changed (or one of whose
 * claims ended) are joined again, from the lane's startable tickets kept in order, so a read
 * after a write joins a few runs, not the queue.
 */
export function readyRunsOf(
  list: BoardList,
  ids: ReadonlySet<number>,
  laneIds: readonly number[],
  filter: TicketListFilter,
  fill: Fill,
): Buffer[] {
  // The ready rule wants open, active tickets: these filters leave none.
  if (filter.archived === "archived" || filter.isResolved === true) return [];
  const at = now();
  const length = list.runLength;
  const toJoin: Array<{
    group: ReadyGroup;
    index: number;
    chosen: Listed[];
    until: string | null;
  }> = [];
  const lanes: ReadyLane[] = [];
  for (const laneId of laneIds) {
    const tickets = list.lanes.get(laneId);
    if (!tickets) continue;
    const lane = readyLaneOf(list, laneId, tickets, ids);
    for (const group of lane.byPriority.values()) {
      for (let index = 0; index * length < group.members.length; index++) {
        const kept = group.runs[index];
        if (kept && (kept.until === null || kept.until > at)) continue;
        const chosen: Listed[] = [];
        let until: string | null = null;
        for (const listed of group.members.slice(index * length, (index + 1) * length)) {
          const held = heldUntil(listed, at);
          if (held === null) chosen.push(listed);
          else if (until === null || held < until) until = held;
        }
        toJoin.push({ group, index, chosen, until });
      }
    }
    lanes.push(lane);
  }
  fill(toJoin.flatMap((run) => run.chosen));
  for (const { group, index, chosen, until } of toJoin) {
    group.runs[index] = { bytes: joined(chosen), until };
  }
  const priorities = [...new Set(lanes.flatMap((lane) => [...lane.byPriority.keys()]))];
  const parts: Buffer[] = [];
  for (const priority of priorities.sort((a, b) => b - a)) {
    for (const lane of lanes) {
      for (const run of lane.byPriority.get(priority)?.runs ?? []) {
        if (run && run.bytes.length > 0) parts.push(run.bytes);
      }
    }
  }
  return parts;
}
