import { now } from "../domain/clock.js";
import { NotFound } from "../domain/errors.js";
import type { TicketSummary } from "../domain/model.js";
import type { ReadyHeadFilter } from "../domain/tickets/ticket-claims.js";
import type { BoardChanges, Read } from "../domain/transaction.js";
import type { Stores } from "../storage/index.js";
import type { TicketPlacement } from "../storage/ticket-placements.js";
import type { TicketListFilter } from "../storage/tickets.js";
import {
  BoardList,
  indexIn,
  type Listed,
  laneOrder,
  type Runs,
  sortedIndex,
} from "./board-list.js";
import { inBoardOrder, matchesOf } from "./matches.js";
import { activeCount, asRuns, idsOf, joined, pieceBytes } from "./pieces.js";
import { readyHeadOf } from "./ready-head.js";
import { inReadyOrder, readyRunsOf, startable } from "./ready-runs.js";

/**
 * The board lists kept in memory (index.ts states what they keep and THE INVARIANT): for each
 * board a list was asked of, every ticket's placement in lane arrays kept in board order, each
 * ticket's serialized summary once a list needed it, the board's startable set, texts joined from
 * the pieces (per lane; per lane and priority for the ready queue: ready-runs.ts) and the ids
 * recent tag/search filters matched (matches.ts). A list after a write then re-reads, re-tests
 * and re-serializes only the tickets that write changed, joins again only the runs they are in,
 * and answers the other runs as they were.
 */

/**
 * The filters whose lane runs are kept (the UI's board and "show archived"): each kept run is
 * another copy of its tickets' pieces, so the others are joined per request.
 */
const JOINED_FILTERS = new Set(["active.undefined", "all.undefined"]);

/** One summary's JSON exactly as the list's response serializer writes it inside the list. */
export type SerializeSummary = (summary: TicketSummary) => string;

/** What the board lists read: stores, a snapshot, and the domain's summaries. */
export interface ListSources {
  stores: Pick<
    Stores,
    "boards" | "ticketPlacements" | "tickets" | "lanes" | "ticketReadiness" | "ticketChanges"
  >;
  read: Read;
  /** Whether a unit of work is open on the connection (lists are then built the plain way). */
  inUnitOfWork: () => boolean;
  /**
   * TicketSummaries of tickets of one board, in the order of `ids` (domain/tickets); `boardSize`:
   * the board's ticket count (it chooses how the summaries' references are read).
   */
  summariesOf: (boardId: number, ids: readonly number[], boardSize?: number) => TicketSummary[];
}

export function boardLists(sources: ListSources, runLength: number) {
  const { stores, read, inUnitOfWork, summariesOf } = sources;
  const lists = new Map<number, BoardList>();

  /** Adds a ticket to its lane: in order into a sorted lane, else appended (sorted later). */
  function place(list: BoardList, placement: TicketPlacement): void {
    const listed: Listed = { ...placement, piece: undefined, claimEndsAt: null };
    list.tickets.set(listed.id, listed);
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
    // whole ReadyLane, see ready-runs.ts `startable`).
    if (group && member >= 0) {
      group.runs[Math.floor(member / list.runLength)] = undefined;
      // Its claim or `notBefore` may have changed: claim-next's cursor no longer passes it.
      if (member < group.head) group.head = member;
    }
  }

  /** Re-reads the tickets changed since the last list; they lose their pieces. */
  function refresh(list: BoardList, boardId: number): void {
    const rows = stores.ticketPlacements.byIds(list.stale);
    for (const id of list.stale) {
      const old = list.tickets.get(id);
      const row = rows.get(id);
      // A ticket of a lane not read yet is read with its lane.
      const stays = row !== undefined && row.boardId === boardId && list.holds(row.laneId);
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
            // It leaves one priority's group for another's: both are made again.
            const ready = list.readyLanes.get(old.laneId);
            ready?.stale.add(old.priority);
            ready?.stale.add(row.priority);
          }
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

  /**
   * The board's list, current, holding the lanes `laneIds` (undefined: every lane): built on
   * first use, changed tickets re-read, lanes not read yet read (in the same snapshot: a lane
   * is read as committed, and a ticket that moved into it was taken out of its old lane by the
   * re-read), lanes sorted.
   */
  function current(boardId: number, laneIds?: readonly number[]): BoardList {
    let list = lists.get(boardId);
    if (!list) {
      list = new BoardList(runLength);
      lists.set(boardId, list);
    } else if (list.stale.size > 0) {
      refresh(list, boardId);
    }
    if (laneIds === undefined) {
      if (!list.allLanes) {
        for (const placement of stores.ticketPlacements.ofBoard(boardId)) {
          if (list.lanesRead.has(placement.laneId)) continue;
          list.unsorted.add(placement.laneId);
          place(list, placement);
        }
        list.allLanes = true;
        list.lanesRead.clear();
      }
    } else {
      for (const laneId of laneIds) {
        if (list.holds(laneId)) continue;
        // Read in board order: appended, and the sort below finds it sorted in one pass.
        for (const placement of stores.ticketPlacements.ofLane(laneId, boardId)) {
          list.unsorted.add(placement.laneId);
          place(list, placement);
        }
        list.lanesRead.add(laneId);
      }
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
  function laneIdsOf(boardId: number, filter: { laneId?: number }): number[] {
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
    laneIds: readonly number[],
    filter: TicketListFilter,
    fill: (chosen: Listed[]) => void,
  ): Buffer[] {
    const key = `${filter.archived}.${filter.isResolved}`;
    if (!JOINED_FILTERS.has(key)) {
      const chosen = laneIds.flatMap((laneId) => laneTickets(list, laneId, filter));
      fill(chosen);
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
    fill(toJoin.flatMap((run) => run.tickets));
    for (const { runs, index, tickets } of toJoin) runs[index] = joined(tickets);
    const parts: Buffer[] = [];
    for (const runs of lanes) for (const run of runs) if (run && run.length > 0) parts.push(run);
    return parts;
  }

  /** Serializes the summaries of the tickets that have no piece (one query set for all). */
  function fill(
    list: BoardList,
    boardId: number,
    chosen: Listed[],
    serialize: SerializeSummary,
  ): void {
    const missing = chosen.filter((listed) => listed.piece === undefined);
    if (missing.length === 0) return;
    const summaries = summariesOf(
      boardId,
      missing.map((listed) => listed.id),
      list.allLanes ? list.tickets.size : undefined,
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
     * claim-next's pick from the kept list (the domain's port, tickets/ticket-claims.ts
     * `ReadyHeads`; ready-head.ts). Inside a claim-next unit of work the list is brought up to
     * date only while the unit has changed no ticket but the ones it took (as many tickets
     * noted as taken: a claim notes exactly its ticket), and never by re-reading a taken one's
     * placement (its startability may be re-checked: it does not depend on claims): so what
     * it reads is committed state, and a rollback leaves nothing behind. Otherwise "unknown",
     * and the domain walks in SQL.
     */
    firstReady(
      boardId: number,
      filter: ReadyHeadFilter,
      taken: ReadonlySet<number>,
      at: string,
    ): number | undefined | "unknown" {
      if (stores.ticketChanges.count() !== taken.size) return "unknown";
      const kept = lists.get(boardId);
      // A lane not read yet would be read here, in the unit: its taken tickets as it left them.
      if (taken.size > 0 && (!kept?.allLanes || [...taken].some((id) => kept.stale.has(id)))) {
        return "unknown";
      }
      const pick = () => {
        const list = current(boardId);
        const ids = startable(list, boardId, stores.ticketReadiness);
        const laneIds = laneIdsOf(boardId, filter);
        return readyHeadOf(list, ids, laneIds, filter, taken, at);
      };
      return inUnitOfWork() ? pick() : read(pick);
    },

    /**
     * The serialized summaries of a board list, in its order, as UTF-8 runs of pieces, each
     * piece (so each run) ending in ","; undefined inside a unit of work (the caller builds the
     * list the plain way). The answer is the runs in a row, less the last comma, inside the
     * list's wrapper. NotFound when the board does not exist.
     */
    runs(
      boardId: number,
      filter: TicketListFilter,
      ready: boolean,
      serialize: SerializeSummary,
    ): Buffer[] | undefined {
      if (inUnitOfWork()) return undefined;
      return read(() => {
        // Checked in the snapshot: outside one, the statement would take the log's read lock
        // for itself (docs/performance.md, "The answer cache and conditional GETs").
        if (!stores.boards.get(boardId)) throw new NotFound("board not found");
        const plain = filter.tagKey === undefined && !filter.search;
        // A lane's list holds its lane only; the ready queue and matches, the whole board.
        const list = current(
          boardId,
          plain && !ready && filter.laneId !== undefined ? [filter.laneId] : undefined,
        );
        const fillList = (chosen: Listed[]) => fill(list, boardId, chosen, serialize);
        if (plain) {
          const laneIds = laneIdsOf(boardId, filter);
          if (!ready) return laneRunsOf(list, laneIds, filter, fillList);
          const ids = startable(list, boardId, stores.ticketReadiness);
          return readyRunsOf(list, ids, laneIds, filter, fillList);
        }
        const kept = matchesOf(list, boardId, filter, stores.tickets);
        let chosen = inBoardOrder(list, kept, filter, stores.lanes.orderOf(boardId));
        if (ready) chosen = inReadyOrder(startable(list, boardId, stores.ticketReadiness), chosen);
        fillList(chosen);
        return asRuns(chosen);
      });
    },
  };
}

export type BoardLists = ReturnType<typeof boardLists>;
