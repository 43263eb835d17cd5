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
 *   work that changed it, counted in memory after each commit) and the end of the earliest claim
 *   still live on it, so it changes with every stream message, with every change of a ticket
 *   on it, and when a claim expires. The
 *   epoch differs on every start, so a revision number is never reused after a restart.
 */
export function entityTags(stores: Pick<Stores, "ticketClaims" | "boards">, transact: Transact) {
  const epoch = `${Date.now().toString(36)}${randomBytes(4).toString("hex")}`;
  let counter = 0;
  const revisions = new Map<number, number>();
  /** Claim ends of a board, read once per revision. */
  const expiries = new Map<number, { revision: number; ends: string[] }>();

  function ticketTag(ticketId: number): string | undefined {
    const state = stores.ticketClaims.stateOf(ticketId);
    if (!state) return undefined;
    const expired = state.claimExpiresAt !== null && state.claimExpiresAt <= now();
    return `"t${ticketId}.${state.version}${expired ? ".x" : ""}"`;
  }

  /** The end of the earliest live claim of a board, "" when none. */
  function nextExpiry(boardId: number, revision: number): string {
    let known = expiries.get(boardId);
    if (!known || known.revision !== revision) {
      known = { revision, ends: stores.ticketClaims.expiriesOfBoard(boardId) };
      expiries.set(boardId, known);
    }
    const at = now();
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
