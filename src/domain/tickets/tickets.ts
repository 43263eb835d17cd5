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
import { withItemChecked } from "./checklists.js";
import { TicketBatch, type TicketEdits, type TicketUpsert } from "./ticket-edits.js";
import type { TicketLanes } from "./ticket-ordering.js";
import { parseTicketSearch } from "./ticket-search.js";
import type { TicketRelations, TicketViews, TicketWritten } from "./ticket-views.js";

/** PATCH /api/tickets/{id}/checklist: item `index` (0-based) gets its box set to `checked`. */
export interface ChecklistItemInput {
  index: number;
  checked: boolean;
}

/** A move to a lane by name (PATCH /api/tickets/{id}/transition). */
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

/** The storage filter of a list query (also what src/kept-answers keeps lists by). */
export function listFilter(query: TicketListQuery): TicketListFilter {
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
    activity: ActivityRecorder;
  },
  transact: Transact,
  trash: TrashKeeper = NO_TRASH,
) {
  const { tickets } = stores;
  const { boards, lanes, edits, views, activity } = deps;

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
   * Applies a patch to one ticket and renumbers the lanes it touched; answers the row it left
   * (and the remote link, when the change read it). Its bodies are read only for a body change
   * (to compare): an answer kept by src/kept-answers takes them from the kept parts.
   */
  function change(ticketId: number, input: TicketUpsert): TicketWritten {
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
      return { record: edits.after(before, written), remote };
    });
  }

  /**
   * Sets the box of checklist item `index` (docs/api.md, "Checklists"): a body edit that changes
   * that one character, or no write at all when the box is in that state already.
   */
  function checkItem(ticketId: number, input: ChecklistItemInput): TicketWritten {
    return transact(() => {
      const before = require(ticketId);
      const body = withItemChecked(before.bodyMarkdown, input.index, input.checked);
      if (body === undefined) return { record: before };
      return change(ticketId, { bodyMarkdown: body });
    });
  }

  return {
    /** Throws NotFound unless the ticket exists; returns its record. */
    require,

    /**
     * Throws NotFound unless the ticket exists; returns its row without its bodies (one page
     * read, no `ticket_texts` row, no record built): for a caller that needs its board.
     */
    requireRow,

    get: (ticketId: number): Ticket => views.ticket(ticketId),

    relations: (ticketId: number): TicketRelations => views.relations(ticketId),

    list(boardId: number, query: TicketListQuery): TicketSummary[] {
      boards.require(boardId);
      const filter = listFilter(query);
      const ready = query.ready ? stores.ticketReadiness.readyIds(boardId, now()) : undefined;
      return views.list(boardId, filter, ready);
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
    update(ticketId: number, input: TicketUpsert): TicketWritten {
      edits.assertSomeField(input);
      return change(ticketId, input);
    },

    /** Sets one checklist item's box (docs/api.md, "Checklists"). */
    checkItem,

    /** Moves to the lane named `laneName`; isResolved changes only when sent. */
    transition(ticketId: number, input: TransitionInput): TicketWritten {
      return transact(() => {
        const ticket = requireRow(ticketId);
        const lane = lanes.laneNamed(ticket.boardId, input.laneName);
        const isResolved = input.isResolved ?? input.isCompleted;
        return change(
          ticketId,
          isResolved === undefined ? { laneId: lane.id } : { laneId: lane.id, isResolved },
        );
      });
    },

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
