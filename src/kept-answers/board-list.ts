import type { TicketPlacement } from "../storage/ticket-placements.js";
import type { TicketListFilter } from "../storage/tickets.js";

/**
 * What board-lists.ts keeps for one board: its tickets' placements in lane arrays kept in board
 * order, their serialized summaries ("pieces"), and texts joined from those pieces (per lane, per
 * lane and priority for the ready queue), plus the ids a tag or search matched. Everything here
 * is dropped or marked for re-reading by the changes of each commit (index.ts, THE INVARIANT).
 */

/** A ticket as the lists keep it: its placement and, once serialized, its summary. */
export interface Listed extends TicketPlacement {
  /** Its summary's JSON as the list serializer writes it, in UTF-8, followed by ",". */
  piece: Buffer | undefined;
  /** End of the live claim the piece shows (the piece is stale from then on), or null. */
  claimEndsAt: string | null;
}

/**
 * How many tickets one kept run covers by default: a lane's text (and a ready group's) is kept
 * as UTF-8 bytes in runs of this many tickets, so a changed ticket costs re-joining and
 * re-encoding its run (~35 KB), not its lane, and an answer is the kept runs copied once into one
 * buffer. `keptAnswers` takes another length (tests use 2, so their small boards span many runs).
 */
export const RUN_LENGTH = 64;

/**
 * One kept text per run of a sequence of tickets: entry i holds the pieces of the sequence's
 * tickets i*runLength.. joined with "," as UTF-8 bytes; undefined, to join again. An empty
 * run (no ticket passed the filter) is an empty buffer.
 */
export type Runs = Array<Buffer | undefined>;

/**
 * One priority's part of a lane's ready queue: the lane's startable tickets of that priority in
 * board order, and per run of them the ready ones' pieces joined. A run's text holds until
 * `until`: the first moment one of the tickets it left out is no longer held by the clock (a
 * claim ended, a `notBefore` passed: `heldUntil`; the ticket is ready from then on, with no row
 * changing), null when none was left out so.
 */
export interface ReadyGroup {
  members: Listed[];
  runs: Array<{ bytes: Buffer; until: string | null } | undefined>;
  /**
   * claim-next's cursor (ready-head.ts): the members before `head` are held by the clock (a
   * claim, a `notBefore`) until `headUntil` at least, so a pick starts there instead of walking
   * past every claimed ticket again. A changed member before it pulls it back (board-lists.ts
   * `dropPiece`); `headUntil` passing sets it back to 0.
   */
  head: number;
  headUntil: string | null;
}

/**
 * A lane's part of the ready queue: its startable tickets, and per priority their ready runs. A
 * ticket changed in place (a title, a claim) makes its run stale, a changed priority both
 * priorities' groups; a change of the lane's order or of a ticket's readiness drops the whole
 * ReadyLane.
 */
export interface ReadyLane {
  /** The lane's active tickets that are ready or only claimed, in board order. */
  candidates: Listed[];
  byPriority: Map<number, ReadyGroup>;
  /** Priorities whose group is to be made again from the candidates. */
  stale: Set<number>;
}

/** The ids a tag and/or search filter matched, and the tickets changed since (to test again). */
export interface KeptMatches {
  ids: Set<number>;
  changed: Set<number>;
  /**
   * The matched tickets in board order, sorted when the board's placements were at
   * `placements` and its lanes in the order `lanes`; undefined once a match came or went.
   */
  ordered: { tickets: Listed[]; placements: number; lanes: string } | undefined;
}

/** How many tag/search filters a board keeps the matches of (the most recently used). */
export const KEPT_MATCHES = 32;

export class BoardList {
  /** `runLength`: tickets per run of the kept texts below. */
  constructor(readonly runLength: number) {}

  /**
   * The tickets of the lanes read so far (every lane once `allLanes`): a lane's list reads its
   * own lane only, so the first lane of a board nobody listed since the start answers without
   * the whole board read and sorted first.
   */
  readonly tickets = new Map<number, Listed>();
  /** The lanes whose tickets are in `tickets`, each read whole (see `holds`). */
  readonly lanesRead = new Set<number>();
  /** Whether every lane's tickets are, lanes made later included (read by a whole-board list). */
  allLanes = false;
  /** Counts the tickets placed into or taken out of a lane (anything that moves the order). */
  placements = 0;
  /** Per lane, its tickets; in board order (active, then archived; position; id) unless unsorted. */
  readonly lanes = new Map<number, Listed[]>();
  readonly unsorted = new Set<number>();
  /**
   * Per lane, by the filter's flags, its runs over the lane's tickets in order (a run is stale
   * when one of its tickets changes; those from a place where a ticket came or went on).
   */
  readonly laneRuns = new Map<number, Map<string, Runs>>();
  /** Per lane, its part of the ready queue (built by the first ready list). */
  readonly readyLanes = new Map<number, ReadyLane>();
  /** Tickets to re-read before the next list (changed by commits since). */
  readonly stale = new Set<number>();
  /** Tickets whose piece shows a live claim. */
  readonly showingClaims = new Set<Listed>();
  /** Ready-or-only-claimed tickets, computed on the first ready list, then kept up to date. */
  startable: Set<number> | undefined;
  /** Tickets whose startability to re-check (with their children) before the next ready read. */
  readonly startableStale = new Set<number>();
  /** By filter key, the matches of the tag/search filters last asked for (oldest first). */
  readonly matches = new Map<string, KeptMatches>();

  /** Whether the tickets of lane `laneId` are kept here (a ticket coming into it is placed). */
  holds(laneId: number): boolean {
    return this.allLanes || this.lanesRead.has(laneId);
  }
}

/** Board order within a lane: active before archived, then position, then id. */
export const laneOrder = (a: Listed, b: Listed) =>
  Number(a.isArchived) - Number(b.isArchived) || a.position - b.position || a.id - b.id;

/** Where `listed` goes in a sorted lane (the first index not before it). */
export function sortedIndex(lane: readonly Listed[], listed: Listed): number {
  let low = 0;
  let high = lane.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (laneOrder(lane[middle] as Listed, listed) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Where `listed` is in its group's members (sorted like a lane), or -1. */
export function indexIn(members: readonly Listed[], listed: Listed): number {
  const index = sortedIndex(members, listed);
  return members[index] === listed ? index : members.indexOf(listed);
}

/**
 * Until when the clock holds a ticket out of the ready queue at `at`: the later of its live
 * claim's end and its `notBefore` still to come (the ready rule's tests of the clock), or null
 * when neither holds it. From that moment on it is ready with no row changing.
 */
export function heldUntil(listed: Listed, at: string): string | null {
  const claim =
    listed.claimExpiresAt !== null && listed.claimExpiresAt > at ? listed.claimExpiresAt : null;
  const wait = listed.notBefore !== null && listed.notBefore > at ? listed.notBefore : null;
  if (claim === null || wait === null) return claim ?? wait;
  return claim > wait ? claim : wait;
}

/** Whether a ticket passes a list's lane and flag filters. */
export function passesFlags(listed: Listed, filter: TicketListFilter): boolean {
  if (filter.laneId !== undefined && listed.laneId !== filter.laneId) return false;
  if (filter.archived === "active" && listed.isArchived) return false;
  if (filter.archived === "archived" && !listed.isArchived) return false;
  return filter.isResolved === undefined || listed.isResolved === filter.isResolved;
}
