import type { Services } from "../domain/services.js";
import { listFilter, type TicketListQuery } from "../domain/tickets/tickets.js";
import { RUN_LENGTH } from "./board-list.js";
import { boardLists, type SerializeSummary } from "./board-lists.js";
import { type SerializeTicket, ticketAnswers } from "./ticket-answers.js";

/**
 * KEPT ANSWERS: what tack keeps in memory to answer fast, as the bytes an answer sends.
 *
 * WHAT IT KEEPS
 * - Board lists (board-lists.ts, board-list.ts): for each board a list was asked of, every
 *   ticket's placement (lane, position, flags, priority, claim end, `notBefore`) in lane arrays
 *   kept in board order, of the lanes read so far (a lane's list reads its own lane only);
 *   each ticket's summary as the list serializer writes it (its "piece", UTF-8 bytes,
 *   pieces.ts); per lane, its pieces joined in runs (the default list and
 *   `archived=all`); the board's startable set (the ready rule without its tests of the clock)
 *   and per lane and priority the ready tickets' runs (ready-runs.ts), with a cursor past each
 *   run's tickets the clock holds, from which claim-next picks (ready-head.ts: the domain's
 *   port `ReadyHeads`, handed over through `answerSources.keepReadyHeads`); the ids recent tag
 *   and search filters matched (matches.ts).
 * - Ticket answers (ticket-answers.ts): per ticket, the parts of its full Ticket a change of its
 *   own row leaves alone (bodies, neighbours, tags, references, comments, board: domain
 *   `TicketParts`, ticket-parts.ts), and the JSON cut from its first full answer (ticket-json.ts).
 *
 * WHAT INVALIDATES IT
 * - Every commit's BoardChanges (`onCommit`, right after the commit): their changed tickets are
 *   gathered by the SQLite triggers (storage/ticket-change-triggers.ts, read and cleared by
 *   storage/ticket-changes.ts) on every table a ticket's representation shows, not by the code
 *   that wrote, so any write inside `transact` on the server's connection is seen (a trash restore, an import, a cascade included). Those tickets
 *   are re-read (placement, startability, matches, piece) before the next list; a ticket's
 *   children are re-checked too (its readiness follows its parent's blockers); a deleted board's
 *   list is dropped.
 * - The parts notes of storage/ticket-changes.ts (`onPartsChanged`, at each flush before the
 *   COMMIT): the noted tickets' kept parts and JSON are dropped.
 * - The clock, which changes answers with no row changing: a piece showing a claim is dropped
 *   once the claim ends; a ready run is kept only until the first ticket it left out for a claim
 *   or a `notBefore` is free again (board-list.ts `heldUntil`), and claim-next's cursor passes
 *   held tickets only until the first of them is free again. The Ticket answer writes its
 *   claim and row fields anew each time.
 * - Lane order is read for every list (lanes are few).
 *
 * WHY A KEPT ANSWER EQUALS A FRESH ONE
 * Everything kept was read from committed state: lists are never built inside a unit of work
 * (`lists.runs` answers undefined there) but by claim-next's pick, and then only while its unit
 * has changed no ticket but those it claimed, never re-reading those (board-lists.ts
 * `firstReady`); parts a unit changed are neither used nor kept in it. So a rollback leaves
 * nothing behind. Anything that changes a ticket's answer notes the ticket (triggers) or is the
 * clock (handled above), so what is still kept is what a fresh read would give. The bytes are the serializer's: a piece is the list serializer's text for one
 * summary; a Ticket's JSON is cut from the serializer's text only when, joined back with the
 * fields written anew, it gives that text exactly.
 * Tests: test/kept-answers/ (this module against a real database, after each kind of change;
 * ready-head.test.ts: claim-next's kept pick against the SQL walk),
 * test/api/live-lists-random-writes.test.ts (random writes of every kind, every answer compared
 * byte for byte with a server in reference mode, which keeps nothing: http/ticket-answers.ts),
 * live-lists-lane-by-lane.test.ts (a board read lane by lane, as the UI reads it, while
 * tickets move in and out of the lanes not read yet).
 */

/** What the kept answers read, from the domain (`createServices`' `answerSources`). */
export type AnswerSources = Services["answerSources"];

export interface KeptAnswerOptions {
  /** Tickets per kept run (default RUN_LENGTH; tests use 2 so small boards span many runs). */
  runLength?: number;
  /** Bound of the kept ticket parts and their JSON, in estimated bytes (default 16 MiB). */
  ticketBytes?: number;
}

export function keptAnswers(sources: AnswerSources, options: KeptAnswerOptions = {}) {
  const lists = boardLists(
    {
      stores: sources.stores,
      read: sources.read,
      inUnitOfWork: sources.inUnitOfWork,
      summariesOf: sources.views.summariesOf,
    },
    options.runLength ?? RUN_LENGTH,
  );
  sources.onCommit((changes) => lists.changed(changes));
  // claim-next asks the kept ready order first (the domain's port, ReadyHeads).
  sources.keepReadyHeads({ firstReady: lists.firstReady });
  const tickets = ticketAnswers(sources, options.ticketBytes);
  return {
    /**
     * A board list as UTF-8 runs of pieces (board-lists.ts `runs`); undefined inside a unit of
     * work (answer `tickets.list` then). NotFound when the board does not exist.
     */
    listRuns(
      boardId: number,
      query: TicketListQuery,
      serialize: SerializeSummary,
    ): Buffer[] | undefined {
      return lists.runs(boardId, listFilter(query), query.ready === true, serialize);
    },

    /** claim-next's pick from the kept ready order (board-lists.ts `firstReady`). */
    firstReady: lists.firstReady,

    /** A full Ticket's JSON (ticket-answers.ts `json`). */
    ticketJson: tickets.json,

    /** Estimated bytes of the kept Ticket answers. */
    get ticketBytes(): number {
      return tickets.bytes;
    },
  };
}

export type KeptAnswers = ReturnType<typeof keptAnswers>;
export type { TicketJson } from "./ticket-json.js";
export type { SerializeSummary, SerializeTicket };
