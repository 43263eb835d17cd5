import type { BoardInsights, Percentiles } from "../../model/insights.js";
import type { Stores } from "../../storage/index.js";
import type { BoardService } from "../boards/boards.js";
import { nowMillis } from "../clock.js";
import type { Read } from "../transaction.js";
import {
  bucketOf,
  bucketStart,
  firstEndAfter,
  type InsightsQuery,
  type InsightsWindow,
  insightsWindow,
} from "./insights-window.js";
import { type CurrentStay, replayTicket, type TicketState } from "./ticket-replay.js";

// `GET /api/boards/{id}/insights` (docs/api.md, "Insights"): flow, throughput, lead and cycle time,
// aging and per-actor figures, all derived from the recorded activity of the tickets that exist
// now. docs/insights.md explains each figure and the choices the contract leaves open.

/** Nearest-rank percentiles of whole seconds (values sorted ascending here). */
export function percentiles(values: number[]): Percentiles {
  const count = values.length;
  if (count === 0) return { count, p50: null, p85: null, p95: null };
  values.sort((a, b) => a - b);
  const rank = (p: number) => values[Math.max(1, Math.ceil((p / 100) * count)) - 1] as number;
  return { count, p50: rank(50), p85: rank(85), p95: rank(95) };
}

const seconds = (millis: number) => Math.floor(millis / 1000);
const iso = (millis: number) => new Date(millis).toISOString();

/**
 * Counts per lane at each bucket's end, kept as differences over bucket indexes: a state that
 * holds from `at` until the next change adds one to every bucket end in between.
 */
class FlowCounter {
  private readonly deltas = new Map<number, Int32Array>();
  private open: { at: number; laneId: number } | null = null;

  constructor(private readonly window: InsightsWindow) {}

  /** The ticket is in `laneId`, counted, from `at` (null: not counted from `at`). */
  set(at: number, laneId: number | null): void {
    this.close(at);
    this.open = laneId === null ? null : { at, laneId };
  }

  /** Ends the current ticket's last state (it holds to the end of time). */
  finish(): void {
    this.close(Number.POSITIVE_INFINITY);
    this.open = null;
  }

  private close(until: number): void {
    if (!this.open) return;
    const first = firstEndAfter(this.window, this.open.at);
    const last =
      until === Number.POSITIVE_INFINITY ? this.window.count : firstEndAfter(this.window, until);
    if (first >= last) return;
    let deltas = this.deltas.get(this.open.laneId);
    if (!deltas) {
      deltas = new Int32Array(this.window.count + 1);
      this.deltas.set(this.open.laneId, deltas);
    }
    deltas[first] = (deltas[first] as number) + 1;
    deltas[last] = (deltas[last] as number) - 1;
  }

  /** Running sums: the count of `laneId` at the end of each bucket. */
  counts(laneId: number): number[] {
    const deltas = this.deltas.get(laneId);
    const out: number[] = new Array(this.window.count).fill(0);
    if (!deltas) return out;
    let running = 0;
    for (let i = 0; i < this.window.count; i++) {
      running += deltas[i] as number;
      out[i] = running;
    }
    return out;
  }
}

export function insightsService(
  stores: Pick<Stores, "flowHistory" | "lanes">,
  boards: Pick<BoardService, "require">,
  read: Read,
) {
  return {
    board(boardId: number, query: InsightsQuery): BoardInsights {
      const now = nowMillis();
      const window = insightsWindow(query, now);
      // One snapshot: the tickets, their histories and the lanes agree with each other.
      const { lanes, tickets } = read(() => {
        boards.require(boardId);
        return {
          lanes: stores.lanes.listByBoard(boardId),
          tickets: stores.flowHistory.tickets(boardId),
        };
      });

      const flow = new FlowCounter(window);
      const throughput: number[] = new Array(window.count).fill(0);
      const claims = new Map<string, number>();
      const resolvedByActor = new Map<string, number>();
      const inWindow = (at: number) => at >= window.from && at < window.to;
      const listener = {
        state(at: number, state: TicketState | null) {
          flow.set(at, state && !state.isArchived ? state.laneId : null);
        },
        resolved(at: number) {
          const bucket = bucketOf(window, at);
          if (bucket >= 0) throughput[bucket] = (throughput[bucket] as number) + 1;
        },
        claimed(at: number, actor: string) {
          if (!inWindow(at)) return;
          claims.set(actor, (claims.get(actor) ?? 0) + 1);
        },
        releasedByResolution(at: number, actor: string) {
          if (inWindow(at)) resolvedByActor.set(actor, (resolvedByActor.get(actor) ?? 0) + 1);
        },
      };

      const leadTimes: number[] = [];
      const cycleTimes: number[] = [];
      const completions: Array<{
        ticketId: number;
        resolvedAt: number;
        leadSeconds: number;
        cycleSeconds: number | null;
      }> = [];
      const aging: Array<{ ticketId: number; laneId: number; since: number }> = [];
      for (const ticket of tickets) {
        const stay = replayTicket(ticket, boardId, listener);
        flow.finish();
        if (stay) measure(ticket, stay);
      }

      function measure(
        ticket: { id: number; laneId: number; isResolved: boolean; isArchived: boolean },
        stay: CurrentStay,
      ) {
        if (ticket.isResolved && stay.resolvedAt !== null && inWindow(stay.resolvedAt)) {
          const lead = seconds(stay.resolvedAt - stay.arrivedAt);
          leadTimes.push(lead);
          let cycle: number | null = null;
          if (stay.startedAt !== null && stay.startedAt <= stay.resolvedAt) {
            cycle = seconds(stay.resolvedAt - stay.startedAt);
            cycleTimes.push(cycle);
          }
          completions.push({
            ticketId: ticket.id,
            resolvedAt: stay.resolvedAt,
            leadSeconds: lead,
            cycleSeconds: cycle,
          });
        }
        if (!ticket.isResolved && !ticket.isArchived) {
          aging.push({ ticketId: ticket.id, laneId: ticket.laneId, since: stay.laneSince });
        }
      }

      aging.sort((a, b) => a.since - b.since || a.ticketId - b.ticketId);
      completions.sort((a, b) => a.resolvedAt - b.resolvedAt || a.ticketId - b.ticketId);
      const laneCounts = lanes.map((lane) => ({ laneId: lane.id, counts: flow.counts(lane.id) }));
      const buckets = Array.from({ length: window.count }, (_, index) => index);
      return {
        from: iso(window.from),
        to: iso(window.to),
        bucket: window.bucket,
        flow: buckets.map((index) => ({
          at: iso(bucketStart(window, index)),
          lanes: laneCounts.map(({ laneId, counts }) => ({
            laneId,
            count: counts[index] as number,
          })),
        })),
        throughput: buckets.map((index) => ({
          at: iso(bucketStart(window, index)),
          resolved: throughput[index] as number,
        })),
        leadTime: percentiles(leadTimes),
        cycleTime: percentiles(cycleTimes),
        completions: completions.map((entry) => ({ ...entry, resolvedAt: iso(entry.resolvedAt) })),
        aging: aging.map((entry) => ({
          ticketId: entry.ticketId,
          laneId: entry.laneId,
          since: iso(entry.since),
          ageSeconds: seconds(now - entry.since),
        })),
        actors: [...claims.entries()]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([actor, claimed]) => ({
            actor,
            claimed,
            resolved: resolvedByActor.get(actor) ?? 0,
          })),
      };
    },
  };
}

export type InsightsService = ReturnType<typeof insightsService>;
