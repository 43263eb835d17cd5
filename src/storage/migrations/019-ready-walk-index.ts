import type { Db } from "../db.js";

/**
 * claim-next's walk of the ready queue (storage/ticket-readiness.ts `firstReady`): one priority at
 * a time, lanes in board order, each lane's tickets by position. `tickets_by_lane` holds every
 * ticket of a lane, so the walk read past each resolved ticket and each ticket of another
 * priority before the first ready one: on a 10,000-ticket board whose first lanes hold work
 * already done, a pick cost milliseconds. This index holds only the tickets the ready rule can
 * take (neither resolved nor archived), by lane and priority in position order, so the walk
 * starts at the lane's first open ticket of that priority and reads past claimed ones only.
 */
export function readyWalkIndex(db: Db): void {
  db.exec(`
    CREATE INDEX tickets_ready_walk ON tickets(lane_id, priority, position, id)
      WHERE is_archived = 0 AND is_resolved = 0;
  `);
}
