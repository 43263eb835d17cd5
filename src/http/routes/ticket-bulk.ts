import { type Static, type TSchema, Type } from "@sinclair/typebox";
import type { TicketSummary } from "../../domain/model.js";
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

  /**
   * POST /api/boards/:boardId/tickets/`action`: one change to many tickets of the board, all or
   * nothing (ALL_OR_NOTHING ends every such route's description), answered with the changed
   * tickets' summaries (`answered` describes them).
   */
  function bulkRoute<Body extends TSchema>(
    action: string,
    route: {
      operationId: string;
      summary: string;
      description: string;
      body: Body;
      answered: string;
    },
    change: (boardId: number, body: Static<Body>) => TicketSummary[],
  ): void {
    const { description, answered, ...doc } = route;
    const response = { 200: answer(SummaryList, answered), ...errors(400, 404) };
    app.post(
      `/api/boards/:boardId/tickets/${action}`,
      {
        schema: {
          ...doc,
          tags: ["bulk"],
          description: `${description} ${ALL_OR_NOTHING}`,
          params: BoardIdParams,
          response,
        },
      },
      async (request) => ({
        tickets: change(request.params.boardId, request.body as Static<Body>),
      }),
    );
  }

  bulkRoute(
    "bulk-complete",
    {
      operationId: "bulkCompleteTickets",
      summary: "Resolve or reopen many tickets",
      description: "Sets isResolved (default true).",
      body: BulkCompleteBody,
      answered: "The changed tickets' summaries.",
    },
    (boardId, body) => ticketBulk.complete(boardId, body),
  );

  bulkRoute(
    "bulk-archive",
    {
      operationId: "bulkArchiveTickets",
      summary: "Archive or restore many tickets",
      description: "Extension (docs/api.md, 'Endpoints'): sets isArchived (default true).",
      body: BulkArchiveBody,
      answered: "The changed tickets' summaries.",
    },
    (boardId, body) => ticketBulk.archive(boardId, body),
  );

  bulkRoute(
    "bulk-transition",
    {
      operationId: "bulkTransitionTickets",
      summary: "Move many tickets to a lane by name",
      description: "Moves to the lane named laneName.",
      body: BulkTransitionBody,
      answered: "The moved tickets' summaries.",
    },
    (boardId, body) => ticketBulk.transition(boardId, body),
  );

  bulkRoute(
    "bulk-move",
    {
      operationId: "bulkMoveTickets",
      summary: "Move many tickets to another board",
      description: "Moves to a lane of another board; answers summaries from the destination.",
      body: BulkMoveBody,
      answered: "The moved tickets' summaries, from the destination board.",
    },
    (boardId, body) => ticketBulk.move(boardId, body),
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
