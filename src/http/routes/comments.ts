import type { CommentService } from "../../domain/annotations/comments.js";
import { IdempotencyKeyHeaders } from "../idempotency-keys.js";
import { deleteRoute, listOf } from "../route-shapes.js";
import { answer, CommentIdParams, errors, TicketIdParams } from "../schemas/common.js";
import { CommentBody } from "../schemas/ticket-records.js";
import { CommentRef } from "../schemas/tickets.js";
import type { TackApp } from "../types.js";

export function commentRoutes(app: TackApp, comments: CommentService): void {
  app.get(
    "/api/tickets/:ticketId/comments",
    {
      schema: {
        operationId: "listComments",
        summary: "List a ticket's comments",
        tags: ["comments"],
        description: "Newest first (createdAt desc, then id desc).",
        params: TicketIdParams,
        response: {
          200: answer(listOf("comments", CommentRef), "The ticket's comments, oldest first."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => ({ comments: comments.list(request.params.ticketId) }),
  );

  app.post(
    "/api/tickets/:ticketId/comments",
    {
      schema: {
        operationId: "createComment",
        summary: "Comment on a ticket",
        tags: ["comments"],
        description: "A new comment is `local_only`; its sync timestamps equal its createdAt.",
        params: TicketIdParams,
        body: CommentBody,
        headers: IdempotencyKeyHeaders,
        response: { 201: answer(CommentRef, "The new comment."), ...errors(400, 404, 422) },
      },
      config: { idempotent: true },
    },
    async (request, reply) =>
      reply.code(201).send(comments.create(request.params.ticketId, request.body.bodyMarkdown)),
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
      errors: [400, 404],
    },
    ({ commentId }) => comments.remove(commentId),
  );
}
