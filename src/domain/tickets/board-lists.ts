import type { Stores } from "../../storage/index.js";
import type { TicketPlacement } from "../../storage/ticket-placements.js";
import type { TicketListFilter } from "../../storage/tickets.js";
import { now } from "../clock.js";
import { NotFound } from "../errors.js";
import type { TicketSummary } from "../model.js";
import type { BoardChanges, Read } from "../transaction.js";
import {
  BoardList,
  heldUntil,
  indexIn,
  KEPT_MATCHES,
  type KeptMatches,
  type Listed,
  laneOrder,
  passesFlags,
  type ReadyGroup,
  type ReadyLane,
  type Runs,
  sortedIndex,
} from "./board-list.js";

/**
 * The board lists kept in memory (issue #20, docs/performance.md, "Board lists kept in memory"):
 * for each board a list was asked of, every ticket's placement (lane, position, flags, priority) in
 * lane arrays kept in board order, each ticket's serialized summary once a list needed it, and
 * the board's "startable" set (the ready rule without its claim test), texts joined from the
 * pieces (per lane; per lane and priority for the ready queue) and the ids recent tag/search
 * filters matched (board-list.ts). A list after a write then re-reads, re-tests and
 * re-serializes only the tickets that write changed, joins again only the lanes they are in,
 * and answers the other lanes' texts as they were.
 *
 * THE INVARIANT (for anyone adding a write path): after every commit, `changed` receives the
 * unit of work's BoardChanges, whose `changedTickets` are gathered by SQLite triggers
 * (storage/ticket-changes.ts) on every table a ticket's representation shows; those tickets are
 * re-read before the next list. So a write is seen here whatever code path made it, as long as
 * it runs inside `transact` on this process's connection (a restore from a trash, an import, a
 * cascade). What changes an answer without any row changing is handled here: a claim ending by
 * the clock and a `notBefore` passing (pieces showing a claim are dropped once it ends, a lane's
 * ready texts are kept only until the first ticket they left out for the clock is free again:
 * board-list.ts `heldUntil`), a ticket's readiness following
 * its parent's blockers (children of changed tickets are re-checked, and a lane whose ticket's
 * readiness flipped loses its ready texts), the order of lanes (read per list, lanes are few), a
 * deleted board (its list is dropped). Lists are never built inside a
 * unit of work (`pieces` answers undefined there), so nothing a rollback undoes is ever kept.
 */

/**
 * The filters whose lane runs are kept (the UI's board and "show archived"): each kept run is
 * another copy of its tickets' pieces, so the others are joined per request.
 */
const JOINED_FILTERS = new Set(["active.undefined", "all.undefined"]);

export type SummariesOf = (boardId: number, ids: readonly number[]) => TicketSummary[];

/** A claim made by a claim-next unit of work. */
export interface ClaimMade {
  boardId: number;
  ticketId: number;
  expiresAt: string;
}

/** A claim memory can take in without re-reading its ticket (`claimsToApply`). */
export interface ClaimToApply extends ClaimMade {
  listed: Listed;
}

export function boardLists(
  stores: Pick<
    Stores,
    | "boards"
    | "ticketPlacements"
    | "tickets"
    | "lanes"
    | "ticketReadiness"
    | "ticketClaims"
    | "ticketChanges"
  >,
  read: Read,
  /** Whether a unit of work is open on the connection (lists are then built the plain way). */
  inUnitOfWork: () => boolean,
) {
  const lists = new Map<number, BoardList>();

  /** Adds a ticket to its lane: in order into a sorted lane, else appended (sorted later). */
  function place(list: BoardList, placement: TicketPlacement): void {
    const listed: Listed = { ...placement, piece: undefined, claimEndsAt: null };
    list.tickets.set(listed.id, listed);
    list.readyOrder = undefined;
    list.placements++;
    const lane = list.lanes.get(listed.laneId);
    let index = 0;
    if (!lane) list.lanes.set(listed.laneId, [listed]);
    else if (list.unsorted.has(listed.laneId)) lane.push(listed);
    else {
      index = sortedIndex(lane, listed);
      lane.splice(index, 0, listed);
    }
    changedLane(list, listed.laneId, index);
  }

  /** Takes a ticket out of its lane (found by its place in the order when the lane is sorted). */
  function unplace(list: BoardList, listed: Listed): void {
    list.tickets.delete(listed.id);
    list.readyOrder = undefined;
    list.placements++;
    list.showingClaims.delete(listed);
    const lane = list.lanes.get(listed.laneId);
    if (!lane) return;
    const index = list.unsorted.has(listed.laneId) ? lane.indexOf(listed) : indexIn(lane, listed);
    if (index >= 0) lane.splice(index, 1);
    if (lane.length === 0) list.lanes.delete(listed.laneId);
    changedLane(list, listed.laneId, Math.max(index, 0));
  }

  /**
   * A ticket came into or left a lane at `from`: the lane's runs from there on no longer hold
   * (the tickets after it moved by one), nor does its ready part.
   */
  function changedLane(list: BoardList, laneId: number, from: number): void {
    const first = Math.floor(from / list.runLength);
    for (const runs of list.laneRuns.get(laneId)?.values() ?? []) {
      if (runs.length > first) runs.length = first;
    }
    list.readyLanes.delete(laneId);
  }

  /**
   * Drops a ticket's piece, and the runs that hold it (it keeps its place). Call it before the
   * fields the lane is sorted by change: the runs are found by the ticket's place.
   */
  function dropPiece(list: BoardList, listed: Listed): void {
    listed.piece = undefined;
    listed.claimEndsAt = null;
    list.showingClaims.delete(listed);
    const byFilter = list.laneRuns.get(listed.laneId);
    const lane = list.lanes.get(listed.laneId);
    if (byFilter && lane) {
      const index = list.unsorted.has(listed.laneId) ? -1 : indexIn(lane, listed);
      const run = Math.floor(index / list.runLength);
      if (index < 0) byFilter.clear();
      else for (const runs of byFilter.values()) if (run < runs.length) runs[run] = undefined;
    }
    const group = list.readyLanes.get(listed.laneId)?.byPriority.get(listed.priority);
    const member = group ? indexIn(group.members, listed) : -1;
    // A ticket outside the group shows in none of its runs (one that becomes ready drops the
    // whole ReadyLane, see `startable`).
    if (group && member >= 0) group.runs[Math.floor(member / list.runLength)] = undefined;
  }

  /** Re-reads the tickets changed since the last list; they lose their pieces. */
  function refresh(list: BoardList, boardId: number): void {
    const rows = stores.ticketPlacements.byIds(list.stale);
    for (const id of list.stale) {
      const old = list.tickets.get(id);
      const row = rows.get(id);
      const stays = row !== undefined && row.boardId === boardId;
      if (old) {
        dropPiece(list, old);
        if (
          stays &&
          row.laneId === old.laneId &&
          row.isArchived === old.isArchived &&
          row.position === old.position
        ) {
          // Same place in the order (a title, a flag, a claim): only the fields change.
          if (old.priority !== row.priority) {
            list.readyOrder = undefined;
            // It leaves one priority's group for another's: both are made again.
            const ready = list.readyLanes.get(old.laneId);
            ready?.stale.add(old.priority);
            ready?.stale.add(row.priority);
          }
          if (old.claimExpiresAt !== row.claimExpiresAt) claimEndChanged(list, row.claimExpiresAt);
          // Held until another moment: the held head is found again.
          if (old.notBefore !== row.notBefore) forgetClaimedHead(list);
          old.isResolved = row.isResolved;
          old.priority = row.priority;
          old.claimExpiresAt = row.claimExpiresAt;
          old.notBefore = row.notBefore;
          continue;
        }
        unplace(list, old);
      }
      if (stays) place(list, row);
    }
    list.stale.clear();
  }

  /** A kept ticket's claim end changed: the claimed head of the ready order may no longer hold. */
  function claimEndChanged(list: BoardList, claimExpiresAt: string | null): void {
    if (claimExpiresAt === null) forgetClaimedHead(list);
    else if (list.claimedHeadUntil !== null && claimExpiresAt < list.claimedHeadUntil) {
      list.claimedHeadUntil = claimExpiresAt;
    }
  }

  function forgetClaimedHead(list: BoardList): void {
    list.claimedHead = 0;
    list.claimedHeadUntil = null;
  }

  /** The board's list, current: built on first use, changed tickets re-read, lanes sorted. */
  function current(boardId: number): BoardList {
    let list = lists.get(boardId);
    if (!list) {
      list = new BoardList();
      for (const placement of stores.ticketPlacements.ofBoard(boardId)) {
        list.unsorted.add(placement.laneId);
        place(list, placement);
      }
      lists.set(boardId, list);
    } else if (list.stale.size > 0) {
      refresh(list, boardId);
    }
    const at = now();
    for (const listed of list.showingClaims) {
      if (listed.claimEndsAt === null || listed.claimEndsAt <= at) dropPiece(list, listed);
    }
    for (const laneId of list.unsorted) list.lanes.get(laneId)?.sort(laneOrder);
    list.unsorted.clear();
    return list;
  }

  /** The board's lane ids in board order, or the filter's one lane. */
  function laneIdsOf(boardId: number, filter: TicketListFilter): number[] {
    return filter.laneId !== undefined ? [filter.laneId] : idsOf(stores.lanes.orderOf(boardId));
  }

  /** A lane's tickets within the filter's flags, in order. */
  function laneTickets(list: BoardList, laneId: number, filter: TicketListFilter): Listed[] {
    const result: Listed[] = [];
    for (const listed of list.lanes.get(laneId) ?? []) {
      if (filter.archived === "active" && listed.isArchived) break;
      if (filter.archived === "archived" && !listed.isArchived) continue;
      if (filter.isResolved !== undefined && listed.isResolved !== filter.isResolved) continue;
      result.push(listed);
    }
    return result;
  }

  /**
   * A list without tag, search or ready, as UTF-8 runs of joined pieces in board order. The
   * UI's filters (JOINED_FILTERS) keep each lane's runs: only the runs whose tickets changed are
   * joined again, so a read after a write re-encodes a few runs and copies the others.
   */
  function laneRunsOf(
    list: BoardList,
    boardId: number,
    filter: TicketListFilter,
    summariesOf: SummariesOf,
    serialize: (summary: TicketSummary) => string,
  ): Buffer[] {
    const key = `${filter.archived}.${filter.isResolved}`;
    const laneIds = laneIdsOf(boardId, filter);
    if (!JOINED_FILTERS.has(key)) {
      const chosen = laneIds.flatMap((laneId) => laneTickets(list, laneId, filter));
      fill(list, boardId, chosen, summariesOf, serialize);
      return asRuns(chosen);
    }
    const length = list.runLength;
    const toJoin: Array<{ runs: Runs; index: number; tickets: Listed[] }> = [];
    const lanes: Runs[] = [];
    for (const laneId of laneIds) {
      const tickets = list.lanes.get(laneId);
      if (!tickets) continue;
      // Active tickets come first in a lane: the default list is a prefix of it.
      const end = filter.archived === "active" ? activeCount(tickets) : tickets.length;
      let byFilter = list.laneRuns.get(laneId);
      if (!byFilter) {
        byFilter = new Map();
        list.laneRuns.set(laneId, byFilter);
      }
      let runs = byFilter.get(key);
      if (!runs) {
        runs = [];
        byFilter.set(key, runs);
      }
      for (let index = 0; index * length < end; index++) {
        if (runs[index] !== undefined) continue;
        const from = index * length;
        toJoin.push({ runs, index, tickets: tickets.slice(from, Math.min(from + length, end)) });
      }
      lanes.push(runs);
    }
    fill(
      list,
      boardId,
      toJoin.flatMap((run) => run.tickets),
      summariesOf,
      serialize,
    );
    for (const { runs, index, tickets } of toJoin) runs[index] = joined(tickets);
    const parts: Buffer[] = [];
    for (const runs of lanes) for (const run of runs) if (run && run.length > 0) parts.push(run);
    return parts;
  }

  /** The board's startable set, brought up to date. */
  function startable(list: BoardList, boardId: number): Set<number> {
    const readiness = stores.ticketReadiness;
    if (!list.startable) {
      list.startable = readiness.startableIds(boardId);
      list.startableStale.clear();
      list.readyOrder = undefined;
    } else if (list.startableStale.size > 0) {
      // A ticket's readiness also follows its parent's blockers: a changed ticket's children
      // are re-checked too (every other dependency notes the ticket itself as changed).
      const ids = new Set(list.startableStale);
      for (const child of readiness.childIdsOf(list.startableStale)) ids.add(child);
      const startable = readiness.startableAmong(boardId, ids);
      for (const id of ids) {
        const is = startable.has(id);
        if (is === list.startable.has(id)) continue;
        if (is) list.startable.add(id);
        else list.startable.delete(id);
        list.readyOrder = undefined;
        // A child whose readiness flipped with its parent's blockers: nothing of its own changed.
        const listed = list.tickets.get(id);
        if (listed) list.readyLanes.delete(listed.laneId);
      }
      list.startableStale.clear();
    }
    return list.startable;
  }

  /**
   * claim-next's order (see BoardList.readyOrder), made again only when it no longer holds: a
   * pick then starts after the claimed tickets at its head (BoardList.claimedHead), and never
   * asks SQL for the board's claims (each ticket's claim end is kept with its placement).
   */
  function readyOrderOf(list: BoardList, boardId: number): Listed[] {
    const ids = startable(list, boardId);
    const lanesKey = stores.lanes.orderOf(boardId);
    if (list.readyOrder && list.readyOrderLanes === lanesKey) return list.readyOrder;
    forgetClaimedHead(list);
    const laneIds = idsOf(lanesKey);
    const byPriority = new Map<number, Listed[]>();
    for (const laneId of laneIds) {
      for (const listed of list.lanes.get(laneId) ?? []) {
        if (listed.isArchived) break;
        if (!ids.has(listed.id)) continue;
        const bucket = byPriority.get(listed.priority);
        if (bucket) bucket.push(listed);
        else byPriority.set(listed.priority, [listed]);
      }
    }
    list.readyOrder = [...byPriority.keys()]
      .sort((a, b) => b - a)
      .flatMap((priority) => byPriority.get(priority) ?? []);
    list.readyOrderLanes = lanesKey;
    return list.readyOrder;
  }

  /**
   * The ready ones of `chosen` (in board order) in the ready queue's order: priority desc, then
   * board order. One pass into a bucket per priority, no sort.
   */
  function inReadyOrder(list: BoardList, boardId: number, chosen: Listed[]): Listed[] {
    const ids = startable(list, boardId);
    const at = now();
    const byPriority = new Map<number, Listed[]>();
    for (const listed of chosen) {
      if (!ids.has(listed.id) || heldUntil(listed, at) !== null) continue;
      const bucket = byPriority.get(listed.priority);
      if (bucket) bucket.push(listed);
      else byPriority.set(listed.priority, [listed]);
    }
    return [...byPriority.keys()]
      .sort((a, b) => b - a)
      .flatMap((priority) => byPriority.get(priority) ?? []);
  }

  /**
   * The ready queue without tag or search, as UTF-8 runs: per priority (highest first), each
   * lane's ready tickets of that priority. Only the runs whose tickets changed (or one of whose
   * claims ended) are joined again, from the lane's startable tickets kept in order, so a read
   * after a write joins a few runs, not the queue.
   */
  function readyRunsOf(
    list: BoardList,
    boardId: number,
    filter: TicketListFilter,
    summariesOf: SummariesOf,
    serialize: (summary: TicketSummary) => string,
  ): Buffer[] {
    // The ready rule wants open, active tickets: these filters leave none.
    if (filter.archived === "archived" || filter.isResolved === true) return [];
    const ids = startable(list, boardId);
    const at = now();
    const length = list.runLength;
    const laneIds = laneIdsOf(boardId, filter);
    const toJoin: Array<{
      group: ReadyGroup;
      index: number;
      chosen: Listed[];
      until: string | null;
    }> = [];
    const lanes: ReadyLane[] = [];
    for (const laneId of laneIds) {
      const tickets = list.lanes.get(laneId);
      if (!tickets) continue;
      let lane = list.readyLanes.get(laneId);
      if (!lane) {
        const candidates: Listed[] = [];
        for (const listed of tickets) {
          if (listed.isArchived) break;
          if (ids.has(listed.id)) candidates.push(listed);
        }
        lane = { candidates, byPriority: new Map(), stale: new Set() };
        for (const listed of candidates) lane.stale.add(listed.priority);
        list.readyLanes.set(laneId, lane);
      }
      for (const priority of lane.stale) {
        const members = lane.candidates.filter((listed) => listed.priority === priority);
        if (members.length === 0) lane.byPriority.delete(priority);
        else lane.byPriority.set(priority, { members, runs: [] });
      }
      lane.stale.clear();
      for (const group of lane.byPriority.values()) {
        for (let index = 0; index * length < group.members.length; index++) {
          const kept = group.runs[index];
          if (kept && (kept.until === null || kept.until > at)) continue;
          const chosen: Listed[] = [];
          let until: string | null = null;
          for (const listed of group.members.slice(index * length, (index + 1) * length)) {
            const held = heldUntil(listed, at);
            if (held === null) chosen.push(listed);
            else if (until === null || held < until) until = held;
          }
          toJoin.push({ group, index, chosen, until });
        }
      }
      lanes.push(lane);
    }
    fill(
      list,
      boardId,
      toJoin.flatMap((run) => run.chosen),
      summariesOf,
      serialize,
    );
    for (const { group, index, chosen, until } of toJoin) {
      group.runs[index] = { bytes: joined(chosen), until };
    }
    const priorities = [...new Set(lanes.flatMap((lane) => [...lane.byPriority.keys()]))];
    const parts: Buffer[] = [];
    for (const priority of priorities.sort((a, b) => b - a)) {
      for (const lane of lanes) {
        for (const run of lane.byPriority.get(priority)?.runs ?? []) {
          if (run && run.bytes.length > 0) parts.push(run.bytes);
        }
      }
    }
    return parts;
  }

  /**
   * The tickets a tag and/or search filter matches on the board: kept per filter once asked,
   * and then only the tickets changed since are tested again (in SQL, by id).
   */
  function matchesOf(list: BoardList, boardId: number, filter: TicketListFilter): KeptMatches {
    const key = JSON.stringify([filter.tagKey ?? null, filter.search ?? null]);
    let kept: KeptMatches | undefined = list.matches.get(key);
    if (!kept) {
      const ids = new Set(stores.tickets.matchingIds(boardId, filter));
      kept = { ids, changed: new Set(), ordered: undefined };
      for (const [oldest] of list.matches) {
        if (list.matches.size < KEPT_MATCHES) break;
        list.matches.delete(oldest);
      }
    } else {
      // Most recently used last.
      list.matches.delete(key);
      if (kept.changed.size > 0) {
        const matching = new Set(stores.tickets.matchingIds(boardId, filter, kept.changed));
        for (const id of kept.changed) {
          if (matching.has(id) === kept.ids.has(id)) continue;
          if (matching.has(id)) kept.ids.add(id);
          else kept.ids.delete(id);
          kept.ordered = undefined;
        }
        kept.changed.clear();
      }
    }
    list.matches.set(key, kept);
    return kept;
  }

  /**
   * The matched tickets within the filter's lane and flags, in board order: the matches are
   * sorted again only when one came or went, or a ticket or lane of the board moved.
   */
  function inBoardOrder(
    list: BoardList,
    boardId: number,
    kept: KeptMatches,
    filter: TicketListFilter,
  ): Listed[] {
    const lanes = stores.lanes.orderOf(boardId);
    let ordered = kept.ordered;
    if (!ordered || ordered.placements !== list.placements || ordered.lanes !== lanes) {
      const laneIds = idsOf(lanes);
      const rank = new Map(laneIds.map((laneId, index) => [laneId, index]));
      const rankOf = (listed: Listed) => rank.get(listed.laneId) ?? rank.size;
      const tickets = [...kept.ids].flatMap((id) => list.tickets.get(id) ?? []);
      tickets.sort((a, b) => rankOf(a) - rankOf(b) || laneOrder(a, b));
      ordered = { tickets, placements: list.placements, lanes };
      kept.ordered = ordered;
    }
    return ordered.tickets.filter((listed) => passesFlags(listed, filter));
  }

  /** Serializes the summaries of the tickets that have no piece (one query set for all). */
  function fill(
    list: BoardList,
    boardId: number,
    chosen: Listed[],
    summariesOf: SummariesOf,
    serialize: (summary: TicketSummary) => string,
  ): void {
    const missing = chosen.filter((listed) => listed.piece === undefined);
    if (missing.length === 0) return;
    const summaries = summariesOf(
      boardId,
      missing.map((listed) => listed.id),
    );
    summaries.forEach((summary, index) => {
      const listed = missing[index] as Listed;
      listed.piece = pieceBytes(serialize(summary));
      if (summary.claim) {
        listed.claimEndsAt = summary.claim.expiresAt;
        list.showingClaims.add(listed);
      }
    });
  }

  return {
    /** After each commit: the changed tickets are re-read before the next list. */
    changed(changes: BoardChanges): void {
      for (const boardId of changes.deletedBoards) lists.delete(boardId);
      for (const [boardId, ids] of changes.changedTickets) {
        const list = lists.get(boardId);
        if (!list) continue;
        for (const id of ids) {
          list.stale.add(id);
          if (list.startable) list.startableStale.add(id);
        }
        for (const kept of list.matches.values()) for (const id of ids) kept.changed.add(id);
      }
    },

    /**
     * Of the claims a claim-next unit of work made, those memory can take in after its commit
     * without re-reading their tickets (`applyClaims`). Call it inside the unit, only when the
     * unit changed nothing but these claims (as many tickets noted as claims): a claim changes
     * a ticket's version and claim end, never its place, flags, priority or startability (the
     * ready rule without its claim test). Only tickets memory holds current now qualify, so
     * the commit's notes are the only ones `applyClaims` takes back.
     */
    claimsToApply(claims: readonly ClaimMade[]): ClaimToApply[] {
      const result: ClaimToApply[] = [];
      for (const claim of claims) {
        const list = lists.get(claim.boardId);
        const listed = list?.tickets.get(claim.ticketId);
        if (!list || !listed || list.stale.has(claim.ticketId)) continue;
        if (list.startableStale.has(claim.ticketId)) continue;
        result.push({ ...claim, listed });
      }
      return result;
    },

    /**
     * After the commit of the unit that gave `claimsToApply` its claims: each ticket's new
     * claim end is set and its piece dropped (its version changed), in place of the re-read of
     * its placement and the re-check of its startability that the commit's notes ask for.
     */
    applyClaims(claims: readonly ClaimToApply[]): void {
      for (const { boardId, ticketId, expiresAt, listed } of claims) {
        const list = lists.get(boardId);
        if (!list || list.tickets.get(ticketId) !== listed || !list.stale.has(ticketId)) continue;
        dropPiece(list, listed);
        if (listed.claimExpiresAt !== expiresAt) claimEndChanged(list, expiresAt);
        listed.claimExpiresAt = expiresAt;
        list.stale.delete(ticketId);
        list.startableStale.delete(ticketId);
      }
    },

    /**
     * The first ticket of the board's ready queue in a lane and/or of a priority (claim-next),
     * from memory, leaving out `taken`: the tickets this unit of work claimed so far (several
     * claim-next requests share one unit, ticket-claims.ts). "unknown" when the unit changed
     * anything else (memory then no longer describes what the unit sees). Call it inside the
     * claim's unit of work; the caller checks the pick against the rule in SQL before claiming
     * it.
     */
    firstReady(
      boardId: number,
      filter: { laneId?: number; priority?: number },
      taken: ReadonlySet<number> = new Set(),
    ): number | undefined | "unknown" {
      // A claim notes exactly its ticket as changed: as many notes as claims taken means
      // nothing else changed.
      if (stores.ticketChanges.count() !== taken.size) return "unknown";
      // Nor may memory take in this unit's own claims (a rollback would leave them there): once
      // the unit claimed, only a list with none of them to re-read is used.
      const kept = lists.get(boardId);
      if (taken.size > 0 && (!kept || [...taken].some((id) => kept.stale.has(id)))) {
        return "unknown";
      }
      let list = kept;
      let order = kept?.orderCheckedIn === taken ? kept.readyOrder : undefined;
      if (!list || !order) {
        list = current(boardId);
        order = readyOrderOf(list, boardId);
        list.orderCheckedIn = taken;
      }
      const at = now();
      if (list.claimedHeadUntil !== null && list.claimedHeadUntil <= at) forgetClaimedHead(list);
      for (; list.claimedHead < order.length; list.claimedHead++) {
        const listed = order[list.claimedHead] as Listed;
        const end = heldUntil(listed, at);
        if (end === null) break;
        if (list.claimedHeadUntil === null || end < list.claimedHeadUntil) {
          list.claimedHeadUntil = end;
        }
      }
      for (let index = list.claimedHead; index < order.length; index++) {
        const listed = order[index] as Listed;
        if (filter.laneId !== undefined && listed.laneId !== filter.laneId) continue;
        if (filter.priority !== undefined && listed.priority !== filter.priority) continue;
        if (heldUntil(listed, at) === null && !taken.has(listed.id)) return listed.id;
      }
      return undefined;
    },

    /**
     * The serialized summaries of a board list (the board exists), in its order, as UTF-8 runs
     * of pieces, each piece (so each run) ending in ","; undefined inside a unit of work (the
     * caller builds the list the plain way). The answer is the runs in a row, less the last
     * comma, inside the list's wrapper. NotFound when the board does not exist.
     */
    pieces(
      boardId: number,
      filter: TicketListFilter,
      ready: boolean,
      summariesOf: SummariesOf,
      serialize: (summary: TicketSummary) => string,
    ): Buffer[] | undefined {
      if (inUnitOfWork()) return undefined;
      return read(() => {
        // Checked in the snapshot: outside one, the statement would take the log's read lock
        // for itself (docs/performance.md, "The answer cache and conditional GETs").
        if (!stores.boards.get(boardId)) throw new NotFound("board not found");
        const list = current(boardId);
        if (filter.tagKey === undefined && !filter.search) {
          return ready
            ? readyRunsOf(list, boardId, filter, summariesOf, serialize)
            : laneRunsOf(list, boardId, filter, summariesOf, serialize);
        }
        let chosen = inBoardOrder(list, boardId, matchesOf(list, boardId, filter), filter);
        if (ready) chosen = inReadyOrder(list, boardId, chosen);
        fill(list, boardId, chosen, summariesOf, serialize);
        return asRuns(chosen);
      });
    },
  };
}

export type BoardLists = ReturnType<typeof boardLists>;

/**
 * A summary's JSON as kept: UTF-8 bytes followed by ",", in a buffer of its own (a slice of
 * Node's shared pool would keep its whole 8 KB slab alive for as long as the piece lives).
 */
function pieceBytes(json: string): Buffer {
  const length = Buffer.byteLength(json, "utf8");
  const bytes = Buffer.allocUnsafeSlow(length + 1);
  bytes.write(json, 0, "utf8");
  bytes[length] = COMMA;
  return bytes;
}

const COMMA = 0x2c;

/** The pieces of tickets (all serialized) in a row, each ending in ",": copied once. */
function joined(tickets: readonly Listed[]): Buffer {
  return Buffer.concat(tickets.map((listed) => listed.piece as Buffer));
}

/**
 * Up to this many pieces, a list joined per request (a search, a tag) answers its pieces as
 * they are: the route copies them once into the answer, where joining them first copied every
 * byte twice (~0.1 ms and 160 KB of garbage for a 286-hit search). Above it, one joined run:
 * a list that big is sent without a copy, and a part per ticket would cost a write each.
 */
const PIECES_AS_RUNS = 512;

/** A per-request list's runs: its pieces (few), or them joined (many). */
function asRuns(tickets: readonly Listed[]): Buffer[] {
  if (tickets.length === 0) return [];
  if (tickets.length > PIECES_AS_RUNS) return [joined(tickets)];
  return tickets.map((listed) => listed.piece as Buffer);
}

/** Lane ids from `lanes.orderOf`'s text. */
function idsOf(lanes: string): number[] {
  return lanes === "" ? [] : lanes.split(",").map(Number);
}

/** How many of a lane's tickets (active ones first) are active. */
function activeCount(lane: readonly Listed[]): number {
  let low = 0;
  let high = lane.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((lane[middle] as Listed).isArchived) high = middle;
    else low = middle + 1;
  }
  return low;
}
