import { Type } from "@sinclair/typebox";
import type { CommentPushService } from "../../domain/remote-tracking/comment-push.js";
import type { RemoteImportService } from "../../domain/remote-tracking/remote-import.js";
import type { RemoteRefreshService } from "../../domain/remote-tracking/remote-refresh.js";
import { IdempotencyKeyHeaders } from "../idempotency-keys.js";
import {
  answer,
  BoardIdParams,
  CommentIdParams,
  errors,
  TicketIdParams,
} from "../schemas/common.js";
import { RemoteIssueImport, RemoteIssueImportPreview } from "../schemas/remote.js";
import { CommentRef, TicketRef } from "../schemas/tickets.js";
import type { TackApp } from "../types.js";

export function remoteRoutes(
  app: TackApp,
  services: {
    remoteImport: RemoteImportService;
    remoteRefresh: RemoteRefreshService;
    commentPush: CommentPushService;
  },
): void {
  const { remoteImport, remoteRefresh, commentPush } = services;
  const ImportBody = Type.Ref(RemoteIssueImport);

  app.post(
    "/api/boards/:boardId/remote-import",
    {
      schema: {
        operationId: "importRemoteIssue",
        summary: "Import a remote issue as a ticket",
        tags: ["remote"],
        description:
          "Creates a ticket tracking the remote issue: title from the remote (read-only), remote " +
          "body copied into bodyMarkdown, snapshot in remote. 409 when the issue is tracked " +
          "already. Provider failures are 400 with a safe message.",
        params: BoardIdParams,
        body: ImportBody,
        headers: IdempotencyKeyHeaders,
        response: {
          201: answer(TicketRef, "The new ticket, linked to the remote issue."),
          ...errors(400, 404, 409, 422),
        },
      },
      config: { idempotent: true },
    },
    async (request, reply) =>
      reply.code(201).send(await remoteImport.import(request.params.boardId, request.body)),
  );

  app.post(
    "/api/boards/:boardId/remote-import/preview",
    {
      schema: {
        operationId: "previewRemoteIssueImport",
        summary: "Preview a remote issue import",
        tags: ["remote"],
        description: "Fetches the issue as an import would; creates nothing.",
        params: BoardIdParams,
        body: ImportBody,
        response: {
          200: answer(
            Type.Ref(RemoteIssueImportPreview),
            "What an import would create, and whether the issue is already imported; nothing is written.",
          ),
          ...errors(400, 404),
        },
      },
    },
    async (request) => remoteImport.preview(request.params.boardId, request.body),
  );

  app.post(
    "/api/tickets/:ticketId/remote-refresh",
    {
      schema: {
        operationId: "refreshRemoteIssue",
        summary: "Refresh a ticket from its remote issue",
        tags: ["remote"],
        description:
          "Re-fetches title, body and state: updates the title and the remote snapshot, never " +
          "the local bodyMarkdown. 400 for an untracked ticket or a provider failure.",
        params: TicketIdParams,
        response: {
          200: answer(TicketRef, "The ticket with the remote issue's current title and state."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => remoteRefresh.refresh(request.params.ticketId),
  );

  app.post(
    "/api/comments/:commentId/push-remote",
    {
      schema: {
        operationId: "pushCommentToRemote",
        summary: "Push a comment to the remote issue",
        tags: ["remote"],
        description:
          "Posts the comment on the tracked remote issue. 409 when pushed, or pushing for less " +
          "than 15 minutes; a failed push is 400 {error: lastError} and may be retried.",
        params: CommentIdParams,
        response: { 200: answer(CommentRef, "The comment, now pushed."), ...errors(400, 404, 409) },
      },
    },
    async (request) => commentPush.push(request.params.commentId),
  );
}
