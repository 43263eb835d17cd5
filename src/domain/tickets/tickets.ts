import type { Stores } from "../../storage/index.js";
import type { TicketListFilter, TicketRecord, TicketRow } from "../../storage/tickets.js";
import type { ActivityRecorder } from "../activity.js";
import type { BoardService } from "../boards/boards.js";
import { now } from "../clock.js";
import { InvalidInput, NotFound } from "../errors.js";
import type { Ticket, TicketRemote, TicketSummary } from "../model.js";
import { nameKey } from "../names.js";
import { ticketSearchText } from "../search-text.js";
import type { Transact } from "../transaction.js";
import { NO_TRASH, type TrashKeeper } from "../trash/trash-keeper.js";
import type { BoardLists } from "./board-lists.js";
import { withItemChecked } from "./checklists.js";
import { TicketBatch, type TicketEdits, type TicketUpsert } from "./ticket-edits.js";
import type { TicketJson } from "./ticket-json.js";
import type { TicketLanes } from "./ticket-ordering.js";
import { parseTicketSearch } from "./ticket-search.js";
import type { KnownTicket, SerializeTicket, TicketRelations, TicketViews } from "./ticket-views.js";

/** A move to a lane by name (PATCH /api/tickets/{id}/transition). */
/** PATCH /api/tickets/{id}/checklist: item `index` (0-based) gets its box set to `checked`. */
export interface ChecklistItemInput {
  index: number;
  checked: boolean;
}

export interface TransitionInput {
  laneName: string;
  isResolved?: boolean;
  isCompleted?: boolean;
}

/** Query of the board list, as the HTTP layer parsed it. */
export interface TicketListQuery {
  lane_id?: number;
  tag?: string;
  resolved?: boolean;
  /** Deprecated alias of `resolved`, which wins when both are given. */
  completed?: boolean;
  archived?: "true" | "false" | "all";
  q?: string;
  /** Only the ready queue (docs/api.md, "Coordination for agents"), in its order. */
  ready?: boolean;
}

/** The storage filter of a list query. */
function listFilter(query: TicketListQuery): TicketListFilter {
  const tag = query.tag?.trim();
  const filter: TicketListFilter = {
    archived: query.archived === "all" ? "all" : query.archived === "true" ? "archived" : "active",
  };
  if (query.lane_id !== undefined) filter.laneId = query.lane_id;
  const isResolved = query.resolved ?? query.completed;
  if (isResolved !== undefined) filter.isResolved = isResolved;
  if (tag) filter.tagKey = nameKey(tag);
  const search = parseTicketSearch(query.q);
  if (search) filter.search = search;
  return filter;
}

/** Ticket CRUD, the board list, relations and transitions. */
export function ticketService(
  stores: Pick<
    Stores,
    "tickets" | "ticketTags" | "ticketRelations" | "remoteLinks" | "ticketReadiness"
  >,
  deps: {
    boards: Pick<BoardService, "require">;
    lanes: TicketLanes;
    edits: TicketEdits;
    views: TicketViews;
    lists: BoardLists;
    activity: ActivityRecorder;
  },
  transact: Transact,
  trash: TrashKeeper = NO_TRASH,
) {
  const { tickets } = stores;
  const { boards, lanes, edits, views, lists, activity } = deps;

  function require(ticketId: number): TicketRecord {
    const ticket = tickets.get(ticketId);
    if (!ticket) throw new NotFound("ticket not found");
    return ticket;
  }

  function requireRow(ticketId: number): TicketRow {
    const row = tickets.row(ticketId);
    if (!row) throw new NotFound("ticket not found");
    return row;
  }

  /**
   * Applies a patch to one ticket, renumbers the lanes it touched and answers with `answer`,
   * given what the change already read of the ticket. Its bodies are read only for a body
   * change (to compare); the answer takes them from the kept parts (ticket-parts.ts).
   */
  function change<T>(
    ticketId: number,
    input: TicketUpsert,
    answer: (ticketId: number, known: KnownTicket) => T,
  ): T {
    const text = edits.cleanText(input);
    return transact((changes) => {
      const before = text.bodyMarkdown === undefined ? requireRow(ticketId) : require(ticketId);
      let remote: TicketRemote | null | undefined;
      // docs/api.md, "Remote tracking": a tracked ticket's title is the remote issue's, read-only.
      if (text.title !== undefined && text.title !== before.title) {
        remote = stores.remoteLinks.get(ticketId);
        if (remote)
          throw new InvalidInput("title is read-only on a ticket tracking a remote issue");
      }
      const patch = { ...edits.resolve({ boardId: before.boardId, id: ticketId }, input), ...text };
      const batch = new TicketBatch(changes);
      const written = edits.apply(before, patch, batch);
      edits.settle(batch);
      // Settling renumbers lanes: the row is read after it (a title change settles nothing).
      return answer(ticketId, { record: edits.after(before, written), remote });
    });
  }

  const ticketAnswer = (ticketId: number, known: KnownTicket): Ticket =>
    views.ticket(ticketId, known);

  /**
   * Sets the box of checklist item `index` (docs/api.md, "Checklists"): a body edit that changes
   * that one character, or no write at all when the box is in that state already.
   */
  function checkItem<T>(
    ticketId: number,
    input: ChecklistItemInput,
    answer: (ticketId: number, known: KnownTicket) => T,
  ): T {
    return transact(() => {
      const before = require(ticketId);
      const body = withItemChecked(before.bodyMarkdown, input.index, input.checked);
      if (body === undefined) return answer(ticketId, { record: before });
      return change(ticketId, { bodyMarkdown: body }, answer);
    });
  }

  /** Moves to the lane named `laneName`; isResolved changes only when sent. */
  function transition<T>(
    ticketId: number,
    input: TransitionInput,
    answer: (ticketId: number, known: KnownTicket) => T,
  ): T {
    return transact(() => {
      const ticket = requireRow(ticketId);
      const lane = lanes.laneNamed(ticket.boardId, input.laneName);
      const isResolved = input.isResolved ?? input.isCompleted;
      return change(
        ticketId,
        isResolved === undefined ? { laneId: lane.id } : { laneId: lane.id, isResolved },
        answer,
      );
    });
  }

  return {
    /** Throws NotFound unless the ticket exists; returns its record. */
    require,

    get: (ticketId: number): Ticket => views.ticket(ticketId),

    relations: (ticketId: number): TicketRelations => views.relations(ticketId),

    list(boardId: number, query: TicketListQuery): TicketSummary[] {
      boards.require(boardId);
      const filter = listFilter(query);
      const ready = query.ready ? stores.ticketReadiness.readyIds(boardId, now()) : undefined;
      return views.list(boardId, filter, ready);
    },

    /**
     * The same list as serialized summaries, from the board lists kept in memory (only the
     * tickets changed since the last list are read and serialized again); undefined inside a
     * unit of work (`list` then answers). `serialize` must give what the list's response
     * serializer gives for one summary. NotFound when the board does not exist.
     */
    listPieces(
      boardId: number,
      query: TicketListQuery,
      serialize: (summary: TicketSummary) => string,
    ): Buffer[] | undefined {
      return lists.pieces(
        boardId,
        listFilter(query),
        query.ready === true,
        views.summariesOf,
        serialize,
      );
    },

    /** Full tickets of a board in board order (BoardDetail), with a fixed number of queries. */
    boardTickets: (boardId: number, options = { includeArchived: true }): Ticket[] =>
      views.boardTickets(boardId, options),

    create(boardId: number, input: TicketUpsert & { laneId: number; title: string }): Ticket {
      const text = edits.cleanText(input);
      return transact((changes) => {
        boards.require(boardId);
        const patch = { ...edits.resolve({ boardId }, input), ...text };
        const title = patch.title ?? "";
        const bodyMarkdown = patch.bodyMarkdown ?? "";
        const laneId = patch.lane?.id ?? input.laneId;
        const at = now();
        const id = tickets.insert(boardId, {
          laneId,
          parentTicketId: patch.parentTicketId ?? null,
          title,
          bodyMarkdown,
          bodyHtml: patch.bodyHtml ?? "",
          searchText: ticketSearchText(title, bodyMarkdown),
          isResolved: patch.isResolved ?? false,
          isArchived: patch.isArchived ?? false,
          priority: patch.priority ?? 2,
          updatedAt: at,
          notBefore: patch.notBefore ?? null,
          checklist: patch.checklist ?? { done: 0, total: 0 },
        });
        if (patch.tagIds?.length) stores.ticketTags.replace(id, patch.tagIds, at);
        if (patch.blockerIds?.length) stores.ticketRelations.setBlockers(id, patch.blockerIds);
        if (patch.relatedIds?.length) stores.ticketRelations.setRelated(id, patch.relatedIds);
        activity.record({
          boardId,
          ticketId: id,
          action: "ticket_created",
          message: "Ticket created",
          details: {
            title,
            laneId,
            priority: patch.priority ?? 2,
            isResolved: patch.isResolved ?? false,
            isArchived: patch.isArchived ?? false,
            parentTicketId: patch.parentTicketId ?? null,
            tagIds: patch.tagIds ?? [],
            blockerIds: patch.blockerIds ?? [],
            relatedIds: patch.relatedIds ?? [],
          },
        });
        changes.touched(boardId);
        return views.ticket(id);
      });
    },

    /** PATCH: only the fields sent change, each independently (docs/api.md). */
    update(ticketId: number, input: TicketUpsert): Ticket {
      edits.assertSomeField(input);
      return change(ticketId, input, ticketAnswer);
    },

    /** Sets one checklist item's box; the Ticket as it is then. */
    checkItem: (ticketId: number, input: ChecklistItemInput): Ticket =>
      checkItem(ticketId, input, ticketAnswer),

    /** `checkItem` answering the Ticket's JSON as `serialize` writes it. */
    checkItemAsJson: (ticketId: number, input: ChecklistItemInput, serialize: SerializeTicket) =>
      checkItem(ticketId, input, (id, known) => views.ticketJson(id, serialize, known)),

    /** `update` answering the changed Ticket's JSON as `serialize` writes it (cheaper). */
    updateAsJson(ticketId: number, input: TicketUpsert, serialize: SerializeTicket): TicketJson {
      edits.assertSomeField(input);
      return change(ticketId, input, (id, known) => views.ticketJson(id, serialize, known));
    },

    /** The full Ticket's JSON as `serialize` (the route's serializer) writes it. */
    getAsJson: (ticketId: number, serialize: SerializeTicket): TicketJson =>
      views.ticketJson(ticketId, serialize),

    /** Moves to the lane named `laneName`; isResolved changes only when sent. */
    transition: (ticketId: number, input: TransitionInput): Ticket =>
      transition(ticketId, input, ticketAnswer),

    /** `transition` answering the Ticket's JSON as `serialize` writes it. */
    transitionAsJson: (ticketId: number, input: TransitionInput, serialize: SerializeTicket) =>
      transition(ticketId, input, (id, known) => views.ticketJson(id, serialize, known)),

    /**
     * Deletes a ticket. Its links, tags, comments, events and references go with it (foreign
     * keys); its children lose their parent; its activity stays readable.
     */
    remove(ticketId: number): void {
      transact((changes) => {
        const ticket = require(ticketId);
        trash.keep({
          kind: "ticket",
          objectId: ticketId,
          boardId: ticket.boardId,
          text: ticket.title,
        });
        activity.record({
          boardId: ticket.boardId,
          ticketId,
          action: "ticket_deleted",
          message: "Ticket deleted",
          details: {
            title: ticket.title,
            laneId: ticket.laneId,
            parentTicketId: ticket.parentTicketId,
            childIds: tickets.childIds(ticketId),
          },
          ticketDeleted: true,
        });
        tickets.remove(ticketId);
        lanes.renumber([ticket.laneId]);
        changes.touched(ticket.boardId);
      });
    },
  };
}

export type TicketService = ReturnType<typeof ticketService>;
