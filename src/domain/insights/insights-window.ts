import { InvalidInput } from "../errors.js";

// The period and buckets of an insights request (docs/api.md, "Insights"): `to` defaults to now,
// `from` to 30 × 24 hours before `to`; buckets start at `from`, are consecutive, and the last one
// ends at `to` (and may be shorter).

export type BucketSize = "hour" | "day" | "week";

const HOUR = 3_600_000;
export const BUCKET_MILLIS: Record<BucketSize, number> = {
  hour: HOUR,
  day: 24 * HOUR,
  week: 7 * 24 * HOUR,
};
export const DEFAULT_PERIOD_MILLIS = 30 * 24 * HOUR;
export const MAX_BUCKETS = 1_000;

export interface InsightsQuery {
  from?: string | undefined;
  to?: string | undefined;
  bucket?: BucketSize | undefined;
}

export interface InsightsWindow {
  from: number;
  to: number;
  bucket: BucketSize;
  bucketMillis: number;
  /** How many buckets; the last ends at `to`. */
  count: number;
}

/** RFC 3339 date-time with an offset (`Z` or ±hh:mm); the calendar values are checked below. */
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since the epoch of an RFC 3339 date-time, or InvalidInput naming the field. */
export function parseDateTime(text: string, field: string): number {
  const match = RFC3339.exec(text);
  const fail = () =>
    new InvalidInput(
      `${field} must be an RFC 3339 date-time with an offset (like 2026-01-31T09:00:00Z), not "${text}"`,
    );
  if (!match) throw fail();
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[];
  const days = new Date(Date.UTC(year as number, month as number, 0)).getUTCDate();
  const offsetHours = match[10] === undefined ? 0 : Number(match[10]);
  const offsetMinutes = match[11] === undefined ? 0 : Number(match[11]);
  if (
    (month as number) < 1 ||
    (month as number) > 12 ||
    (day as number) < 1 ||
    (day as number) > days ||
    (hour as number) > 23 ||
    (minute as number) > 59 ||
    (second as number) > 59 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  ) {
    throw fail();
  }
  const millis = Date.parse(text.toUpperCase());
  if (Number.isNaN(millis)) throw fail();
  return millis;
}

export function insightsWindow(query: InsightsQuery, now: number): InsightsWindow {
  const to = query.to === undefined ? now : parseDateTime(query.to, "to");
  const from =
    query.from === undefined ? to - DEFAULT_PERIOD_MILLIS : parseDateTime(query.from, "from");
  if (from >= to) throw new InvalidInput("from must be before to");
  const bucket = query.bucket ?? "day";
  const bucketMillis = BUCKET_MILLIS[bucket];
  const count = Math.ceil((to - from) / bucketMillis);
  if (count > MAX_BUCKETS) {
    throw new InvalidInput(
      `from..to spans ${count} ${bucket} buckets; at most ${MAX_BUCKETS} are allowed (use a larger bucket or a shorter period)`,
    );
  }
  return { from, to, bucket, bucketMillis, count };
}

/** The start of bucket `index`. */
export const bucketStart = (window: InsightsWindow, index: number): number =>
  window.from + index * window.bucketMillis;

/** The end of bucket `index` (the last one ends at `to`). */
export const bucketEnd = (window: InsightsWindow, index: number): number =>
  Math.min(window.from + (index + 1) * window.bucketMillis, window.to);

/** The bucket a time in [from, to) falls in, or -1 outside. */
export function bucketOf(window: InsightsWindow, at: number): number {
  if (at < window.from || at >= window.to) return -1;
  return Math.floor((at - window.from) / window.bucketMillis);
}

/** The first bucket whose end is after `at` (count when none): state set at `at` shows there. */
export function firstEndAfter(window: InsightsWindow, at: number): number {
  if (at < window.from) return 0;
  const index = Math.floor((at - window.from) / window.bucketMillis);
  // Bucket `index` ends at from + (index + 1) × size > at, unless it is cut short by `to`.
  return index >= window.count || bucketEnd(window, index) <= at ? window.count : index;
}
