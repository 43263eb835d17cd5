import type { CommentService } from "../../domain/annotations/comments.js";
import { createRoute, deleteRoute, listRoute } from "../route-shapes.js";
import { answer, CommentIdParams, errors, TicketIdParams } from "../schemas/common.js";
import { CommentBody } from "../schemas/ticket-records.js";
import { CommentRef } from "../schemas/tickets.js";
import type { TackApp } from "../types.js";

export function commentRoutes(app: TackApp, comments: CommentService): void {
  listRoute(
    app,
    "/api/tickets/:ticketId/comments",
    {
      operationId: "listComments",
      summary: "List a ticket's comments",
      tags: ["comments"],
      description: "Newest first (createdAt desc, then id desc).",
      params: TicketIdParams,
      key: "comments",
      item: CommentRef,
      listed: "The ticket's comments, oldest first.",
    },
    ({ ticketId }) => comments.list(ticketId),
  );

  createRoute(
    app,
    "/api/tickets/:ticketId/comments",
    {
      operationId: "createComment",
      summary: "Comment on a ticket",
      tags: ["comments"],
      description: "A new comment is `local_only`; its sync timestamps equal its createdAt.",
      params: TicketIdParams,
      body: CommentBody,
      item: CommentRef,
      created: "The new comment.",
      idempotent: true,
    },
    ({ ticketId }, { bodyMarkdown }) => comments.create(ticketId, bodyMarkdown),
  );

  app.patch(
    "/api/comments/:commentId",
    {
      schema: {
        operationId: "updateComment",
        summary: "Edit a comment",
        tags: ["comments"],
        description: "A comment that is `pushed` or `pushing` is read-only (400).",
        params: CommentIdParams,
        body: CommentBody,
        response: { 200: answer(CommentRef, "The comment as edited."), ...errors(400, 404) },
      },
    },
    async (request) => comments.update(request.params.commentId, request.body.bodyMarkdown),
  );

  deleteRoute(
    app,
    "/api/comments/:commentId",
    {
      operationId: "deleteComment",
      summary: "Delete a comment",
      tags: ["comments"],
      description: "A comment that is `pushed` or `pushing` is read-only (400).",
      params: CommentIdParams,
      gone: "The comment is deleted.",
    },
    ({ commentId }) => comments.remove(commentId),
  );
}
