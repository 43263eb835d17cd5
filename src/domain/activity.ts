import type { ActivityStore } from "../storage/activity.js";
import { now } from "./clock.js";

/**
 * The activity history (CONTRACT.md §7). Domain modules call `record` inside the same
 * transaction as the change it describes, one entry per ticket per change. Action names are
 * stable, machine-readable identifiers listed in docs/activity.md.
 */
export interface ActivityEntry {
  boardId: number;
  ticketId: number;
  action: string;
  message: string;
  details?: Record<string, unknown>;
  /** True when the entry describes the deletion of its ticket (no live link remains). */
  ticketDeleted?: boolean;
}

export function activityRecorder(store: ActivityStore) {
  return {
    record(entry: ActivityEntry): void {
      store.insert({
        boardId: entry.boardId,
        ticketId: entry.ticketDeleted ? null : entry.ticketId,
        subjectTicketId: entry.ticketId,
        action: entry.action,
        message: entry.message,
        details: entry.details ?? {},
        createdAt: now(),
      });
    },
  };
}

export type ActivityRecorder = ReturnType<typeof activityRecorder>;
