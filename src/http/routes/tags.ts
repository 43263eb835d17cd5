import type { TagService } from "../../domain/boards/tags.js";
import { deleteRoute, listOf } from "../route-shapes.js";
import { TagCreateBody, TagPatchBody, TagRef } from "../schemas/boards.js";
import { answer, BoardIdParams, errors, TagIdParams } from "../schemas/common.js";
import type { TackApp } from "../types.js";

export function tagRoutes(app: TackApp, tags: TagService): void {
  app.get(
    "/api/boards/:boardId/tags",
    {
      schema: {
        operationId: "listTags",
        summary: "List a board's tags",
        description: "Tags belong to one board; tickets carry them by id.",
        tags: ["tags"],
        params: BoardIdParams,
        response: {
          200: answer(listOf("tags", TagRef), "The board's tags."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => ({ tags: tags.list(request.params.boardId) }),
  );

  app.post(
    "/api/boards/:boardId/tags",
    {
      schema: {
        operationId: "createTag",
        summary: "Create a tag",
        tags: ["tags"],
        description: "Tag names are unique per board, case-insensitively (409 on a clash).",
        params: BoardIdParams,
        body: TagCreateBody,
        response: { 201: answer(TagRef, "The new tag."), ...errors(400, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(tags.create(request.params.boardId, request.body)),
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
      errors: [400, 404],
    },
    ({ tagId }) => tags.remove(tagId),
  );
}
