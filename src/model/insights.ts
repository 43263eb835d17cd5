import { type Static, Type } from "@sinclair/typebox";
import { Id, Nullable, Timestamp } from "./common.js";

// A board's flow figures (docs/api.md, "Insights"; docs/insights.md).

const Seconds = Nullable(Type.Integer({ minimum: 0 }));
const Percentiles = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  p50: Seconds,
  p85: Seconds,
  p95: Seconds,
});
export type Percentiles = Static<typeof Percentiles>;

export const BoardInsights = Type.Object(
  {
    from: Timestamp,
    to: Timestamp,
    bucket: Type.String(),
    flow: Type.Array(
      Type.Object({
        at: Timestamp,
        lanes: Type.Array(Type.Object({ laneId: Id, count: Type.Integer({ minimum: 0 }) })),
      }),
      { description: "Per bucket: tickets of each current lane at its end, not archived then." },
    ),
    throughput: Type.Array(Type.Object({ at: Timestamp, resolved: Type.Integer({ minimum: 0 }) }), {
      description: "Per bucket: how many times a ticket became resolved in it.",
    }),
    leadTime: Percentiles,
    cycleTime: Percentiles,
    completions: Type.Array(
      Type.Object({
        ticketId: Id,
        resolvedAt: Timestamp,
        leadSeconds: Type.Integer({ minimum: 0 }),
        cycleSeconds: Seconds,
      }),
      {
        description:
          "The tickets counted in leadTime, by resolution time: each one's lead and cycle time (tack's addition: the points behind the percentiles).",
      },
    ),
    aging: Type.Array(
      Type.Object({
        ticketId: Id,
        laneId: Id,
        since: Timestamp,
        ageSeconds: Type.Integer({ minimum: 0 }),
      }),
      { description: "Open tickets, oldest in their lane first." },
    ),
    actors: Type.Array(
      Type.Object({
        actor: Type.String(),
        claimed: Type.Integer({ minimum: 0 }),
        resolved: Type.Integer({ minimum: 0 }),
      }),
    ),
  },
  { $id: "BoardInsights" },
);
export type BoardInsights = Static<typeof BoardInsights>;
