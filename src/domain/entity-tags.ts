import { randomBytes } from "node:crypto";
import type { Stores } from "../storage/index.js";
import { now } from "./clock.js";
import { NotFound, PreconditionFailed } from "./errors.js";
import type { BoardChanges, Transact } from "./transaction.js";

/**
 * Entity tags (docs/api.md, "Coordination for agents"): short strings naming the current state of a
 * ticket or of a board's lists, so reads can answer `304 Not Modified` and be cached, and writes
 * can refuse a stale `If-Match`, without building the answer first.
 *
 * - A ticket's tag is its id and version, plus a mark once its stored claim has expired (the
 *   representation then shows `claim: null` although no transaction ran).
 * - A board's tag is this process's epoch, the board's revision (the number of the last unit of
 *   work that changed it, counted in memory after each commit) and the next moment the clock
 *   changes its ready queue (the end of the earliest claim still live on it, or the earliest
 *   `notBefore` still to come: docs/api.md, "Not before"), so it changes with every stream
 *   message, with every change of a ticket on it, when a claim expires and when a ticket's
 *   `notBefore` passes. The
 *   epoch differs on every start, so a revision number is never reused after a restart.
 */
export function entityTags(stores: Pick<Stores, "ticketClaims" | "boards">, transact: Transact) {
  const epoch = `${Date.now().toString(36)}${randomBytes(4).toString("hex")}`;
  let counter = 0;
  const revisions = new Map<number, number>();
  /** Claim ends and `notBefore` moments of a board, read once per revision, earliest first. */
  const expiries = new Map<number, { revision: number; ends: string[] }>();

  function ticketTag(ticketId: number): string | undefined {
    const state = stores.ticketClaims.stateOf(ticketId);
    if (!state) return undefined;
    const expired = state.claimExpiresAt !== null && state.claimExpiresAt <= now();
    return `"t${ticketId}.${state.version}${expired ? ".x" : ""}"`;
  }

  /** The earliest moment still to come of a board's claim ends and notBefores, "" when none. */
  function nextExpiry(boardId: number, revision: number): string {
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
    return known.ends.find((end) => end > at) ?? "";
  }

  return {
    ticketTag,

    /** The tag of a board's lists (ticket list in every filter); undefined: no such board. */
    boardTag(boardId: number): string | undefined {
      if (!stores.boards.get(boardId)) return undefined;
      const revision = revisions.get(boardId) ?? 0;
      const expiry = nextExpiry(boardId, revision);
      return `"b${boardId}.${epoch}.${revision}${expiry ? `.${Date.parse(expiry).toString(36)}` : ""}"`;
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
     * Runs a write of one ticket only if `ifMatch` (the parsed `If-Match` header: "*" or a list
     * of tags) names its current state; the check and the write share one transaction.
     */
    whenMatches<T>(ticketId: number, ifMatch: "*" | string[] | undefined, work: () => T): T {
      if (ifMatch === undefined || ifMatch === "*") return work();
      return transact(() => {
        const tag = ticketTag(ticketId);
        if (tag === undefined) throw new NotFound("ticket not found");
        if (!ifMatch.includes(tag)) throw new PreconditionFailed("ticket has changed");
        return work();
      });
    },
  };
}

export type EntityTags = ReturnType<typeof entityTags>;
