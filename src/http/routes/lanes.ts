import { Type } from "@sinclair/typebox";
import type { LaneService } from "../../domain/boards/lanes.js";
import { LaneCreateBody, LanePatchBody, LaneRef } from "../schemas/boards.js";
import { BoardIdParams, errors, IdList, LaneIdParams } from "../schemas/common.js";
import type { TackApp } from "../types.js";

export function laneRoutes(app: TackApp, lanes: LaneService): void {
  const LaneList = Type.Object({ lanes: Type.Array(LaneRef) });

  app.get(
    "/api/boards/:boardId/lanes",
    {
      schema: {
        operationId: "listLanes",
        tags: ["lanes"],
        params: BoardIdParams,
        response: { 200: LaneList, ...errors(400, 404) },
      },
    },
    async (request) => ({ lanes: lanes.list(request.params.boardId) }),
  );

  app.post(
    "/api/boards/:boardId/lanes",
    {
      schema: {
        operationId: "createLane",
        tags: ["lanes"],
        params: BoardIdParams,
        body: LaneCreateBody,
        response: { 201: LaneRef, ...errors(400, 404) },
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
        tags: ["lanes"],
        description: "laneIds must list every lane of the board exactly once.",
        params: BoardIdParams,
        body: Type.Object({ laneIds: IdList }),
        response: { 200: LaneList, ...errors(400, 404) },
      },
    },
    async (request) => ({ lanes: lanes.reorder(request.params.boardId, request.body.laneIds) }),
  );

  app.patch(
    "/api/lanes/:laneId",
    {
      schema: {
        operationId: "renameLane",
        tags: ["lanes"],
        description: "Renames the lane, sets its WIP limit (null clears it), or both.",
        params: LaneIdParams,
        body: LanePatchBody,
        response: { 200: LaneRef, ...errors(400, 404) },
      },
    },
    async (request) => lanes.update(request.params.laneId, request.body),
  );

  app.delete(
    "/api/lanes/:laneId",
    {
      schema: {
        operationId: "deleteLane",
        tags: ["lanes"],
        description: "Only an empty lane can be deleted (409 otherwise).",
        params: LaneIdParams,
        response: { 204: Type.Null(), ...errors(400, 404, 409) },
      },
    },
    async (request, reply) => {
      lanes.remove(request.params.laneId);
      return reply.code(204).send(null);
    },
  );
}
