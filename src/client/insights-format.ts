import type { BoardInsightsT, LaneT } from "./api-types.js";

// Insights as text for people and agents (`tack insights`, the MCP tool `board_insights`):
// durations in the largest whole units, per-bucket figures as one table.

/** 93784 → "1d 2h", 4500 → "1h 15m", 42 → "42s"; null → "-". */
export function duration(seconds: number | null): string {
  if (seconds === null) return "-";
  const units: Array<[string, number]> = [
    ["d", 86_400],
    ["h", 3_600],
    ["m", 60],
    ["s", 1],
  ];
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of units) {
    if (rest >= size || (unit === "s" && parts.length === 0)) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(" ");
}

const percentileLine = (name: string, figures: BoardInsightsT["leadTime"]) =>
  `${name}: ${figures.count} tickets; p50 ${duration(figures.p50)}, p85 ${duration(figures.p85)}, p95 ${duration(figures.p95)}`;

/** The summary lines: period, totals, percentiles, oldest open ticket, actors. */
export function insightsSummary(insights: BoardInsightsT, lanes: readonly LaneT[]): string[] {
  const resolved = insights.throughput.reduce((sum, bucket) => sum + bucket.resolved, 0);
  const laneName = new Map(lanes.map((lane) => [lane.id, lane.name]));
  const lines = [
    `Period ${insights.from} to ${insights.to}, ${insights.flow.length} ${insights.bucket} buckets; ${resolved} resolutions.`,
    percentileLine("Lead time", insights.leadTime),
    percentileLine("Cycle time", insights.cycleTime),
  ];
  const oldest = insights.aging[0];
  lines.push(
    oldest
      ? `Open: ${insights.aging.length}; oldest #${oldest.ticketId} in ${laneName.get(oldest.laneId) ?? oldest.laneId} for ${duration(oldest.ageSeconds)}.`
      : "Open: none.",
  );
  if (insights.actors.length > 0) {
    const actors = insights.actors.map(
      (actor) => `${actor.actor} ${actor.claimed} claimed/${actor.resolved} resolved`,
    );
    lines.push(`Actors: ${actors.join(", ")}.`);
  }
  return lines;
}

/** One row per bucket: its start, resolutions, then the count of each lane at its end. */
export function insightsRows(
  insights: BoardInsightsT,
  lanes: readonly LaneT[],
): { head: string[]; rows: Array<Array<string | number>> } {
  const laneName = new Map(lanes.map((lane) => [lane.id, lane.name]));
  const laneIds = insights.flow[0]?.lanes.map((lane) => lane.laneId) ?? [];
  const head = ["BUCKET", "RESOLVED", ...laneIds.map((id) => laneName.get(id) ?? String(id))];
  const rows = insights.flow.map((bucket, index) => [
    bucket.at,
    insights.throughput[index]?.resolved ?? 0,
    ...bucket.lanes.map((lane) => lane.count),
  ]);
  return { head, rows };
}
