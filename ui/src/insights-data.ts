import type { Static } from "@sinclair/typebox";
// Type-only: the answer's shape comes from the schema the server validates it with; nothing of
// the server is bundled.
import type { BoardInsights } from "../../src/http/schemas/insights";

// The Insights view's data: the period and bucket picked (kept in the URL), the request, and
// the rows each chart, table and CSV file shows. No DOM here.

export type Insights = Static<typeof BoardInsights>;
export type Bucket = "hour" | "day" | "week";

export const PERIODS = [
  { id: "1d", label: "Last 24 hours", hours: 24 },
  { id: "7d", label: "Last 7 days", hours: 7 * 24 },
  { id: "30d", label: "Last 30 days", hours: 30 * 24 },
  { id: "90d", label: "Last 90 days", hours: 90 * 24 },
  { id: "365d", label: "Last 365 days", hours: 365 * 24 },
] as const;
export type PeriodId = (typeof PERIODS)[number]["id"];

export const BUCKETS: readonly Bucket[] = ["hour", "day", "week"];
const BUCKET_HOURS: Record<Bucket, number> = { hour: 1, day: 24, week: 7 * 24 };
/** The API refuses more than 1,000 buckets. */
const MAX_BUCKETS = 1000;

export function periodHours(period: PeriodId): number {
  return PERIODS.find((entry) => entry.id === period)?.hours ?? 30 * 24;
}

/** A bucket fits a period when it makes at most 1,000 buckets and is not longer than it. */
export function bucketFits(period: PeriodId, bucket: Bucket): boolean {
  const hours = periodHours(period);
  return hours / BUCKET_HOURS[bucket] <= MAX_BUCKETS && BUCKET_HOURS[bucket] <= hours;
}

export interface Selection {
  period: PeriodId;
  bucket: Bucket;
}

/** `?period=&bucket=` of the view's URL; anything unknown or not fitting falls back. */
export function readSelection(query: URLSearchParams): Selection {
  const asked = query.get("period");
  const period = PERIODS.find((entry) => entry.id === asked)?.id ?? "30d";
  const bucket = BUCKETS.find((entry) => entry === query.get("bucket"));
  if (bucket && bucketFits(period, bucket)) return { period, bucket };
  return { period, bucket: bucketFits(period, "day") ? "day" : "hour" };
}

export function selectionSearch(selection: Selection): string {
  const params = new URLSearchParams();
  if (selection.period !== "30d") params.set("period", selection.period);
  if (selection.bucket !== "day") params.set("bucket", selection.bucket);
  return params.toString();
}

export function insightsPath(boardId: number, selection: Selection, now = Date.now()): string {
  const to = new Date(now).toISOString();
  const from = new Date(now - periodHours(selection.period) * 3_600_000).toISOString();
  const params = new URLSearchParams({ from, to, bucket: selection.bucket });
  return `/api/boards/${boardId}/insights?${params.toString()}`;
}

// ---- durations ---------------------------------------------------------------------------------

export interface DurationUnit {
  name: "minutes" | "hours" | "days";
  seconds: number;
}

/** The unit that keeps the largest of these durations readable (minutes, hours or days). */
export function unitFor(maxSeconds: number): DurationUnit {
  if (maxSeconds < 2 * 3600) return { name: "minutes", seconds: 60 };
  if (maxSeconds < 72 * 3600) return { name: "hours", seconds: 3600 };
  return { name: "days", seconds: 86_400 };
}

/** `3 h 20 min`, `2 d 4 h`, `45 s`: a duration as a person reads it. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return "–";
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

// Intl formatters are costly to build: one each, reused for every label.
const dayFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });
const hourFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const timeFormat = new Intl.DateTimeFormat(undefined, {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** A bucket's start as its label: the date, with the time for hourly buckets (local time). */
export function formatBucket(at: string | number, bucket: string): string {
  const date = new Date(at);
  const day = dayFormat.format(date);
  return bucket === "hour" ? `${day} ${hourFormat.format(date)}` : day;
}

/** A moment (ISO string or epoch milliseconds) as month, day and time (local time). */
export function formatTime(at: string | number): string {
  return timeFormat.format(new Date(at));
}

// ---- CSV ---------------------------------------------------------------------------------------

export type Cell = string | number | null;

/** RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled; CRLF lines. */
export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const field = (value: Cell) => {
    const text = value === null ? "" : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return `${[header, ...rows].map((row) => row.map(field).join(",")).join("\r\n")}\r\n`;
}

// ---- the tables (each chart's data as rows; the CSV files carry the same rows) ---------------

/** How a column reads on screen (the CSV keeps the raw values: ISO times, whole seconds). */
export type CellKind = "time" | "bucket" | "duration" | "number" | "text" | "ticket";

export interface Table {
  /** File name stem of its CSV download. */
  name: string;
  header: string[];
  kinds: CellKind[];
  rows: Cell[][];
  /** Per row, the ticket it is about (its "ticket" cell opens it). */
  ticketIds?: number[];
}

export interface LaneName {
  id: number;
  name: string;
}

export function flowTable(insights: Insights, lanes: readonly LaneName[]): Table {
  const laneIds = insights.flow[0]?.lanes.map((entry) => entry.laneId) ?? [];
  const name = (id: number) => lanes.find((lane) => lane.id === id)?.name ?? `lane ${id}`;
  return {
    name: "cumulative-flow",
    header: ["bucket start", ...laneIds.map(name)],
    kinds: ["bucket", ...laneIds.map(() => "number" as const)],
    rows: insights.flow.map((bucket) => [bucket.at, ...bucket.lanes.map((entry) => entry.count)]),
  };
}

export function throughputTable(insights: Insights): Table {
  return {
    name: "throughput",
    header: ["bucket start", "resolved"],
    kinds: ["bucket", "number"],
    rows: insights.throughput.map((bucket) => [bucket.at, bucket.resolved]),
  };
}

export function completionsTable(insights: Insights, refOf: (id: number) => string): Table {
  return {
    name: "cycle-time",
    header: ["ticket", "resolved at", "cycle time (s)", "lead time (s)"],
    kinds: ["ticket", "time", "duration", "duration"],
    ticketIds: insights.completions.map((entry) => entry.ticketId),
    rows: insights.completions.map((entry) => [
      refOf(entry.ticketId),
      entry.resolvedAt,
      entry.cycleSeconds,
      entry.leadSeconds,
    ]),
  };
}

export function agingTable(
  insights: Insights,
  lanes: readonly LaneName[],
  refOf: (id: number) => string,
): Table {
  const name = (id: number) => lanes.find((lane) => lane.id === id)?.name ?? `lane ${id}`;
  return {
    name: "aging",
    header: ["ticket", "lane", "in lane since", "age (s)"],
    kinds: ["ticket", "text", "time", "duration"],
    ticketIds: insights.aging.map((entry) => entry.ticketId),
    rows: insights.aging.map((entry) => [
      refOf(entry.ticketId),
      name(entry.laneId),
      entry.since,
      entry.ageSeconds,
    ]),
  };
}

export function actorsTable(insights: Insights): Table {
  return {
    name: "actors",
    header: ["actor", "claimed", "resolved"],
    kinds: ["text", "number", "number"],
    rows: insights.actors.map((entry) => [entry.actor, entry.claimed, entry.resolved]),
  };
}

// ---- chart series ------------------------------------------------------------------------------

const secondsOf = (at: string) => Date.parse(at) / 1000;

/**
 * Cumulative flow as stacked bands: the first lane on top. Series i is the sum of lanes i..n-1,
 * so drawing them in lane order, each filled down to zero, leaves each lane its own band.
 */
export function flowSeries(insights: Insights): { x: number[]; stacked: number[][] } {
  const x = insights.flow.map((bucket) => secondsOf(bucket.at));
  const laneCount = insights.flow[0]?.lanes.length ?? 0;
  const stacked = Array.from({ length: laneCount }, () => new Array<number>(x.length).fill(0));
  insights.flow.forEach((bucket, index) => {
    let running = 0;
    for (let lane = laneCount - 1; lane >= 0; lane--) {
      running += bucket.lanes[lane]?.count ?? 0;
      (stacked[lane] as number[])[index] = running;
    }
  });
  return { x, stacked };
}

/** The scatter's points (resolution time, cycle time) framed by the period's ends. */
export function cycleSeries(
  insights: Insights,
  unit: DurationUnit,
): { x: number[]; y: (number | null)[]; ticketIds: (number | null)[] } {
  const points = insights.completions.filter((entry) => entry.cycleSeconds !== null);
  const x = [secondsOf(insights.from)];
  const y: (number | null)[] = [null];
  const ticketIds: (number | null)[] = [null];
  for (const point of points) {
    x.push(secondsOf(point.resolvedAt));
    y.push((point.cycleSeconds as number) / unit.seconds);
    ticketIds.push(point.ticketId);
  }
  x.push(secondsOf(insights.to));
  y.push(null);
  ticketIds.push(null);
  return { x, y, ticketIds };
}

/**
 * Aging work in progress: lanes side by side (x = lane index), each lane's tickets spread across
 * its slot oldest first (left), one series per lane so each has its colour.
 */
export function agingSeries(
  insights: Insights,
  laneIds: readonly number[],
  unit: DurationUnit,
): { x: number[]; perLane: (number | null)[][]; ticketIds: number[] } {
  const byLane = new Map<number, Insights["aging"]>(laneIds.map((id) => [id, []]));
  for (const entry of insights.aging) byLane.get(entry.laneId)?.push(entry);
  const x: number[] = [];
  const ticketIds: number[] = [];
  const perLane = laneIds.map(() => [] as (number | null)[]);
  laneIds.forEach((laneId, laneIndex) => {
    const entries = byLane.get(laneId) ?? [];
    entries.forEach((entry, index) => {
      // Within [-0.35, 0.35] of the lane's index, oldest (first in the answer) leftmost.
      const offset = entries.length === 1 ? 0 : -0.35 + (0.7 * index) / (entries.length - 1);
      x.push(laneIndex + offset);
      ticketIds.push(entry.ticketId);
      perLane.forEach((series, seriesIndex) => {
        series.push(seriesIndex === laneIndex ? entry.ageSeconds / unit.seconds : null);
      });
    });
  });
  return { x, perLane, ticketIds };
}
