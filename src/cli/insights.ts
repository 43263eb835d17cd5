import type { Command } from "commander";
import { chooseBoard } from "../client/board-choice.js";
import { insightsRows, insightsSummary } from "../client/insights-format.js";
import type { InsightsParams } from "../client/tack-client.js";
import { clientCommand, handler, table } from "./command-kit.js";
import { UsageError } from "./exit-codes.js";

// `tack insights`: a board's flow figures (GET /api/boards/{id}/insights, docs/insights.md).

const BUCKETS = ["hour", "day", "week"] as const;

export function registerInsightsCommand(program: Command): void {
  clientCommand(
    program,
    "insights",
    "Show how work moved on a board: flow per bucket, throughput, lead and cycle time, aging, actors.",
    [
      "tack insights",
      "tack insights --bucket week --from 2026-01-01T00:00:00Z",
      "tack insights --json | jq .cycleTime",
    ],
    { board: true },
  )
    .option("--from <date-time>", "start (RFC 3339 with an offset; default: 30 days before --to)")
    .option("--to <date-time>", "end (RFC 3339 with an offset; default: now)")
    .option("--bucket <size>", "hour, day or week (default day)")
    .action(
      handler(async ({ client, board, flags, output }) => {
        const bucket = flags.bucket === undefined ? undefined : String(flags.bucket);
        if (bucket !== undefined && !(BUCKETS as readonly string[]).includes(bucket)) {
          throw new UsageError(`--bucket must be hour, day or week, not "${bucket}"`);
        }
        const boardId = await chooseBoard(client, board);
        const query: InsightsParams = {
          from: flags.from === undefined ? undefined : String(flags.from),
          to: flags.to === undefined ? undefined : String(flags.to),
          bucket: bucket as InsightsParams["bucket"],
        };
        const [insights, lanes] = await Promise.all([
          client.insights(boardId, query),
          output.json ? Promise.resolve([]) : client.listLanes(boardId),
        ]);
        output.emit(insights, [boardId], () => {
          const { head, rows } = insightsRows(insights, lanes);
          return [...insightsSummary(insights, lanes), "", table(head, rows)].join("\n");
        });
      }),
    );
}
