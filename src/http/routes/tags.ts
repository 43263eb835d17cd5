import type { TagService } from "../../domain/boards/tags.js";
import { createRoute, deleteRoute, listRoute } from "../route-shapes.js";
import { TagCreateBody, TagPatchBody, TagRef } from "../schemas/boards.js";
import { answer, BoardIdParams, errors, TagIdParams } from "../schemas/common.js";
import type { TackApp } from "../types.js";

export function tagRoutes(app: TackApp, tags: TagService): void {
  listRoute(
    app,
    "/api/boards/:boardId/tags",
    {
      operationId: "listTags",
      summary: "List a board's tags",
      description: "Tags belong to one board; tickets carry them by id.",
      tags: ["tags"],
      params: BoardIdParams,
      key: "tags",
      item: TagRef,
      listed: "The board's tags.",
    },
    ({ boardId }) => tags.list(boardId),
  );

  createRoute(
    app,
    "/api/boards/:boardId/tags",
    {
      operationId: "createTag",
      summary: "Create a tag",
      tags: ["tags"],
      description: "Tag names are unique per board, case-insensitively (409 on a clash).",
      params: BoardIdParams,
      body: TagCreateBody,
      item: TagRef,
      created: "The new tag.",
      alsoErrors: [409],
    },
    ({ boardId }, body) => tags.create(boardId, body),
  );

  app.patch(
    "/api/tags/:tagId",
    {
      schema: {
        operationId: "updateTag",
        summary: "Rename or recolor a tag",
        description: "Send name, color or both; a name another tag of the board has is 409.",
        tags: ["tags"],
        params: TagIdParams,
        body: TagPatchBody,
        response: { 200: answer(TagRef, "The tag as changed."), ...errors(400, 404, 409) },
      },
    },
    async (request) => tags.update(request.params.tagId, request.body),
  );

  deleteRoute(
    app,
    "/api/tags/:tagId",
    {
      operationId: "deleteTag",
      summary: "Delete a tag",
      tags: ["tags"],
      description: "Removing a tag detaches it from every ticket.",
      params: TagIdParams,
      gone: "The tag is deleted and taken off every ticket.",
    },
    ({ tagId }) => tags.remove(tagId),
  );
}
