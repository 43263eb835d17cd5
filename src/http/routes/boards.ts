import { Type } from "@sinclair/typebox";
import type { BoardService } from "../../domain/boards/boards.js";
import { IdempotencyKeyHeaders } from "../idempotency-keys.js";
import {
  BoardCreateBody,
  BoardDetailRef,
  BoardRef,
  BoardShellRef,
  NameBody,
} from "../schemas/boards.js";
import { BoardIdParams, errors, IdList } from "../schemas/common.js";
import type { TackApp } from "../types.js";

export function boardRoutes(app: TackApp, boards: BoardService): void {
  const BoardList = Type.Object({ boards: Type.Array(BoardRef) });

  app.get(
    "/api/boards",
    {
      schema: {
        operationId: "listBoards",
        tags: ["boards"],
        response: { 200: BoardList, ...errors(400, 500) },
      },
    },
    async () => ({ boards: boards.list() }),
  );

  app.post(
    "/api/boards",
    {
      schema: {
        operationId: "createBoard",
        tags: ["boards"],
        body: BoardCreateBody,
        headers: IdempotencyKeyHeaders,
        response: { 201: BoardDetailRef, ...errors(400, 422) },
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
        tags: ["boards"],
        description: "Extension (CONTRACT.md §12): boardIds must list every board once.",
        body: Type.Object({ boardIds: IdList }),
        response: { 200: BoardList, ...errors(400) },
      },
    },
    async (request) => ({ boards: boards.reorder(request.body.boardIds) }),
  );

  app.get(
    "/api/boards/:boardId",
    {
      schema: {
        operationId: "getBoard",
        tags: ["boards"],
        params: BoardIdParams,
        response: { 200: BoardShellRef, ...errors(400, 404) },
      },
    },
    async (request) => boards.shell(request.params.boardId),
  );

  app.patch(
    "/api/boards/:boardId",
    {
      schema: {
        operationId: "renameBoard",
        tags: ["boards"],
        params: BoardIdParams,
        body: NameBody,
        response: { 200: BoardRef, ...errors(400, 404) },
      },
    },
    async (request) => boards.rename(request.params.boardId, request.body.name),
  );

  app.delete(
    "/api/boards/:boardId",
    {
      schema: {
        operationId: "deleteBoard",
        tags: ["boards"],
        params: BoardIdParams,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (request, reply) => {
      boards.remove(request.params.boardId);
      return reply.code(204).send(null);
    },
  );
}
