import { randomBytes } from "node:crypto";
import type { Stores } from "../storage/index.js";
import { now } from "./clock.js";
import { NotFound, PreconditionFailed } from "./errors.js";
import type { BoardChanges, Transact } from "./transaction.js";

/**
 * The state of a ticket an entity tag names (docs/api.md, "Coordination for agents"): its
 * version, and whether its stored claim has expired (the representation then shows
 * `claim: null` although no transaction ran).
 */
export interface TicketState {
  ticketId: number;
  version: number;
  claimExpired: boolean;
}

/**
 * The state of a board's lists (ticket list in every filter) an entity tag names: this process's
 * epoch, the board's revision (the number of the last unit of work that changed it, counted in
 * memory after each commit) and the next moment the clock changes its ready queue (the end of
 * the earliest claim still live on it, or the earliest `notBefore` still to come: docs/api.md,
 * "Not before"; null when none). It changes with every stream message, with every change of a
 * ticket on it, when a claim expires and when a ticket's `notBefore` passes. The epoch differs on
 * every start, so a revision number is never reused after a restart.
 */
export interface BoardState {
  boardId: number;
  epoch: string;
  revision: number;
  nextClockChange: string | null;
}

/**
 * What entity tags name, so reads can answer `304 Not Modified` and be cached, and writes can
 * refuse a stale `If-Match`, without building the answer first. The tags' syntax is HTTP's
 * (http/conditional-requests.ts); here are the states and the rule that a conditional write
 * checks the state and writes in one transaction.
 */
export function entityTags(stores: Pick<Stores, "ticketClaims" | "boards">, transact: Transact) {
  const epoch = `${Date.now().toString(36)}${randomBytes(4).toString("hex")}`;
  let counter = 0;
  const revisions = new Map<number, number>();
  /** Claim ends and `notBefore` moments of a board, read once per revision, earliest first. */
  const expiries = new Map<number, { revision: number; ends: string[] }>();

  function ticketState(ticketId: number): TicketState | undefined {
    const state = stores.ticketClaims.stateOf(ticketId);
    if (!state) return undefined;
    const claimExpired = state.claimExpiresAt !== null && state.claimExpiresAt <= now();
    return { ticketId, version: state.version, claimExpired };
  }

  /** The earliest moment still to come of a board's claim ends and notBefores, null when none. */
  function nextExpiry(boardId: number, revision: number): string | null {
    let known = expiries.get(boardId);
    const at = now();
    if (!known || known.revision !== revision) {
      // Moments past now never count again: only those to come are read.
      const waits = stores.ticketClaims.waitsOfBoard(boardId, at);
      const claims = stores.ticketClaims.expiriesOfBoard(boardId);
      const ends = waits.length === 0 ? claims : [...claims, ...waits].sort();
      known = { revision, ends };
      expiries.set(boardId, known);
    }
    return known.ends.find((end) => end > at) ?? null;
  }

  return {
    ticketState,

    /** The state of a board's lists; undefined: no such board. */
    boardState(boardId: number): BoardState | undefined {
      if (!stores.boards.get(boardId)) return undefined;
      const revision = revisions.get(boardId) ?? 0;
      return { boardId, epoch, revision, nextClockChange: nextExpiry(boardId, revision) };
    },

    /**
     * After each commit: every board the unit of work changed gets a new revision (also one
     * whose message waits for a later commit of the same request).
     */
    advance(changes: BoardChanges): void {
      const boards = changes.changedBoards;
      if (boards.size === 0) return;
      counter++;
      for (const boardId of boards) revisions.set(boardId, counter);
    },

    /**
     * Runs a write of one ticket only if `isCurrent` (the test of a request's `If-Match`; none:
     * unconditional) accepts its current state: PreconditionFailed otherwise. The check and the
     * write share one transaction.
     */
    whenCurrent<T>(
      ticketId: number,
      isCurrent: ((state: TicketState) => boolean) | undefined,
      work: () => T,
    ): T {
      if (isCurrent === undefined) return work();
      return transact(() => {
        const state = ticketState(ticketId);
        if (state === undefined) throw new NotFound("ticket not found");
        if (!isCurrent(state)) throw new PreconditionFailed("ticket has changed");
        return work();
      });
    },
  };
}

export type EntityTags = ReturnType<typeof entityTags>;
