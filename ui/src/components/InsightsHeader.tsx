import { board } from "../board-data";
import { filters, filtersToSearch, rememberedView } from "../filters";
import {
  BUCKETS,
  type Bucket,
  bucketFits,
  formatDuration,
  type Insights,
  PERIODS,
  type PeriodId,
  type Selection,
} from "../insights-data";
import { route } from "../router";
import { BoardHeading } from "./BoardHeading";

// The Insights view's header (board name, live dot, Kanban / List / Insights, period and bucket)
// and its row of headline figures.

export function InsightsHeader(props: {
  selection: Selection;
  onChoose: (next: Partial<Selection>) => void;
}) {
  const current = route.value;
  if (current.name !== "insights" && current.name !== "ticket") return null;
  const id = board.value?.id;
  if (id === undefined) return null;
  const remembered = rememberedView(id);
  const search = remembered.search || filtersToSearch(filters.value);
  return (
    <div class="toolbar insights-toolbar">
      <div class="toolbar-row">
        <BoardHeading
          boardId={id}
          name={board.value?.name}
          view="insights"
          search={search}
          liveTitle="Live: figures follow changes"
        />
      </div>
      <div class="toolbar-row insights-pickers">
        <label>
          <span>Period</span>
          <select
            value={props.selection.period}
            onChange={(event) =>
              props.onChoose({ period: (event.target as HTMLSelectElement).value as PeriodId })
            }
          >
            {PERIODS.map((period) => (
              <option key={period.id} value={period.id}>
                {period.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Per</span>
          <select
            value={props.selection.bucket}
            onChange={(event) =>
              props.onChoose({ bucket: (event.target as HTMLSelectElement).value as Bucket })
            }
          >
            {BUCKETS.map((bucket) => (
              <option
                key={bucket}
                value={bucket}
                disabled={!bucketFits(props.selection.period, bucket)}
              >
                {bucket}
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}

/** Headline figures: resolutions, work in progress, lead and cycle time percentiles. */
export function InsightsSummary(props: { insights: Insights }) {
  const { insights } = props;
  const resolved = insights.throughput.reduce((sum, bucket) => sum + bucket.resolved, 0);
  const times = (["leadTime", "cycleTime"] as const).map((key) => {
    const figure = insights[key];
    const name = key === "leadTime" ? "lead" : "cycle";
    return {
      key: name,
      value: formatDuration(figure.p50),
      detail: [`85 %: ${formatDuration(figure.p85)}`, `95 %: ${formatDuration(figure.p95)}`],
      label: `${name} time, median of ${figure.count}`,
    };
  });
  const figures = [
    { key: "resolved", value: String(resolved), detail: [], label: "resolutions in the period" },
    { key: "wip", value: String(insights.aging.length), detail: [], label: "open tickets now" },
    ...times,
  ];
  return (
    <dl class="insights-summary">
      {figures.map((figure) => (
        <div key={figure.key} class="insights-figure" data-figure={figure.key}>
          <dt>{figure.label}</dt>
          <dd>
            <span class="insights-figure-value">{figure.value}</span>
            {figure.detail.length > 0 && (
              <span class="insights-figure-detail">
                {figure.detail.map((part) => (
                  <span key={part}>{part}</span>
                ))}
              </span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
