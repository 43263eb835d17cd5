import { Type } from "@sinclair/typebox";

export { BoardInsights } from "../../model/insights.js";

// `GET /api/boards/{id}/insights` (docs/api.md, "Insights"; docs/insights.md).

export const InsightsQuery = Type.Object({
  from: Type.Optional(
    Type.String({ description: "RFC 3339 date-time with an offset; default: 30 days before to" }),
  ),
  to: Type.Optional(
    Type.String({ description: "RFC 3339 date-time with an offset; default: now" }),
  ),
  bucket: Type.Optional(
    Type.Union([Type.Literal("hour"), Type.Literal("day"), Type.Literal("week")], {
      description: "Bucket size; default day. At most 1,000 buckets.",
    }),
  ),
});
