import { Type } from "@sinclair/typebox";
import type { TagReasonService } from "../../domain/annotations/tag-reasons.js";
import { deleteRoute, listRoute } from "../route-shapes.js";
import { answer, errors, TicketIdParams } from "../schemas/common.js";
import {
  TicketTagParams,
  TicketTagReason,
  TicketTagReasonSetBody,
} from "../schemas/tag-reasons.js";
import type { TackApp } from "../types.js";

export function tagReasonRoutes(app: TackApp, tagReasons: TagReasonService): void {
  const TagReasonRef = Type.Ref(TicketTagReason);

  listRoute(
    app,
    "/api/tickets/:ticketId/tag-reasons",
    {
      operationId: "listTicketTagReasons",
      summary: "List a ticket's tags with their reasons",
      tags: ["tags"],
      description: "Attached tags with their reason metadata, by tag name then id.",
      params: TicketIdParams,
      key: "tags",
      item: TagReasonRef,
      listed: "The tags attached to the ticket, each with its reason if any.",
    },
    ({ ticketId }) => tagReasons.list(ticketId),
  );

  app.post(
    "/api/tickets/:ticketId/tags/:tagId",
    {
      schema: {
        operationId: "setTicketTagReason",
        summary: "Attach a tag to a ticket, with a reason",
        tags: ["tags"],
        description:
          "Attaches a tag of the ticket's board (if not yet attached) and upserts its reason. " +
          "A tag of another board is 400; reasonCommentId must be a comment of the ticket.",
        params: TicketTagParams,
        body: Type.Ref(TicketTagReasonSetBody),
        response: {
          200: answer(TagReasonRef, "The tag as attached, with its reason."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => tagReasons.set(request.params.ticketId, request.params.tagId, request.body),
  );

  deleteRoute(
    app,
    "/api/tickets/:ticketId/tags/:tagId",
    {
      operationId: "removeTicketTag",
      summary: "Take a tag off a ticket",
      tags: ["tags"],
      description: "Detaches the tag and drops its reason; 404 when it is not attached.",
      params: TicketTagParams,
      gone: "The tag is no longer on the ticket.",
    },
    ({ ticketId, tagId }) => tagReasons.remove(ticketId, tagId),
  );
}
