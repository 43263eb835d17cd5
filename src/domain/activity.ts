import type { ActivityStore, NewActivity } from "../storage/activity.js";
import { actingTokenName } from "./access/acting-token.js";
import { now } from "./clock.js";
import { NotFound } from "./errors.js";
import type { ActivityLog } from "./model.js";

/**
 * The activity history (docs/api.md, "Activity"). Domain modules call `record` inside the same
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

const toRow = (entry: ActivityEntry): NewActivity => ({
  boardId: entry.boardId,
  ticketId: entry.ticketDeleted ? null : entry.ticketId,
  subjectTicketId: entry.ticketId,
  action: entry.action,
  message: entry.message,
  details: withVia(entry.details ?? {}),
  createdAt: now(),
});

/** Writes made with an access token name it in `details.via` (docs/api.md, "Access tokens"). */
function withVia(details: Record<string, unknown>): Record<string, unknown> {
  const via = actingTokenName();
  return via === undefined ? details : { ...details, via };
}

export function activityRecorder(store: ActivityStore) {
  return {
    record(entry: ActivityEntry): void {
      store.insert(toRow(entry));
    },

    /** Entries of many tickets at once (a board import): the same rows as `record` in a loop. */
    recordAll(entries: readonly ActivityEntry[]): void {
      store.insertMany(entries.map(toRow));
    },

    /**
     * A ticket's history follows it to another board, so deleting the board it came from later
     * does not erase the history of a ticket that lives on.
     */
    followTicket(ticketId: number, boardId: number): void {
      store.rehome(ticketId, boardId);
    },
  };
}

export type ActivityRecorder = ReturnType<typeof activityRecorder>;

/**
 * `GET /api/tickets/{id}/activity`, newest first. A deleted ticket's history stays readable:
 * 404 only when there is neither a ticket nor any entry about that id.
 */
export function activityLog(
  store: Pick<ActivityStore, "listBySubject">,
  tickets: { exists(ticketId: number): boolean },
) {
  return {
    list(ticketId: number): ActivityLog[] {
      const entries = store.listBySubject(ticketId);
      if (entries.length === 0 && !tickets.exists(ticketId)) {
        throw new NotFound("ticket not found");
      }
      return entries;
    },
  };
}

export type ActivityLogService = ReturnType<typeof activityLog>;
