import { type FlowEntry, FlowKind, type FlowTicket } from "../../storage/flow-history.js";

// Replays one ticket's recorded history (oldest first) and reports, for one board, what the
// figures of insights need: where the ticket was and whether it counted, when it was resolved
// or claimed, and when its stays on the board began. "Now" is the ticket's current row, so the
// state a ticket was imported with (an import's entry does not record it) is found by undoing
// the later changes, newest first.

export interface TicketState {
  boardId: number;
  laneId: number;
  isResolved: boolean;
  isArchived: boolean;
}

/** What the replay tells its listener, in time order, about the board asked for. */
export interface ReplayListener {
  /**
   * The ticket's state on the board from `at` on (`null`: not on the board from then). The object
   * is the replay's own and changes as it goes on (no copy per change): read it, do not keep it.
   */
  state(at: number, state: TicketState | null): void;
  /** It became resolved on the board (arriving resolved is not a resolution). */
  resolved(at: number): void;
  /** A new claim was made on it on the board. */
  claimed(at: number, actor: string): void;
  /** A live claim of `actor` ended because the ticket was resolved. */
  releasedByResolution(at: number, actor: string): void;
}

/** A stay's figures as the history ends: the ticket's latest stay on the board, if it is there. */
export interface CurrentStay {
  /** When the stay began: created, imported, or moved to the board. */
  arrivedAt: number;
  /** First claim or first lane change in the stay, whichever came first. */
  startedAt: number | null;
  /** The latest resolution in the stay. */
  resolvedAt: number | null;
  /** When the ticket entered the lane it is in now. */
  laneSince: number;
}

const AT = 0;
const KIND = 2;
const FLAG = 3;
const ACTOR = 4;
const LANE_FROM = 5;
const LANE_TO = 6;
const BOARD_FROM = 7;
const BOARD_TO = 8;
const {
  ticket_created: CREATED,
  ticket_updated: UPDATED,
  ticket_resolved: RESOLVED,
  ticket_reopened: REOPENED,
  ticket_transitioned: TRANSITIONED,
  ticket_archived: ARCHIVED,
  ticket_restored: RESTORED,
  ticket_moved_board: MOVED_BOARD,
  ticket_claimed: CLAIMED,
  ticket_released: RELEASED,
} = FlowKind;

/** The ticket's state before its first entry, by undoing every recorded change from now back. */
function stateAtCreation(ticket: FlowTicket): TicketState {
  const state: TicketState = {
    boardId: ticket.boardId,
    laneId: ticket.laneId,
    isResolved: ticket.isResolved,
    isArchived: ticket.isArchived,
  };
  const entries = ticket.entries;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i] as FlowEntry;
    switch (entry[KIND]) {
      case TRANSITIONED:
        if (entry[LANE_FROM] != null) state.laneId = entry[LANE_FROM];
        break;
      case MOVED_BOARD:
        if (entry[LANE_FROM] != null) state.laneId = entry[LANE_FROM];
        if (entry[BOARD_FROM] != null) state.boardId = entry[BOARD_FROM];
        break;
      case UPDATED:
      case RESOLVED:
      case REOPENED:
        if (entry[FLAG] != null) state.isResolved = entry[FLAG] !== 1;
        break;
      case ARCHIVED:
      case RESTORED:
        if (entry[FLAG] != null) state.isArchived = entry[FLAG] !== 1;
        break;
    }
  }
  return state;
}

/**
 * Replays the ticket's entries (oldest first) for `boardId`, telling `listener`
 * what happened there; answers the ticket's current stay on the board, or null when it is not
 * on it now.
 */
export function replayTicket(
  ticket: FlowTicket,
  boardId: number,
  listener: ReplayListener,
): CurrentStay | null {
  const state = stateAtCreation(ticket);
  let stay: CurrentStay | null = null;
  const show = (at: number) => listener.state(at, state.boardId === boardId ? state : null);
  const arrive = (at: number) => {
    stay = { arrivedAt: at, startedAt: null, resolvedAt: null, laneSince: at };
    show(at);
  };
  const started = (at: number) => {
    if (stay && stay.startedAt === null) stay.startedAt = at;
  };

  let created = false;
  for (const entry of ticket.entries) {
    const at = entry[AT];
    const here = state.boardId === boardId;
    switch (entry[KIND]) {
      case CREATED:
        // A ticket's history begins with its creation (or import); a second one never comes.
        if (created) break;
        created = true;
        if (here) arrive(at);
        break;
      case TRANSITIONED:
        if (entry[LANE_TO] == null || entry[LANE_TO] === state.laneId) break;
        state.laneId = entry[LANE_TO];
        if (here && stay) {
          started(at);
          (stay as CurrentStay).laneSince = at;
          show(at);
        }
        break;
      case MOVED_BOARD: {
        const leaving = here;
        if (entry[BOARD_TO] != null) state.boardId = entry[BOARD_TO];
        if (entry[LANE_TO] != null) state.laneId = entry[LANE_TO];
        if (leaving) {
          stay = null;
          show(at);
        } else if (state.boardId === boardId) {
          arrive(at);
        }
        break;
      }
      case UPDATED:
      case RESOLVED:
      case REOPENED: {
        const resolved = entry[FLAG];
        if (resolved == null || (resolved === 1) === state.isResolved) break;
        state.isResolved = resolved === 1;
        if (!here) break;
        if (state.isResolved) {
          listener.resolved(at);
          if (stay) (stay as CurrentStay).resolvedAt = at;
        }
        show(at);
        break;
      }
      case ARCHIVED:
      case RESTORED: {
        const archived = entry[FLAG];
        if (archived == null || (archived === 1) === state.isArchived) break;
        state.isArchived = archived === 1;
        if (here) show(at);
        break;
      }
      case CLAIMED:
        if (here && entry[ACTOR] != null) {
          started(at);
          listener.claimed(at, entry[ACTOR]);
        }
        break;
      case RELEASED:
        if (here && entry[FLAG] === 1 && entry[ACTOR] != null) {
          listener.releasedByResolution(at, entry[ACTOR]);
        }
        break;
    }
  }
  return state.boardId === boardId ? stay : null;
}
