import { Type } from "@sinclair/typebox";
import type { InsightsService } from "../../domain/insights/insights.js";
import { answer, BoardIdParams, errors } from "../schemas/common.js";
import { BoardInsights, InsightsQuery } from "../schemas/insights.js";
import type { TackApp } from "../types.js";

export function insightsRoutes(app: TackApp, insights: InsightsService): void {
  app.get(
    "/api/boards/:boardId/insights",
    {
      schema: {
        operationId: "boardInsights",
        summary: "Flow insights of a board",
        tags: ["boards"],
        description:
          "How work moved on the board (docs/api.md, 'Insights'): flow per bucket, throughput, lead and " +
          "cycle time percentiles, aging open tickets and per-actor figures, derived from the " +
          "activity history of the tickets that exist now.",
        params: BoardIdParams,
        querystring: InsightsQuery,
        response: {
          200: answer(Type.Ref(BoardInsights), "The board's flow figures over the period."),
          ...errors(400, 404),
        },
      },
    },
    async (request) => insights.board(request.params.boardId, request.query),
  );
}
