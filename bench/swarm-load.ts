/**
 * One swarm run against a running tack: K agents loop ready → claim-next → comment → ticket
 * event → resolve (every fifth loop: release), each also following the board stream, while two
 * UI-like clients follow the stream and refetch what tack's web UI refetches (ui/src/board-sync.ts:
 * messages coalesced for 60 ms, one refetch at a time; the board shell, then each named ticket,
 * 50 at a time, nothing more when messages named no ticket (`[]`), or the whole list with
 * archived tickets when a message did not say (no `ticketIds`) or named more than 50 tickets and
 * either more than a twelfth of the board, where the list weighs less than the tickets' answers,
 * or more than 100, where it costs the server less). The UI also skips the tickets it took off
 * the board itself (its own deletes and moves away); these clients write nothing, so that rule
 * never applies here.
 */
import { performance } from "node:perf_hooks";
import { Client, cpuMs, type HttpResult } from "./lib.js";
import { percentile } from "./load-loop.js";
import { auditClaims } from "./swarm-claims.js";
import { StreamDelays } from "./swarm-delays.js";
import { type BoardStream, openBoardStream } from "./swarm-http.js";
import { type SoloCost, soloCosts } from "./swarm-solo.js";

const UI_CLIENTS = 2;
const UI_COALESCE_MS = 60;
const UI_TICKETS_PER_PAGE = 50;
const UI_TICKET_ANSWER_IN_SUMMARIES = 12;
const LEASE_SECONDS = 3600;
const RELEASE_EVERY = 5;
/** After the agents stop, how long the streams may take to announce their last writes. */
const DRAIN_MS = 3000;
/** The order of the printed rows: an agent loop's, then the UI clients'. */
const OPERATION_ORDER = [
  "ready",
  "claim-next",
  "comment",
  "ticket event",
  "resolve",
  "release",
  "ui: board shell",
  "ui: ticket",
  "ui: full list",
];

export interface SwarmOptions {
  agents: number;
  durationMs: number;
  /** Unmeasured time first: a server's first seconds on a code path are dearer (JIT). */
  warmupMs: number;
  /** Each agent follows the board stream too (default true), as the agents do. */
  agentStreams?: boolean;
  /** Per operation, how long it then runs alone to measure its CPU (default 1 s; 0: not). */
  soloMs?: number;
}

export interface ServerHandle {
  pid: number;
  memory(): { rssMiB: number; peakRssMiB: number } | null;
}

export interface OperationRow {
  name: string;
  /** Answers in the measured window. */
  requests: number;
  /** Requests and errors over the whole run, warm-up and the finishing loops included. */
  wholeRun: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
  firstError?: string;
}

export interface SwarmResult {
  agents: number;
  durationMs: number;
  operations: OperationRow[];
  requests: number;
  /** Server CPU (all threads) over the measured window, per request and per agent loop. */
  cpuMsPerRequest: number | null;
  cpuMsPerLoop: number | null;
  loops: number;
  /** Loops finished over the whole run. */
  loopsWholeRun: number;
  loopsPerSecond: number;
  /** claim-next answers of 204 (nothing ready). */
  emptyClaims: number;
  claims: number;
  /**
   * Tickets handed to a second live claim: seen by the agents (a claim answered while another
   * holder had not yet sent its resolve or release), or in the ticket's activity.
   */
  doubleClaims: string[];
  /** Tickets whose activity was audited for overlapping claims. */
  auditedTickets: number;
  /** Server CPU per request of each operation run alone after the swarm (swarm-solo.ts). */
  alone: SoloCost[];
  streamDelayMs: ReturnType<StreamDelays["summary"]>;
  uiRefetches: { named: number; full: number };
  streamMessages: { ui: number; agents: number };
  rssMiB: number | null;
  peakRssMiB: number | null;
}

interface Holding {
  actor: string;
  claimAnsweredAt: number;
  /** When the resolve or release went out (Infinity while held). */
  endSentAt: number;
}

class Operations {
  private readonly latencies = new Map<string, number[]>();
  /** Over the whole run, warm-up and the finishing loops included. */
  private readonly totals = new Map<string, number>();
  private readonly errors = new Map<string, { count: number; first?: string }>();
  /** The measured window: answers that arrived in it count. */
  measureFrom = Number.POSITIVE_INFINITY;
  measureUntil = Number.POSITIVE_INFINITY;

  inWindow(at: number): boolean {
    return at >= this.measureFrom && at <= this.measureUntil;
  }

  record(name: string, exchange: HttpResult, ok: boolean): void {
    this.totals.set(name, (this.totals.get(name) ?? 0) + 1);
    if (this.inWindow(exchange.lastByteAt)) {
      const list = this.latencies.get(name) ?? [];
      list.push(exchange.lastByteAt - exchange.sentAt);
      this.latencies.set(name, list);
    }
    if (!ok) {
      const entry = this.errors.get(name) ?? { count: 0 };
      entry.count++;
      entry.first ??= `${exchange.status} ${JSON.stringify(exchange.body)?.slice(0, 200)}`;
      this.errors.set(name, entry);
    }
  }

  rows(durationMs: number): OperationRow[] {
    const rank = (name: string) => OPERATION_ORDER.indexOf(name) >>> 0;
    const names = [...this.totals.keys()].sort((a, b) => rank(a) - rank(b));
    return names.map((name) => {
      const list = this.latencies.get(name) ?? [];
      const sorted = [...list].sort((a, b) => a - b);
      const error = this.errors.get(name);
      return {
        name,
        requests: list.length,
        wholeRun: this.totals.get(name) ?? 0,
        errors: error?.count ?? 0,
        perSecond: (list.length / durationMs) * 1000,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        ...(error?.first === undefined ? {} : { firstError: error.first }),
      };
    });
  }
}

/** A client that refetches like tack's web UI on each stream message. */
class UiClient {
  private pending: { all: boolean; ids: Set<number> } | null = null;
  private running: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  named = 0;
  full = 0;
  /** Tickets on the board when it was opened (the UI weighs a refetch against its list). */
  private boardSize = 0;

  constructor(
    private readonly client: Client,
    private readonly boardId: number,
    private readonly operations: Operations,
  ) {}

  /** What the UI loads when it opens the board. */
  async open(): Promise<void> {
    await this.client.call("GET", `/api/boards/${this.boardId}`);
    const list = await this.client.call("GET", `/api/boards/${this.boardId}/tickets?archived=all`);
    this.boardSize = list.body.tickets.length;
  }

  onMessage(ticketIds: number[] | null): void {
    if (this.stopped) return;
    this.pending ??= { all: false, ids: new Set() };
    if (ticketIds === null) this.pending.all = true;
    else for (const id of ticketIds) this.pending.ids.add(id);
    // As the web UI: a window from the first message (ui/src/board-sync.ts `schedule`).
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, UI_COALESCE_MS);
  }

  private flush(): void {
    if (this.running || !this.pending || this.stopped) return;
    const work = this.pending;
    this.pending = null;
    this.running = this.refresh(work.all ? null : [...work.ids]).finally(() => {
      this.running = null;
      if (this.pending) this.flush();
    });
  }

  private async refresh(ticketIds: number[] | null): Promise<void> {
    const shell = await this.client.call("GET", `/api/boards/${this.boardId}`, undefined, false);
    this.operations.record("ui: board shell", shell, shell.status === 200);
    if (ticketIds && ticketIds.length === 0) {
      // No ticket changed (a lane or tag did): the shell is all the UI fetches.
    } else if (ticketIds && !this.wholeListIsCheaper(ticketIds.length)) {
      this.named++;
      for (let start = 0; start < ticketIds.length; start += UI_TICKETS_PER_PAGE) {
        await Promise.all(
          ticketIds.slice(start, start + UI_TICKETS_PER_PAGE).map(async (id) => {
            const answer = await this.client.call("GET", `/api/tickets/${id}`, undefined, false);
            this.operations.record("ui: ticket", answer, answer.status === 200);
          }),
        );
      }
    } else {
      this.full++;
      const path = `/api/boards/${this.boardId}/tickets?archived=all`;
      const list = await this.client.call("GET", path, undefined, false);
      this.operations.record("ui: full list", list, list.status === 200);
    }
  }

  private wholeListIsCheaper(named: number): boolean {
    if (named <= UI_TICKETS_PER_PAGE) return false;
    return (
      named * UI_TICKET_ANSWER_IN_SUMMARIES > this.boardSize || named > 2 * UI_TICKETS_PER_PAGE
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

/** Runs the swarm on board `boardId` of the tack at `baseUrl` (whose process is `server`). */
export async function runSwarm(
  baseUrl: string,
  server: ServerHandle,
  boardId: number,
  options: SwarmOptions,
): Promise<SwarmResult> {
  const client = new Client(baseUrl, 128);
  const operations = new Operations();
  const delays = new StreamDelays(UI_CLIENTS);
  const streams: BoardStream[] = [];
  const uis: UiClient[] = [];
  try {
    for (let i = 0; i < UI_CLIENTS; i++) {
      const ui = new UiClient(client, boardId, operations);
      uis.push(ui);
      streams.push(
        await openBoardStream(baseUrl, boardId, (message) => {
          delays.received(i, message.ticketIds, message.arrivedAt);
          ui.onMessage(message.ticketIds);
        }),
      );
      await ui.open();
    }
    const agentStreams: BoardStream[] = [];
    if (options.agentStreams ?? true) {
      for (let i = 0; i < options.agents; i++) {
        agentStreams.push(await openBoardStream(baseUrl, boardId, () => {}));
      }
    }

    const holdings = new Map<number, Holding[]>();
    const doubleClaims: string[] = [];
    let loops = 0;
    let loopsWholeRun = 0;
    let emptyClaims = 0;
    let claims = 0;
    const started = performance.now();
    operations.measureFrom = started + options.warmupMs;
    const deadline = operations.measureFrom + options.durationMs;
    let cpuBefore: number | null = null;
    let cpuAfter: number | null = null;
    const startMeasuring = setTimeout(() => {
      cpuBefore = cpuMs(server.pid);
      operations.measureFrom = performance.now();
      delays.reset();
    }, options.warmupMs);
    // The window closes on time; the agents then finish the loop they are in (so every claim
    // ends), unmeasured.
    const stopMeasuring = setTimeout(() => {
      cpuAfter = cpuMs(server.pid);
      operations.measureUntil = performance.now();
      delays.stopRecording();
    }, options.warmupMs + options.durationMs);
    let peakRss = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, server.memory()?.rssMiB ?? 0);
    }, 200);

    const call = async (name: string, method: string, path: string, body?: unknown) => {
      const exchange = await client.call(method, path, body, name !== "ready");
      const ok = exchange.status >= 200 && exchange.status < 300;
      operations.record(name, exchange, ok);
      return { exchange, ok };
    };

    const agent = async (index: number) => {
      const actor = `agent-${index + 1}`;
      for (let loop = 0; performance.now() < deadline; loop++) {
        await call("ready", "GET", `/api/boards/${boardId}/tickets?ready=true`);
        const claim = await call("claim-next", "POST", `/api/boards/${boardId}/claim-next`, {
          actor,
          leaseSeconds: LEASE_SECONDS,
        });
        if (!claim.ok) continue;
        if (claim.exchange.status === 204) {
          if (operations.inWindow(performance.now())) emptyClaims++;
          await new Promise((resolve) => setTimeout(resolve, 20));
          continue;
        }
        const ticketId = claim.exchange.body.id as number;
        claims++;
        const holding: Holding = {
          actor,
          claimAnsweredAt: claim.exchange.lastByteAt,
          endSentAt: Number.POSITIVE_INFINITY,
        };
        for (const other of holdings.get(ticketId) ?? []) {
          // Both claims were committed by the later answer and neither had ended: one ticket,
          // two live claims.
          const both = Math.max(other.claimAnsweredAt, holding.claimAnsweredAt);
          if (both < other.endSentAt) {
            doubleClaims.push(`ticket ${ticketId}: ${other.actor} and ${actor}`);
          }
        }
        holdings.set(ticketId, [...(holdings.get(ticketId) ?? []), holding]);
        delays.written(ticketId, claim.exchange.sentAt, claim.exchange.lastByteAt);

        const comment = await call("comment", "POST", `/api/tickets/${ticketId}/comments`, {
          bodyMarkdown: `Working on it (${actor}, loop ${loop}): reproduced, **fix** under way.`,
        });
        delays.written(ticketId, comment.exchange.sentAt, comment.exchange.lastByteAt);
        await call("ticket event", "POST", `/api/tickets/${ticketId}/events`, {
          source: "ci",
          kind: "check",
          title: `build ${loop} passed`,
          severity: "info",
          data: { agent: actor, loop },
        });
        // Not matched with its stream message: older builds announced
        // a ticket event with `ticketIds: []`, which names no ticket (they now name it).
        holding.endSentAt = performance.now();
        const end =
          loop % RELEASE_EVERY === RELEASE_EVERY - 1
            ? await call("release", "POST", `/api/tickets/${ticketId}/release`, { actor })
            : await call("resolve", "PATCH", `/api/tickets/${ticketId}`, { isResolved: true });
        delays.written(ticketId, end.exchange.sentAt, end.exchange.lastByteAt);
        if (operations.inWindow(performance.now())) loops++;
        loopsWholeRun++;
      }
    };
    await Promise.all(Array.from({ length: options.agents }, (_, i) => agent(i)));
    clearTimeout(startMeasuring);
    clearTimeout(stopMeasuring);
    if (operations.measureUntil === Number.POSITIVE_INFINITY) {
      cpuAfter = cpuMs(server.pid);
      operations.measureUntil = performance.now();
    }
    clearInterval(sampler);
    delays.stopRecording();
    // The last writes' messages are still on their way: give them a moment before counting.
    const drainUntil = performance.now() + DRAIN_MS;
    while (delays.summary().unannounced > 0 && performance.now() < drainUntil) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await Promise.all(uis.map((ui) => ui.stop()));
    const solo =
      (options.soloMs ?? 1000) > 0
        ? await soloCosts(client, server.pid, boardId, options.soloMs ?? 1000)
        : { costs: [], claimed: [] };
    // The server's own record of every ticket claimed in the run, read after the window.
    const claimedTickets = [...new Set([...holdings.keys(), ...solo.claimed])];
    doubleClaims.push(...(await auditClaims(client, claimedTickets)));

    const durationMs = operations.measureUntil - operations.measureFrom;
    const rows = operations.rows(durationMs);
    const requests = rows.reduce((sum, row) => sum + row.requests, 0);
    const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
    const memory = server.memory();
    const result: SwarmResult = {
      agents: options.agents,
      durationMs,
      operations: rows,
      requests,
      cpuMsPerRequest: cpu === null || requests === 0 ? null : cpu / requests,
      cpuMsPerLoop: cpu === null || loops === 0 ? null : cpu / loops,
      loops,
      loopsWholeRun,
      loopsPerSecond: (loops / durationMs) * 1000,
      emptyClaims,
      claims,
      doubleClaims,
      auditedTickets: claimedTickets.length,
      alone: solo.costs,
      streamDelayMs: delays.summary(),
      uiRefetches: {
        named: uis.reduce((sum, ui) => sum + ui.named, 0),
        full: uis.reduce((sum, ui) => sum + ui.full, 0),
      },
      streamMessages: {
        ui: streams.reduce((sum, stream) => sum + stream.messages, 0),
        agents: agentStreams.reduce((sum, stream) => sum + stream.messages, 0),
      },
      rssMiB: memory?.rssMiB ?? null,
      peakRssMiB: Math.max(peakRss, memory?.rssMiB ?? 0) || null,
    };
    for (const stream of agentStreams) stream.close();
    return result;
  } finally {
    for (const stream of streams) stream.close();
    client.close();
  }
}
