import type { Stores } from "../../storage/index.js";
import type { TicketRecord } from "../../storage/tickets.js";
import type { ActivityRecorder } from "../activity.js";
import { now } from "../clock.js";
import { InvalidInput, NotFound } from "../errors.js";
import type { Board, Lane } from "../model.js";
import { nameKey } from "../names.js";
import type { Transact } from "../transaction.js";
import { TicketBatch, type TicketEdits } from "./ticket-edits.js";
import type { TicketLanes } from "./ticket-ordering.js";
import type { TicketViews, TicketWritten } from "./ticket-views.js";

export interface MoveTarget {
  board: Board;
  lane: Lane;
}

/**
 * Moving tickets to another board (docs/api.md, "Rules clients can rely on"). Links cannot cross
 * boards, so the parent link, the children's links to the ticket, blocker links both ways and
 * related links are removed; tags become the target board's tags of the same name
 * (case-insensitive, keeping their reasons) or are dropped; body, flags, comments, events, remote
 * link and external references stay. A move within the same board is a lane change.
 */
export function ticketMoves(
  stores: Pick<Stores, "boards" | "tickets" | "ticketTags" | "ticketRelations">,
  deps: { lanes: TicketLanes; edits: TicketEdits; activity: ActivityRecorder },
) {
  const { tickets, ticketTags, ticketRelations } = stores;
  const { lanes, edits, activity } = deps;

  return {
    /** The target named in a request body: an unknown board or a foreign lane is 400. */
    target(boardId: number, laneId: number): MoveTarget {
      const board = stores.boards.get(boardId);
      if (!board) throw new InvalidInput("boardId is not an existing board");
      return { board, lane: lanes.laneOfBoard(board.id, laneId, "laneId", "the target board") };
    },

    move(before: TicketRecord, target: MoveTarget, batch: TicketBatch): void {
      if (target.board.id === before.boardId) {
        edits.apply(before, { lane: target.lane }, batch);
        return;
      }
      const id = before.id;
      const ids = [id];
      const removedLinks = {
        parentTicketId: before.parentTicketId,
        childIds: tickets.childIds(id),
        blockerIds: ticketRelations.blockerIds(ids).get(id) ?? [],
        blockedIds: ticketRelations.blockedIds(ids).get(id) ?? [],
        relatedIds: ticketRelations.relatedIds(ids).get(id) ?? [],
      };
      const tagsBefore = ticketTags.tagsOfTicket(id);

      ticketRelations.clearLinks(id);
      tickets.clearChildren(id);
      tickets.setBoard(id, target.board.id, target.lane.id, now());
      lanes.append(id, target.lane.id);
      ticketTags.remapToBoard(id, target.board.id);
      batch.lanes.add(before.laneId).add(target.lane.id);

      const tagsAfter = ticketTags.tagsOfTicket(id);
      const kept = new Set(tagsAfter.map((tag) => nameKey(tag.name)));
      activity.followTicket(id, target.board.id);
      activity.record({
        boardId: target.board.id,
        ticketId: id,
        action: "ticket_moved_board",
        message: `Moved to ${target.board.name} / ${target.lane.name}`,
        details: {
          fromBoardId: before.boardId,
          toBoardId: target.board.id,
          fromLaneId: before.laneId,
          toLaneId: target.lane.id,
          removedLinks,
          before: { tagIds: tagsBefore.map((tag) => tag.id) },
          after: { tagIds: tagsAfter.map((tag) => tag.id) },
          droppedTags: tagsBefore
            .filter((tag) => !kept.has(nameKey(tag.name)))
            .map((tag) => tag.name),
        },
      });
      batch.changes.touched(before.boardId);
      batch.changes.touched(target.board.id);
    },
  };
}

export type TicketMoves = ReturnType<typeof ticketMoves>;

/** `POST /api/tickets/{id}/move`. */
export function ticketMoveService(
  stores: Pick<Stores, "tickets">,
  deps: { moves: TicketMoves; edits: TicketEdits; views: TicketViews },
  transact: Transact,
) {
  return {
    /** Answers the row it left. */
    move(ticketId: number, input: { boardId: number; laneId: number }): TicketWritten {
      return transact((changes) => {
        const before = stores.tickets.get(ticketId);
        if (!before) throw new NotFound("ticket not found");
        const target = deps.moves.target(input.boardId, input.laneId);
        const batch = new TicketBatch(changes);
        deps.moves.move(before, target, batch);
        deps.edits.settle(batch);
        return deps.views.written(ticketId);
      });
    },
  };
}

export type TicketMoveService = ReturnType<typeof ticketMoveService>;
