import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import type { BoardService } from "../boards/boards.js";
import { now, nowMillis } from "../clock.js";
import { Conflict, InvalidInput, NotFound } from "../errors.js";
import { cleanName, nameKey } from "../names.js";
import type { BoardChanges, Transact } from "../transaction.js";
import type { BoardLists, ClaimMade, ClaimToApply } from "./board-lists.js";
import { claimView } from "./claim-view.js";
import type { TicketJson } from "./ticket-json.js";
import type { SerializeTicket, TicketViews } from "./ticket-views.js";

/** docs/api.md, "Coordination for agents": lease bounds and default, in seconds. */
export const LEASE_MIN_SECONDS = 10;
export const LEASE_MAX_SECONDS = 86_400;
export const LEASE_DEFAULT_SECONDS = 900;
export const ACTOR_MAX = 100;

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

interface PendingClaimNext {
  boardId: number;
  input: ClaimNextInput;
  /** The actor's name, cleaned. */
  actor: string;
  serialize: SerializeTicket;
  /** The claimed Ticket's JSON, or null when none is ready. */
  resolve(json: TicketJson | null): void;
  reject(error: unknown): void;
}

/** What a claim-next unit of work has done so far: the tickets it claimed, the boards it found. */
interface ClaimUnit {
  taken: Set<number>;
  boards: Set<number>;
}

/** claim-next's answers read a ticket's parts for the answer alone (`views.ticketJson`). */
const NOT_KEPT = { keep: false };

const leaseEnd = (leaseSeconds = LEASE_DEFAULT_SECONDS) =>
  new Date(nowMillis() + leaseSeconds * 1000).toISOString();

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
  stores: Pick<Stores, "tickets" | "ticketClaims" | "ticketReadiness" | "lanes" | "ticketChanges">,
  deps: {
    boards: Pick<BoardService, "require">;
    views: TicketViews;
    lists: Pick<BoardLists, "firstReady" | "claimsToApply" | "applyClaims">;
    activity: ActivityRecorder;
  },
  transact: Transact,
) {
  const { tickets, ticketClaims } = stores;
  const { boards, views, lists, activity } = deps;
  /** claim-next requests waiting for the next turn of the event loop (`claimPending`). */
  let pending: PendingClaimNext[] = [];

  /**
   * Claims a ticket known to exist for `actor` (no live claim of another actor); answers when
   * the claim ends.
   */
  function start(boardId: number, ticketId: number, actor: string, leaseSeconds?: number): string {
    const claimedAt = now();
    const expiresAt = leaseEnd(leaseSeconds);
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

  // Every answer is the full Ticket's JSON as `serialize` (the route's response serializer)
  // writes it, joined from the JSON kept with the ticket's parts when it has some
  // (`views.ticketJson`, ticket-json.ts).
  const service = {
    /** Claims or, for the actor holding it, renews the claim of a ticket. */
    claim(ticketId: number, input: ClaimInput, serialize: SerializeTicket): TicketJson {
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
            expiresAt: leaseEnd(input.leaseSeconds),
          });
        } else {
          start(ticket.boardId, ticketId, actor, input.leaseSeconds);
        }
        changes.touched(ticket.boardId);
        return views.ticketJson(ticketId, serialize);
      });
    },

    /** Ends the actor's claim; an unclaimed ticket or an expired claim is already released. */
    release(ticketId: number, input: { actor: string }, serialize: SerializeTicket): TicketJson {
      const actor = cleanActor(input.actor);
      return transact((changes) => {
        const ticket = tickets.row(ticketId);
        if (!ticket) throw new NotFound("ticket not found");
        const held = claimView(ticketClaims.get(ticketId), now(), ticket);
        // Nothing written: the row read is the answer's.
        if (!held) return views.ticketJson(ticketId, serialize, { record: ticket });
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
        return views.ticketJson(ticketId, serialize);
      });
    },

    /**
     * Claims the first ticket of the board's ready queue within the filter: its JSON, null when
     * none. Requests that arrive together share one unit of work (`claimPending`).
     */
    claimNext(
      boardId: number,
      input: ClaimNextInput,
      serialize: SerializeTicket,
    ): Promise<TicketJson | null> {
      return new Promise((resolve, reject) => {
        const actor = cleanActor(input.actor);
        checkLease(input.leaseSeconds);
        pending.push({ boardId, input, actor, serialize, resolve, reject });
        if (pending.length === 1) setImmediate(claimPending);
      });
    },
  };

  /**
   * The claim-next requests of one turn of the event loop (every request whose bytes arrived
   * together) in one unit of work, in their order of arrival: one commit, one claim settlement
   * and one stream message per board for all of them, where each claim used to pay its own.
   * Each request still gets its own answer or error: its checks run before it writes, and a
   * failure of a write (or of the commit) fails the whole unit, so nothing is half done. No
   * ticket is handed out twice: each pick leaves out the tickets the unit claimed so far, and
   * is checked against the rule in SQL, which sees those claims. An answer still waits for the
   * sync that makes its claim durable (http/durable-answers.ts); the claims of a unit share it.
   */
  function claimPending(): void {
    const batch = pending;
    pending = [];
    const outcomes: Array<{ json: TicketJson | null } | { error: unknown }> = [];
    let toApply: ClaimToApply[] = [];
    try {
      transact((changes) => {
        const unit: ClaimUnit = { taken: new Set(), boards: new Set() };
        const made: ClaimMade[] = [];
        for (const request of batch) {
          let ticketId: number | undefined;
          try {
            ticketId = pick(request.boardId, request.input, unit);
          } catch (error) {
            outcomes.push({ error });
            continue;
          }
          if (ticketId === undefined) {
            outcomes.push({ json: null });
            continue;
          }
          const { boardId } = request;
          const expiresAt = start(boardId, ticketId, request.actor, request.input.leaseSeconds);
          made.push({ boardId, ticketId, expiresAt });
          unit.taken.add(ticketId);
          changes.touched(boardId);
          // A ticket claim-next hands out was usually never read, and its next write (a
          // comment) drops its parts: keeping them for this answer only fed the collector.
          const json = views.ticketJson(ticketId, request.serialize, undefined, NOT_KEPT);
          outcomes.push({ json });
        }
        // Claims alone (as many tickets noted as claims): memory takes them in after the
        // commit, without re-reading their tickets before the next pick or list.
        if (made.length > 0 && stores.ticketChanges.count() === unit.taken.size) {
          toApply = lists.claimsToApply(made);
        }
      });
    } catch (error) {
      for (const request of batch) request.reject(error);
      return;
    }
    lists.applyClaims(toApply);
    batch.forEach((request, index) => {
      const outcome = outcomes[index] as { json: TicketJson | null } | { error: unknown };
      if ("error" in outcome) request.reject(outcome.error);
      else request.resolve(outcome.json);
    });
  }

  /**
   * The ticket a claim-next request gets, leaving out those its unit of work claimed already;
   * undefined when none is ready. Checks only: it writes nothing.
   */
  function pick(boardId: number, input: ClaimNextInput, unit: ClaimUnit): number | undefined {
    // A board found earlier in the unit is still there: the unit only claims.
    if (!unit.boards.has(boardId)) boards.require(boardId);
    unit.boards.add(boardId);
    if (input.laneId !== undefined && stores.lanes.get(input.laneId)?.boardId !== boardId) {
      throw new InvalidInput("laneId must be a lane of this board");
    }
    const tag = input.tag?.trim();
    const filter = {
      ...(input.laneId !== undefined ? { laneId: input.laneId } : {}),
      ...(input.priority !== undefined ? { priority: input.priority } : {}),
    };
    const at = now();
    // The board lists' memory picks without walking the board; the pick is checked against
    // the rule in SQL, and anything unexpected falls back to the SQL walk.
    let ticketId = tag ? "unknown" : lists.firstReady(boardId, filter, unit.taken);
    if (typeof ticketId === "number" && !stores.ticketReadiness.isReady(boardId, ticketId, at)) {
      ticketId = "unknown";
    }
    if (ticketId === "unknown") {
      ticketId = stores.ticketReadiness.firstReady(boardId, at, {
        ...filter,
        ...(tag ? { tagKey: nameKey(tag) } : {}),
      });
    }
    return ticketId;
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
