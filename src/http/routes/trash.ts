import type { TrashService } from "../../domain/trash/trash.js";
import { deleteRoute } from "../route-shapes.js";
import { answer, errors } from "../schemas/common.js";
import { TrashIdParams, TrashList, TrashListQuery, TrashRestored } from "../schemas/trash.js";
import type { TackApp } from "../types.js";

/**
 * The trash (docs/api.md, "The trash"): deleted objects kept for a while, restorable with their
 * ids.
 */
export function trashRoutes(app: TackApp, trash: TrashService): void {
  app.get(
    "/api/trash",
    {
      schema: {
        operationId: "listTrash",
        summary: "List the trash",
        tags: ["trash"],
        description:
          "Extension (docs/api.md, 'The trash'): deleted objects still restorable, newest first.",
        querystring: TrashListQuery,
        response: {
          200: answer(TrashList, "The trash entries, newest first."),
          ...errors(400),
        },
      },
    },
    async (request) => ({ items: trash.list(request.query.boardId) }),
  );

  app.post(
    "/api/trash/:trashId/restore",
    {
      schema: {
        operationId: "restoreFromTrash",
        summary: "Restore a deleted object",
        tags: ["trash"],
        description:
          "Brings the object back with the same id. 409 when what it belongs to is gone (the " +
          "error names what to restore first) or its tag name or remote issue was taken.",
        params: TrashIdParams,
        response: {
          200: answer(TrashRestored, "The object is back: its kind and id."),
          ...errors(400, 404, 409),
        },
      },
    },
    async (request) => trash.restore(request.params.trashId),
  );

  deleteRoute(
    app,
    "/api/trash/:trashId",
    {
      operationId: "eraseFromTrash",
      summary: "Erase a trash entry for good",
      tags: ["trash"],
      description: "Erases the entry's object for good (its ids are never given again).",
      params: TrashIdParams,
      gone: "Erased: the object is gone for good.",
    },
    ({ trashId }) => trash.erase(trashId),
  );
}
