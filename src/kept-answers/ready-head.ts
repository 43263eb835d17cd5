import type { ReadyHeadFilter } from "../domain/tickets/ticket-claims.js";
import { PRIORITIES } from "../storage/ticket-readiness.js";
import { type BoardList, heldUntil, type Listed, type ReadyGroup } from "./board-list.js";
import { readyLaneOf } from "./ready-runs.js";

/**
 * claim-next's pick from a kept board list (the domain's port, tickets/ticket-claims.ts
 * `ReadyHeads`): the ticket the SQL walk (storage/ticket-readiness.ts `firstReady`) would pick,
 * in its order: per priority (highest first), the lanes in board order, each lane's startable
 * tickets of that priority in board order (ready-runs.ts `readyLaneOf`), the first one the clock
 * does not hold (`heldUntil`: a live claim, a `notBefore` to come) and the caller has not taken.
 * Each group keeps a cursor past its held head, so a board with thousands of live claims costs
 * a pick a few steps, where the SQL walk probes every claimed ticket again.
 */
export function readyHeadOf(
  list: BoardList,
  startable: ReadonlySet<number>,
  laneIds: readonly number[],
  filter: ReadyHeadFilter,
  taken: ReadonlySet<number>,
  at: string,
): number | undefined {
  const groups: Array<Map<number, ReadyGroup>> = [];
  for (const laneId of laneIds) {
    const tickets = list.lanes.get(laneId);
    if (tickets) groups.push(readyLaneOf(list, laneId, tickets, startable).byPriority);
  }
  for (const priority of filter.priority !== undefined ? [filter.priority] : PRIORITIES) {
    for (const byPriority of groups) {
      const group = byPriority.get(priority);
      const found = group ? firstFree(group, taken, at) : undefined;
      if (found) return found.id;
    }
  }
  return undefined;
}

/** The group's first member neither held by the clock at `at` nor taken; moves its cursor. */
function firstFree(group: ReadyGroup, taken: ReadonlySet<number>, at: string): Listed | undefined {
  const { members } = group;
  if (group.headUntil !== null && group.headUntil <= at) {
    group.head = 0;
    group.headUntil = null;
  }
  // Only the clock moves the cursor: a taken ticket's claim is not committed yet (a rollback
  // would leave it free), so it is skipped below, and held once its claim is read back.
  for (; group.head < members.length; group.head++) {
    const held = heldUntil(members[group.head] as Listed, at);
    if (held === null) break;
    if (group.headUntil === null || held < group.headUntil) group.headUntil = held;
  }
  for (let index = group.head; index < members.length; index++) {
    const listed = members[index] as Listed;
    if (!taken.has(listed.id) && heldUntil(listed, at) === null) return listed;
  }
  return undefined;
}
