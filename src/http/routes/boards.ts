import { Type } from "@sinclair/typebox";
import type { BoardService } from "../../domain/boards/boards.js";
import { IdempotencyKeyHeaders } from "../idempotency-keys.js";
import { deleteRoute, listOf } from "../route-shapes.js";
import {
  BoardCreateBody,
  BoardDetailRef,
  BoardRef,
  BoardShellRef,
  NameBody,
} from "../schemas/boards.js";
import { answer, BoardIdParams, errors, IdList } from "../schemas/common.js";
import type { TackApp } from "../types.js";

export function boardRoutes(app: TackApp, boards: BoardService): void {
  const BoardList = listOf("boards", BoardRef);

  app.get(
    "/api/boards",
    {
      schema: {
        operationId: "listBoards",
        summary: "List boards",
        description:
          "Boards in their order (POST /api/boards/reorder), each without lanes, tags or tickets.",
        tags: ["boards"],
        response: { 200: answer(BoardList, "Every board, in board order."), ...errors(400, 500) },
      },
    },
    async () => ({ boards: boards.list() }),
  );

  app.post(
    "/api/boards",
    {
      schema: {
        operationId: "createBoard",
        summary: "Create a board",
        description:
          "laneNames are created in the order given; names are trimmed and must not be empty.",
        tags: ["boards"],
        body: BoardCreateBody,
        headers: IdempotencyKeyHeaders,
        response: {
          201: answer(
            BoardDetailRef,
            "The new board with its lanes (laneNames, or none) and no tags.",
          ),
          ...errors(400, 422),
        },
      },
      config: { idempotent: true },
    },
    async (request, reply) => {
      const shell = boards.create(request.body.name, request.body.laneNames);
      return reply.code(201).send({ ...shell, tickets: [] });
    },
  );

  app.post(
    "/api/boards/reorder",
    {
      schema: {
        operationId: "reorderBoards",
        summary: "Reorder boards",
        tags: ["boards"],
        description: "Extension (docs/api.md, 'Endpoints'): boardIds must list every board once.",
        body: Type.Object({ boardIds: IdList }),
        response: { 200: answer(BoardList, "Every board, in the new order."), ...errors(400) },
      },
    },
    async (request) => ({ boards: boards.reorder(request.body.boardIds) }),
  );

  app.get(
    "/api/boards/:boardId",
    {
      schema: {
        operationId: "getBoard",
        summary: "Get a board with its lanes and tags",
        description: "The board shell: what a board view needs besides its tickets.",
        tags: ["boards"],
        params: BoardIdParams,
        response: {
          200: answer(
            BoardShellRef,
            "The board, its lanes in order and its tags; tickets are listed by listTickets.",
          ),
          ...errors(400, 404),
        },
      },
    },
    async (request) => boards.shell(request.params.boardId),
  );

  app.patch(
    "/api/boards/:boardId",
    {
      schema: {
        operationId: "renameBoard",
        summary: "Rename a board",
        description: "The name is trimmed and must not be empty.",
        tags: ["boards"],
        params: BoardIdParams,
        body: NameBody,
        response: { 200: answer(BoardRef, "The renamed board."), ...errors(400, 404) },
      },
    },
    async (request) => boards.rename(request.params.boardId, request.body.name),
  );

  deleteRoute(
    app,
    "/api/boards/:boardId",
    {
      operationId: "deleteBoard",
      summary: "Delete a board and everything on it",
      description: "Ids of the deleted rows are never reused.",
      tags: ["boards"],
      params: BoardIdParams,
      gone: "Deleted, with its lanes, tags, tickets and their history.",
    },
    ({ boardId }) => boards.remove(boardId),
  );
}
