import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import type { BoardService } from "../boards/boards.js";
import { now } from "../clock.js";
import { InvalidInput, NotFound } from "../errors.js";
import type { Ticket } from "../model.js";
import type { Transact } from "../transaction.js";
import { activeFirst, type LaneEntry, placeInOrder, type TicketLanes } from "./ticket-ordering.js";
import type { TicketViews, TicketWritten } from "./ticket-views.js";

export interface PositionInput {
  laneId: number;
  position?: number;
  beforeTicketId?: number | null;
  afterTicketId?: number | null;
}

export interface ReorderItem {
  ticketId: number;
  laneId: number;
  position: number;
}

/** Explicit placement of tickets: the position endpoint and the deprecated full-board reorder. */
export function ticketPositionService(
  stores: Pick<Stores, "tickets" | "lanes">,
  deps: {
    boards: Pick<BoardService, "require">;
    lanes: TicketLanes;
    views: TicketViews;
    activity: ActivityRecorder;
  },
  transact: Transact,
) {
  const { tickets } = stores;
  const { lanes, views, activity } = deps;

  /** Index of an anchor in the target lane's order (which excludes the moving ticket). */
  function anchorIndex(order: LaneEntry[], ticketId: number, anchor: number, field: string) {
    if (anchor === ticketId) throw new InvalidInput(`${field} must not be the ticket itself`);
    const index = order.findIndex((entry) => entry.id === anchor);
    if (index < 0) throw new InvalidInput(`${field} is not a ticket of the target lane`);
    return index;
  }

  return {
    /**
     * docs/api.md, "Rules clients can rely on": `beforeTicketId` wins, then `afterTicketId`, then
     * `position` (clamped to the lane's end), else the end. Every anchor sent must be in the target
     * lane. Answers the row it left.
     */
    reposition(ticketId: number, input: PositionInput): TicketWritten {
      return transact((changes) => {
        const ticket = tickets.row(ticketId);
        if (!ticket) throw new NotFound("ticket not found");
        const lane = lanes.laneOfBoard(ticket.boardId, input.laneId);
        const order = lanes.order(lane.id).filter((entry) => entry.id !== ticketId);
        const before =
          input.beforeTicketId == null
            ? undefined
            : anchorIndex(order, ticketId, input.beforeTicketId, "beforeTicketId");
        const after =
          input.afterTicketId == null
            ? undefined
            : anchorIndex(order, ticketId, input.afterTicketId, "afterTicketId") + 1;
        const index = before ?? after ?? input.position ?? order.length;
        const ids = placeInOrder(order, { id: ticketId, isArchived: ticket.isArchived }, index);
        const position = ids.indexOf(ticketId);
        const laneChanged = lane.id !== ticket.laneId;
        if (!laneChanged && position === ticket.position) {
          return { record: ticket };
        }

        if (laneChanged) tickets.appendToLane(ticketId, lane.id);
        lanes.write(ids);
        if (laneChanged) lanes.renumber([ticket.laneId]);
        tickets.touch(ticketId, now());
        activity.record({
          boardId: ticket.boardId,
          ticketId,
          ...(laneChanged
            ? { action: "ticket_transitioned", message: `Moved to ${lane.name}` }
            : { action: "ticket_updated", message: "Ticket updated" }),
          details: {
            fromLaneId: ticket.laneId,
            toLaneId: lane.id,
            before: { laneId: ticket.laneId, position: ticket.position },
            after: { laneId: lane.id, position },
          },
        });
        changes.touched(ticket.boardId);
        return views.written(ticketId);
      });
    },

    /**
     * Deprecated: places every active ticket of the board at once. Items are ordered per lane by
     * `position` (ties keep request order); archived tickets not listed stay in their lane,
     * after the active ones. Answers the board's active tickets in board order.
     */
    reorder(boardId: number, items: ReorderItem[]): Ticket[] {
      return transact((changes) => {
        deps.boards.require(boardId);
        const rows = new Map(tickets.rowsOfBoard(boardId).map((row) => [row.id, row]));
        const boardLanes = stores.lanes.listByBoard(boardId);
        const laneById = new Map(boardLanes.map((lane) => [lane.id, lane]));
        const listed = new Set<number>();
        items.forEach((item, index) => {
          if (!rows.has(item.ticketId)) {
            throw new InvalidInput(`items[${index}].ticketId is not a ticket of this board`);
          }
          if (!laneById.has(item.laneId)) {
            throw new InvalidInput(`items[${index}].laneId is not a lane of this board`);
          }
          if (listed.has(item.ticketId)) {
            throw new InvalidInput(`items[${index}].ticketId is listed more than once`);
          }
          listed.add(item.ticketId);
        });
        for (const row of rows.values()) {
          if (!row.isArchived && !listed.has(row.id)) {
            throw new InvalidInput(
              `items must list every active ticket of the board (${row.id} is missing)`,
            );
          }
        }

        const sorted = items
          .map((item, index) => ({ ...item, index }))
          .sort((a, b) => a.position - b.position || a.index - b.index);
        const at = now();
        for (const lane of boardLanes) {
          const entries: LaneEntry[] = sorted
            .filter((item) => item.laneId === lane.id)
            .map((item) => ({
              id: item.ticketId,
              isArchived: rows.get(item.ticketId)?.isArchived ?? false,
            }));
          const unlisted = lanes.order(lane.id).filter((entry) => !listed.has(entry.id));
          const ids = activeFirst([...entries, ...unlisted]);
          ids.forEach((id, position) => {
            const row = rows.get(id);
            if (!row || (row.laneId === lane.id && row.position === position)) return;
            if (row.laneId !== lane.id) {
              tickets.appendToLane(id, lane.id);
              activity.record({
                boardId,
                ticketId: id,
                action: "ticket_transitioned",
                message: `Moved to ${lane.name}`,
                details: { fromLaneId: row.laneId, toLaneId: lane.id },
              });
            }
            tickets.touch(id, at);
          });
          lanes.write(ids);
        }
        changes.touched(boardId);
        return views.boardTickets(boardId, { includeArchived: false });
      });
    },
  };
}

export type TicketPositionService = ReturnType<typeof ticketPositionService>;
