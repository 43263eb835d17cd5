import type { Stores } from "../../storage/index.js";
import type { TicketRecord } from "../../storage/tickets.js";
import type { BoardService } from "../boards/boards.js";
import { InvalidInput } from "../errors.js";
import type { TicketSummary } from "../model.js";
import type { Transact } from "../transaction.js";
import { TicketBatch, type TicketEdits, type TicketPatch } from "./ticket-edits.js";
import type { TicketMoves } from "./ticket-moves.js";
import type { TicketLanes } from "./ticket-ordering.js";
import { uniqueIds } from "./ticket-relations.js";
import type { TicketViews } from "./ticket-views.js";

/**
 * Board-scoped bulk operations (docs/api.md, "Rules clients can rely on" and "Endpoints"): every id
 * must be a ticket of the path board, duplicates collapse, everything happens in one transaction
 * (all or nothing), and the answer lists the tickets in request order. Each ticket gets the same
 * activity as the single-ticket operation, and each touched lane is renumbered once.
 */
export function ticketBulkService(
  stores: Pick<Stores, "tickets">,
  deps: {
    boards: Pick<BoardService, "require">;
    lanes: TicketLanes;
    edits: TicketEdits;
    moves: TicketMoves;
    views: TicketViews;
  },
  transact: Transact,
) {
  const { tickets } = stores;
  const { boards, lanes, edits, moves, views } = deps;

  /**
   * Checks the ids, runs `work` on each ticket (read fresh: an earlier step may have changed
   * it), and answers summaries from `resultBoardId` (the destination of a move).
   */
  function run(
    boardId: number,
    ticketIds: readonly number[],
    prepare: () => {
      resultBoardId?: number;
      work: (ticket: TicketRecord, batch: TicketBatch) => void;
    },
  ): TicketSummary[] {
    return transact((changes) => {
      boards.require(boardId);
      const found = tickets.rowsByIds(ticketIds);
      ticketIds.forEach((id, index) => {
        if (found.get(id)?.boardId !== boardId) {
          throw new InvalidInput(`ticketIds[${index}] is not a ticket of this board`);
        }
      });
      const { resultBoardId = boardId, work } = prepare();
      const ids = uniqueIds(ticketIds);
      const batch = new TicketBatch(changes);
      for (const id of ids) {
        const ticket = tickets.get(id);
        if (ticket) work(ticket, batch);
      }
      edits.settle(batch);
      return views.summariesOf(resultBoardId, ids);
    });
  }

  const withResolved = (patch: TicketPatch, isResolved: boolean | undefined): TicketPatch =>
    isResolved === undefined ? patch : { ...patch, isResolved };

  return {
    /** Sets isResolved (default true; isResolved wins over isCompleted). */
    complete(
      boardId: number,
      input: { ticketIds: number[]; isResolved?: boolean; isCompleted?: boolean },
    ): TicketSummary[] {
      const isResolved = input.isResolved ?? input.isCompleted ?? true;
      return run(boardId, input.ticketIds, () => ({
        work: (ticket, batch) => {
          edits.apply(ticket, { isResolved }, batch, { resolvedActions: true });
        },
      }));
    },

    /** Extension (docs/api.md, "Endpoints"): sets isArchived (default true). */
    archive(
      boardId: number,
      input: { ticketIds: number[]; isArchived?: boolean },
    ): TicketSummary[] {
      const isArchived = input.isArchived ?? true;
      return run(boardId, input.ticketIds, () => ({
        work: (ticket, batch) => {
          edits.apply(ticket, { isArchived }, batch);
        },
      }));
    },

    /** Moves each ticket to the lane named `laneName`; isResolved changes only when sent. */
    transition(
      boardId: number,
      input: { ticketIds: number[]; laneName: string; isResolved?: boolean; isCompleted?: boolean },
    ): TicketSummary[] {
      return run(boardId, input.ticketIds, () => {
        const lane = lanes.laneNamed(boardId, input.laneName);
        const patch = withResolved({ lane }, input.isResolved ?? input.isCompleted);
        return {
          work: (ticket, batch) => {
            edits.apply(ticket, patch, batch);
          },
        };
      });
    },

    /** Moves every ticket to a lane of another board (or of this one: a lane change). */
    move(
      boardId: number,
      input: { ticketIds: number[]; boardId: number; laneId: number },
    ): TicketSummary[] {
      return run(boardId, input.ticketIds, () => {
        const target = moves.target(input.boardId, input.laneId);
        return {
          resultBoardId: target.board.id,
          work: (ticket, batch) => {
            moves.move(ticket, target, batch);
          },
        };
      });
    },
  };
}

export type TicketBulkService = ReturnType<typeof ticketBulkService>;
