import { Type } from "@sinclair/typebox";
import type { TicketBulkService } from "../../domain/tickets/ticket-bulk.js";
import type { TicketPositionService } from "../../domain/tickets/ticket-positions.js";
import { answer, BoardIdParams, errors } from "../schemas/common.js";
import {
  BulkArchiveBody,
  BulkCompleteBody,
  BulkMoveBody,
  BulkTransitionBody,
  ReorderBody,
} from "../schemas/ticket-requests.js";
import { TicketRef, TicketSummaryRef } from "../schemas/tickets.js";
import type { TackApp } from "../types.js";

const ALL_OR_NOTHING =
  "Every id must be a ticket of the path board; one transaction, all or nothing. " +
  "Tickets are answered in ticketIds order, duplicates collapsed.";

export function ticketBulkRoutes(
  app: TackApp,
  services: { ticketBulk: TicketBulkService; ticketPositions: TicketPositionService },
): void {
  const { ticketBulk, ticketPositions } = services;
  const SummaryList = Type.Object({ tickets: Type.Array(TicketSummaryRef) });

  app.post(
    "/api/boards/:boardId/tickets/bulk-complete",
    {
      schema: {
        operationId: "bulkCompleteTickets",
        summary: "Resolve or reopen many tickets",
        tags: ["bulk"],
        description: `Sets isResolved (default true). ${ALL_OR_NOTHING}`,
        params: BoardIdParams,
        body: BulkCompleteBody,
        response: {
          200: answer(SummaryList, "The changed tickets' summaries."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => ({ tickets: ticketBulk.complete(request.params.boardId, request.body) }),
  );

  app.post(
    "/api/boards/:boardId/tickets/bulk-archive",
    {
      schema: {
        operationId: "bulkArchiveTickets",
        summary: "Archive or restore many tickets",
        tags: ["bulk"],
        description: `Extension (docs/api.md, 'Endpoints'): sets isArchived (default true). ${ALL_OR_NOTHING}`,
        params: BoardIdParams,
        body: BulkArchiveBody,
        response: {
          200: answer(SummaryList, "The changed tickets' summaries."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => ({ tickets: ticketBulk.archive(request.params.boardId, request.body) }),
  );

  app.post(
    "/api/boards/:boardId/tickets/bulk-transition",
    {
      schema: {
        operationId: "bulkTransitionTickets",
        summary: "Move many tickets to a lane by name",
        tags: ["bulk"],
        description: `Moves to the lane named laneName. ${ALL_OR_NOTHING}`,
        params: BoardIdParams,
        body: BulkTransitionBody,
        response: {
          200: answer(SummaryList, "The moved tickets' summaries."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => ({ tickets: ticketBulk.transition(request.params.boardId, request.body) }),
  );

  app.post(
    "/api/boards/:boardId/tickets/bulk-move",
    {
      schema: {
        operationId: "bulkMoveTickets",
        summary: "Move many tickets to another board",
        tags: ["bulk"],
        description: `Moves to a lane of another board; answers summaries from the destination. ${ALL_OR_NOTHING}`,
        params: BoardIdParams,
        body: BulkMoveBody,
        response: {
          200: answer(SummaryList, "The moved tickets' summaries, from the destination board."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => ({ tickets: ticketBulk.move(request.params.boardId, request.body) }),
  );

  app.post(
    "/api/boards/:boardId/tickets/reorder",
    {
      schema: {
        operationId: "reorderTickets",
        summary: "Reorder a board's tickets (deprecated)",
        tags: ["bulk"],
        deprecated: true,
        description:
          "Deprecated: use PATCH /api/tickets/{ticketId}/position. Needs an item for every " +
          "non-archived ticket of the board; answers those tickets in board order.",
        params: BoardIdParams,
        body: ReorderBody,
        response: {
          200: answer(
            Type.Object({ tickets: Type.Array(TicketRef) }),
            "The board's non-archived tickets in their new order.",
          ),
          ...errors(400, 404),
        },
      },
    },
    async (request) => ({
      tickets: ticketPositions.reorder(request.params.boardId, request.body.items),
    }),
  );
}
