import { Type } from "@sinclair/typebox";
import type { ActivityLogService } from "../../domain/activity.js";
import { listOf } from "../route-shapes.js";
import { answer, errors, TicketIdParams } from "../schemas/common.js";
import { ActivityLog } from "../schemas/ticket-records.js";
import type { TackApp } from "../types.js";

export function activityRoutes(app: TackApp, activity: ActivityLogService): void {
  app.get(
    "/api/tickets/:ticketId/activity",
    {
      schema: {
        operationId: "listTicketActivity",
        summary: "A ticket's activity history",
        tags: ["activity"],
        description:
          "Newest first. Stays readable after the ticket is deleted (404 only when neither the " +
          "ticket nor any entry about it exists). Action names: docs/activity.md.",
        params: TicketIdParams,
        response: {
          200: answer(
            listOf("activity", Type.Ref(ActivityLog)),
            "The ticket's activity, oldest first.",
          ),
          ...errors(400, 404),
        },
      },
    },
    async (request) => ({ activity: activity.list(request.params.ticketId) }),
  );
}
