import uPlot from "uplot";
import {
  agingSeries,
  cycleSeries,
  flowSeries,
  formatBucket,
  formatDuration,
  formatTime,
  type Insights,
  type LaneName,
  unitFor,
} from "../insights-data";
import { axis, type ChartSpec, type Palette, seriesColour } from "./InsightsChart";

// uPlot options and data of the four charts, built from one insights answer.

const laneName = (lanes: readonly LaneName[], id: number) =>
  lanes.find((lane) => lane.id === id)?.name ?? `lane ${id}`;

/** Time axis labels like the tables': the date, with the time when ticks are under a day apart. */
const timeValues = (_: uPlot, splits: number[], __: number, ___: number, increment: number) =>
  splits.map((at) => (increment < 86_400 ? formatTime(at * 1000) : formatBucket(at * 1000, "day")));

/** `rgb(r, g, b)` mixed with `base` (the card's colour): a softer fill for large areas. */
function soften(colour: string, base: string, amount = 0.72): string {
  const parts = (value: string) => (value.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const [top, bottom] = [parts(colour), parts(base)];
  if (top.length < 3 || bottom.length < 3) return colour;
  const mixed = top.map((value, index) =>
    Math.round(value * amount + (bottom[index] as number) * (1 - amount)),
  );
  return `rgb(${mixed.join(", ")})`;
}

/** No line between points: a scatter. */
const noPath = () => null;

/** Whole numbers only on a count axis. */
const countAxisSplits = (_: uPlot, __: number, min: number, max: number) => {
  const step = Math.max(1, Math.ceil((max - min) / 5));
  const splits: number[] = [];
  for (let value = Math.ceil(min); value <= max; value += step) splits.push(value);
  return splits;
};

export function flowSpec(
  insights: Insights,
  lanes: readonly LaneName[],
  palette: Palette,
): { spec: ChartSpec } {
  const { x, stacked } = flowSeries(insights);
  const laneIds = insights.flow[0]?.lanes.map((entry) => entry.laneId) ?? [];
  const series: uPlot.Series[] = [
    {
      label: "Bucket",
      value: (_, at) => (at === null ? "–" : formatBucket(at * 1000, insights.bucket)),
    },
    ...laneIds.map((laneId, index) => ({
      label: laneName(lanes, laneId),
      stroke: seriesColour(palette, index),
      width: 1.5,
      fill: soften(seriesColour(palette, index), palette.surface),
      // The legend shows the lane's own count, not the stacked height.
      value: (_: uPlot, __: number | null, ___: number, row: number | null) =>
        row === null ? "–" : String(insights.flow[row]?.lanes[index]?.count ?? 0),
      points: { show: false },
    })),
  ];
  return {
    spec: {
      options: {
        series,
        scales: { x: { time: true }, y: { range: (_, __, max) => [0, Math.max(1, max)] } },
        axes: [
          axis(palette, { values: timeValues }),
          axis(palette, { splits: countAxisSplits, size: 44 }),
        ],
        cursor: { points: { show: false } },
        legend: { live: true },
      },
      data: [x, ...stacked],
    },
  };
}

export function cycleSpec(
  insights: Insights,
  palette: Palette,
): { spec: ChartSpec; ticketIds: (number | null)[] } {
  const unit = unitFor(insights.cycleTime.p95 ?? 0);
  const { x, y, ticketIds } = cycleSeries(insights, unit);
  const line = (value: number | null) =>
    x.map(() => (value === null ? null : value / unit.seconds));
  const rank = (label: string, value: number | null, stroke: string): uPlot.Series => ({
    label: `${label} ${formatDuration(value)}`,
    stroke,
    width: 1.5,
    dash: [6, 4],
    points: { show: false },
    value: () => "",
  });
  return {
    ticketIds,
    spec: {
      options: {
        series: [
          { label: "Resolved", value: (_, at) => (at === null ? "–" : formatTime(at * 1000)) },
          {
            label: "Cycle time",
            stroke: seriesColour(palette, 0),
            fill: seriesColour(palette, 0),
            paths: noPath,
            points: { show: true, size: 7, width: 1, fill: seriesColour(palette, 0) },
            value: (_, value) => (value === null ? "–" : formatDuration(value * unit.seconds)),
          },
          rank("50 %", insights.cycleTime.p50, palette.p50),
          rank("85 %", insights.cycleTime.p85, palette.p85),
          rank("95 %", insights.cycleTime.p95, palette.p95),
        ],
        scales: { x: { time: true }, y: { range: (_, __, max) => [0, Math.max(1, max * 1.1)] } },
        axes: [
          axis(palette, { values: timeValues }),
          axis(palette, { label: unit.name, size: 50, labelSize: 18 }),
        ],
        legend: { live: true },
      },
      data: [
        x,
        y,
        line(insights.cycleTime.p50),
        line(insights.cycleTime.p85),
        line(insights.cycleTime.p95),
      ],
    },
  };
}

export function throughputSpec(insights: Insights, palette: Palette): { spec: ChartSpec } {
  const x = insights.throughput.map((_, index) => index);
  const labels = insights.throughput.map((bucket) => formatBucket(bucket.at, insights.bucket));
  const bars = uPlot.paths.bars?.({ size: [0.7, 48] });
  return {
    spec: {
      options: {
        series: [
          { label: "Bucket", value: (_, index) => (index === null ? "–" : (labels[index] ?? "")) },
          {
            label: "Resolved",
            stroke: seriesColour(palette, 3),
            fill: seriesColour(palette, 3),
            paths: bars,
            points: { show: false },
            // Empty buckets draw no bar (not a flat line); the legend still says 0.
            value: (_, __, ___, row) =>
              row === null ? "–" : String(insights.throughput[row]?.resolved ?? 0),
          },
        ],
        scales: {
          x: { time: false, range: [-0.5, Math.max(0.5, x.length - 0.5)] },
          y: { range: (_, __, max) => [0, Math.max(1, max)] },
        },
        axes: [
          axis(palette, {
            splits: (plot, __, min, max) =>
              integerSplits(min, max, x.length, Math.max(2, Math.floor(plot.width / 90))),
            values: (_, splits) => splits.map((index) => labels[index] ?? ""),
          }),
          axis(palette, { splits: countAxisSplits, size: 44 }),
        ],
        legend: { live: true },
      },
      data: [x, insights.throughput.map((bucket) => bucket.resolved || null)],
    },
  };
}

export function agingSpec(
  insights: Insights,
  laneIds: readonly number[],
  lanes: readonly LaneName[],
  palette: Palette,
): { spec: ChartSpec; ticketIds: number[] } {
  const oldest = insights.aging[0]?.ageSeconds ?? 0;
  const unit = unitFor(oldest);
  const { x, perLane, ticketIds } = agingSeries(insights, laneIds, unit);
  return {
    ticketIds,
    spec: {
      options: {
        series: [
          {
            label: "Ticket",
            value: (_, __, ___, row) => (row === null ? "–" : `#${ticketIds[row] ?? ""}`),
          },
          ...laneIds.map((laneId, index) => ({
            label: laneName(lanes, laneId),
            stroke: seriesColour(palette, index),
            // No area is drawn (no path); the fill colours the legend's marker.
            fill: seriesColour(palette, index),
            paths: noPath,
            points: {
              show: true,
              size: 8,
              width: 1,
              fill: seriesColour(palette, index),
            },
            value: (_: uPlot, value: number | null) =>
              value === null ? "–" : formatDuration(Math.round(value * unit.seconds)),
          })),
        ],
        scales: {
          x: { time: false, range: [-0.5, Math.max(0.5, laneIds.length - 0.5)] },
          y: { range: (_, __, max) => [0, Math.max(1, max * 1.1)] },
        },
        axes: [
          axis(palette, {
            splits: () => laneIds.map((_, index) => index),
            values: (_, splits) => splits.map((index) => laneName(lanes, laneIds[index] ?? 0)),
            grid: { show: false },
          }),
          axis(palette, { label: `${unit.name} in lane`, size: 50, labelSize: 18 }),
        ],
        legend: { live: true },
      },
      data: [x, ...perLane],
    },
  };
}

/** At most `fit` evenly spaced whole indexes in [min, max] (labels that do not overlap). */
function integerSplits(min: number, max: number, count: number, fit: number): number[] {
  const first = Math.max(0, Math.ceil(min));
  const last = Math.min(count - 1, Math.floor(max));
  const step = Math.max(1, Math.ceil((last - first + 1) / fit));
  const splits: number[] = [];
  for (let index = first; index <= last; index += step) splits.push(index);
  return splits;
}
