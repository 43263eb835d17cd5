import {
  ACTOR_MAX,
  LEASE_DEFAULT_SECONDS,
  LEASE_MAX_SECONDS,
  LEASE_MIN_SECONDS,
} from "../../model/limits.js";
import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import type { BoardService } from "../boards/boards.js";
import { now, nowMillis } from "../clock.js";
import { Conflict, InvalidInput, NotFound } from "../errors.js";
import { cleanName, nameKey } from "../names.js";
import type { BoardChanges, Transact } from "../transaction.js";
import { claimView } from "./claim-view.js";
import type { TicketViews, TicketWritten } from "./ticket-views.js";

/** Why a claim ended other than by expiry (activity `ticket_released`, detail `reason`). */
export type ClaimEndReason = "released" | "resolved" | "archived" | "moved";

export interface ClaimInput {
  actor: string;
  leaseSeconds?: number;
}

export interface ClaimNextInput extends ClaimInput {
  laneId?: number;
  tag?: string;
  priority?: number;
}

/** What a kept ready order narrows claim-next's pick by (a tag is always picked in SQL). */
export interface ReadyHeadFilter {
  laneId?: number;
  priority?: number;
}

/**
 * A PORT: the head of a board's ready queue as an answer layer keeps it (src/kept-answers
 * implements it; the domain knows nothing kept, only this question). The SQL walk
 * (storage/ticket-readiness.ts `firstReady`) is the rule: a keeper's answer must be the ticket
 * that walk would pick.
 */
export interface ReadyHeads {
  /**
   * The first ticket of the board's ready queue at `at` within `filter`, leaving out `taken`
   * (the tickets the calling unit of work has claimed so far); undefined when none is ready,
   * "unknown" when the keeper cannot tell (the caller then walks in SQL). Called inside the
   * claim-next unit of work, which has written nothing but the claims of `taken`; the board
   * exists and the lane is one of its lanes.
   */
  firstReady(
    boardId: number,
    filter: ReadyHeadFilter,
    taken: ReadonlySet<number>,
    at: string,
  ): number | undefined | "unknown";
}

/**
 * Where claim-next finds a keeper of the ready order: empty until the answer layer fills it
 * (services.ts `answerSources.keepReadyHeads`); empty, every pick walks in SQL (the reference
 * mode).
 */
export interface ReadyHeadSlot {
  heads?: ReadyHeads;
}

interface PendingClaimNext {
  boardId: number;
  input: ClaimNextInput;
  /** The actor's name, cleaned. */
  actor: string;
  /** The claimed ticket's row, or null when none is ready. */
  resolve(written: TicketWritten | null): void;
  reject(error: unknown): void;
}

/** What one claim-next unit of work has done so far. */
interface ClaimUnit {
  /** The tickets it claimed. */
  taken: Set<number>;
  /** The boards found (a board found earlier in the unit is still there: the unit only claims). */
  boards: Set<number>;
}

/** When a lease taken at `fromMillis` ends: from the claim's own instant, so a lease is exact. */
const leaseEnd = (fromMillis: number, leaseSeconds = LEASE_DEFAULT_SECONDS) =>
  new Date(fromMillis + leaseSeconds * 1000).toISOString();

function cleanActor(actor: string): string {
  return cleanName(actor, "actor", ACTOR_MAX);
}

function checkLease(leaseSeconds: number | undefined): void {
  if (
    leaseSeconds !== undefined &&
    (leaseSeconds < LEASE_MIN_SECONDS || leaseSeconds > LEASE_MAX_SECONDS)
  ) {
    throw new InvalidInput(
      `leaseSeconds must be between ${LEASE_MIN_SECONDS} and ${LEASE_MAX_SECONDS}`,
    );
  }
}

/**
 * Leased claims (docs/api.md, "Coordination for agents"): who works on a ticket until when. A claim
 * is a row that reads as no claim once `expiresAt` has passed, so nothing has to run when a lease
 * runs out. Every claim decision happens inside one transaction, and transactions are serialised,
 * so however many callers race no ticket is handed to two live claims.
 */
export function ticketClaimService(
  stores: Pick<Stores, "tickets" | "ticketClaims" | "ticketReadiness" | "lanes">,
  deps: {
    boards: Pick<BoardService, "require">;
    views: TicketViews;
    activity: ActivityRecorder;
    readyHeads: ReadyHeadSlot;
  },
  transact: Transact,
) {
  const { tickets, ticketClaims } = stores;
  const { boards, views, activity, readyHeads } = deps;
  /** claim-next requests waiting for the next turn of the event loop (`claimPending`). */
  let pending: PendingClaimNext[] = [];

  /**
   * Claims a ticket known to exist for `actor` (no live claim of another actor); answers when
   * the claim ends.
   */
  function start(boardId: number, ticketId: number, actor: string, leaseSeconds?: number): string {
    // One reading of the clock for both ends: two readings could be a millisecond apart.
    const claimedMillis = nowMillis();
    const claimedAt = new Date(claimedMillis).toISOString();
    const expiresAt = leaseEnd(claimedMillis, leaseSeconds);
    ticketClaims.set({ ticketId, boardId, actor, claimedAt, expiresAt });
    activity.record({
      boardId,
      ticketId,
      action: "ticket_claimed",
      message: `Claimed by ${actor}`,
      details: { actor, expiresAt },
    });
    return expiresAt;
  }

  // Every write answers the row it left (its answer is the full Ticket of that row).
  const service = {
    /** Claims or, for the actor holding it, renews the claim of a ticket. */
    claim(ticketId: number, input: ClaimInput): TicketWritten {
      const actor = cleanActor(input.actor);
      checkLease(input.leaseSeconds);
      return transact((changes) => {
        const ticket = tickets.row(ticketId);
        if (!ticket) throw new NotFound("ticket not found");
        if (ticket.isResolved) throw new Conflict("ticket is resolved");
        if (ticket.isArchived) throw new Conflict("ticket is archived");
        const held = claimView(ticketClaims.get(ticketId), now(), ticket);
        if (held && held.actor !== actor) {
          throw new Conflict(`ticket is claimed by ${held.actor} until ${held.expiresAt}`);
        }
        if (held) {
          // Renewal: the lease moves, the claim and its history stay.
          ticketClaims.set({
            ticketId,
            boardId: ticket.boardId,
            actor,
            claimedAt: held.claimedAt,
            expiresAt: leaseEnd(nowMillis(), input.leaseSeconds),
          });
        } else {
          start(ticket.boardId, ticketId, actor, input.leaseSeconds);
        }
        changes.touched(ticket.boardId);
        return views.written(ticketId);
      });
    },

    /** Ends the actor's claim; an unclaimed ticket or an expired claim is already released. */
    release(ticketId: number, input: { actor: string }): TicketWritten {
      const actor = cleanActor(input.actor);
      return transact((changes) => {
        const ticket = tickets.row(ticketId);
        if (!ticket) throw new NotFound("ticket not found");
        const held = claimView(ticketClaims.get(ticketId), now(), ticket);
        // Nothing written: the row read is the answer's.
        if (!held) return { record: ticket };
        if (held.actor !== actor) {
          throw new Conflict(`ticket is claimed by ${held.actor} until ${held.expiresAt}`);
        }
        ticketClaims.remove(ticketId);
        activity.record({
          boardId: ticket.boardId,
          ticketId,
          action: "ticket_released",
          message: `Released by ${actor}`,
          details: { actor, reason: "released" satisfies ClaimEndReason },
        });
        changes.touched(ticket.boardId);
        return views.written(ticketId);
      });
    },

    /**
     * Claims the first ticket of the board's ready queue within the filter: the row it left,
     * null when none is ready. Requests that arrive together share one unit of work
     * (`claimPending`).
     */
    claimNext(boardId: number, input: ClaimNextInput): Promise<TicketWritten | null> {
      return new Promise((resolve, reject) => {
        const actor = cleanActor(input.actor);
        checkLease(input.leaseSeconds);
        pending.push({ boardId, input, actor, resolve, reject });
        if (pending.length === 1) setImmediate(claimPending);
      });
    },
  };

  /**
   * The claim-next requests of one turn of the event loop (every request whose bytes arrived
   * together) in one unit of work, in their order of arrival: one commit, one claim settlement
   * and one stream message per board for all of them, where each claim used to pay its own.
   * Each request still gets its own outcome: its checks run before it writes, and a failure of
   * a write (or of the commit) fails the whole unit, so nothing is half done. No ticket is
   * handed out twice: each pick leaves out the tickets the unit claimed so far (`taken`; the
   * SQL walk sees their claims). An answer still waits for the sync that makes its claim
   * durable (http/durable-answers.ts); the claims of a unit share it.
   */
  function claimPending(): void {
    const batch = pending;
    pending = [];
    const outcomes: Array<{ written: TicketWritten | null } | { error: unknown }> = [];
    try {
      transact((changes) => {
        const unit: ClaimUnit = { taken: new Set(), boards: new Set() };
        for (const request of batch) {
          let ticketId: number | undefined;
          try {
            ticketId = pick(request.boardId, request.input, unit);
          } catch (error) {
            outcomes.push({ error });
            continue;
          }
          if (ticketId === undefined) {
            outcomes.push({ written: null });
            continue;
          }
          start(request.boardId, ticketId, request.actor, request.input.leaseSeconds);
          unit.taken.add(ticketId);
          changes.touched(request.boardId);
          outcomes.push({ written: views.written(ticketId) });
        }
      });
    } catch (error) {
      for (const request of batch) request.reject(error);
      return;
    }
    batch.forEach((request, index) => {
      const outcome = outcomes[index] as { written: TicketWritten | null } | { error: unknown };
      if ("error" in outcome) request.reject(outcome.error);
      else request.resolve(outcome.written);
    });
  }

  /**
   * The ticket a claim-next request gets: the first of the ready queue within its filter, from
   * the kept ready order when there is a keeper (`ReadyHeads`), else found in SQL; undefined
   * when none is ready. Checks only: it writes nothing.
   */
  function pick(boardId: number, input: ClaimNextInput, unit: ClaimUnit): number | undefined {
    if (!unit.boards.has(boardId)) boards.require(boardId);
    unit.boards.add(boardId);
    if (input.laneId !== undefined && stores.lanes.get(input.laneId)?.boardId !== boardId) {
      throw new InvalidInput("laneId must be a lane of this board");
    }
    const tag = input.tag?.trim();
    const filter: ReadyHeadFilter = {
      ...(input.laneId !== undefined ? { laneId: input.laneId } : {}),
      ...(input.priority !== undefined ? { priority: input.priority } : {}),
    };
    const at = now();
    const heads = tag ? undefined : readyHeads.heads;
    let ticketId = heads ? heads.firstReady(boardId, filter, unit.taken, at) : "unknown";
    // A ticket handed to two live claims is the one failure claims must never have: a kept
    // pick is checked against the rule in SQL (one ticket's probes) before it is claimed.
    if (typeof ticketId === "number" && !stores.ticketReadiness.isReady(boardId, ticketId, at)) {
      ticketId = "unknown";
    }
    if (ticketId !== "unknown") return ticketId;
    return stores.ticketReadiness.firstReady(boardId, at, {
      ...filter,
      ...(tag ? { tagKey: nameKey(tag) } : {}),
    });
  }

  return service;
}

export type TicketClaimService = ReturnType<typeof ticketClaimService>;

/**
 * Runs before every commit: ends the claims of tickets this transaction resolved, archived or
 * moved to another board (recording why, unless the claim had already expired), then hands the
 * changed tickets to the board notifications. Versions were raised as the changes happened
 * (storage/ticket-changes.ts).
 */
export function claimSettlement(
  stores: Pick<Stores, "ticketChanges" | "ticketClaims">,
  activity: ActivityRecorder,
) {
  return (changes: BoardChanges): void => {
    const at = now();
    for (const claim of stores.ticketChanges.claimsOfChanged()) {
      const reason: ClaimEndReason | null = claim.moved
        ? "moved"
        : claim.isResolved
          ? "resolved"
          : claim.isArchived
            ? "archived"
            : null;
      if (!reason) continue;
      stores.ticketClaims.remove(claim.ticketId);
      if (claim.expiresAt <= at) continue;
      activity.record({
        boardId: claim.boardId,
        ticketId: claim.ticketId,
        action: "ticket_released",
        message: `Claim of ${claim.actor} ended: ${reason}`,
        details: { actor: claim.actor, reason },
      });
    }
    for (const { ticketId, boardId } of stores.ticketChanges.flush()) {
      changes.ticketChanged(boardId, ticketId);
    }
  };
}
