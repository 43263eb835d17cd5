import { Type } from "@sinclair/typebox";
import type { LaneService } from "../../domain/boards/lanes.js";
import { deleteRoute, listOf } from "../route-shapes.js";
import { LaneCreateBody, LanePatchBody, LaneRef } from "../schemas/boards.js";
import { answer, BoardIdParams, errors, IdList, LaneIdParams } from "../schemas/common.js";
import type { TackApp } from "../types.js";

export function laneRoutes(app: TackApp, lanes: LaneService): void {
  const LaneList = listOf("lanes", LaneRef);

  app.get(
    "/api/boards/:boardId/lanes",
    {
      schema: {
        operationId: "listLanes",
        summary: "List a board's lanes",
        description: "Lanes in board order; a lane's name carries no meaning for resolved state.",
        tags: ["lanes"],
        params: BoardIdParams,
        response: { 200: answer(LaneList, "The board's lanes in order."), ...errors(400, 404) },
      },
    },
    async (request) => ({ lanes: lanes.list(request.params.boardId) }),
  );

  app.post(
    "/api/boards/:boardId/lanes",
    {
      schema: {
        operationId: "createLane",
        summary: "Add a lane",
        description:
          "The name is trimmed and must not be empty; wipLimit is optional (1-10,000). The lane is appended after the others.",
        tags: ["lanes"],
        params: BoardIdParams,
        body: LaneCreateBody,
        response: { 201: answer(LaneRef, "The new lane, last on its board."), ...errors(400, 404) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          lanes.create(request.params.boardId, request.body.name, request.body.wipLimit ?? null),
        ),
  );

  app.post(
    "/api/boards/:boardId/lanes/reorder",
    {
      schema: {
        operationId: "reorderLanes",
        summary: "Reorder a board's lanes",
        tags: ["lanes"],
        description: "laneIds must list every lane of the board exactly once.",
        params: BoardIdParams,
        body: Type.Object({ laneIds: IdList }),
        response: {
          200: answer(LaneList, "The board's lanes in the new order."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => ({ lanes: lanes.reorder(request.params.boardId, request.body.laneIds) }),
  );

  app.patch(
    "/api/lanes/:laneId",
    {
      schema: {
        operationId: "renameLane",
        summary: "Rename a lane or set its WIP limit",
        tags: ["lanes"],
        description: "Renames the lane, sets its WIP limit (null clears it), or both.",
        params: LaneIdParams,
        body: LanePatchBody,
        response: { 200: answer(LaneRef, "The lane as changed."), ...errors(400, 404) },
      },
    },
    async (request) => lanes.update(request.params.laneId, request.body),
  );

  deleteRoute(
    app,
    "/api/lanes/:laneId",
    {
      operationId: "deleteLane",
      summary: "Delete an empty lane",
      tags: ["lanes"],
      description: "Only an empty lane can be deleted (409 otherwise).",
      params: LaneIdParams,
      gone: "The lane is deleted.",
      alsoErrors: [409],
    },
    ({ laneId }) => lanes.remove(laneId),
  );
}
