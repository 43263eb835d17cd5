/**
 * The load loop of the request benchmarks: one scenario's requests kept `concurrency` in flight
 * over the bench's keep-alive client, after a warm-up, with latency percentiles and the server's
 * CPU per request read from /proc around the measured part.
 */
import { performance } from "node:perf_hooks";
import { type Client, cpuMs, type RequestSpec, type TackProcess } from "./lib.js";

export interface LoadOptions {
  /** Requests in flight at once. */
  concurrency: number;
  /** Stop after this long... */
  durationMs: number;
  /** ...or after this many requests, whichever comes first. */
  maxRequests?: number;
  /** Unmeasured requests first, so JIT and caches settle... */
  warmupRequests?: number;
  /**
   * ...and for at least this long (default 0). A server's first seconds on a code path are
   * dearer: V8 compiles it on its helper threads and runs it slower until then (a create cost
   * ~1.1 ms of CPU in its first 4 s of load and ~0.6 ms from its ninth second; see
   * docs/performance.md, "How to measure").
   */
  warmupMs?: number;
}

export interface LoadResult {
  name: string;
  concurrency: number;
  requests: number;
  errors: number;
  durationMs: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /**
   * CPU time (user + system, all threads) the server spent per measured request: steadier than
   * latency on a machine shared with other work. Null where /proc is unavailable.
   */
  serverCpuMsPerRequest: number | null;
  /** Server RSS at the end of the scenario, and the highest RSS seen while it ran. */
  rssMiB: number | null;
  maxRssMiB: number | null;
  firstError?: string;
}

export interface Scenario {
  name: string;
  /** Builds request number `i`; called once per request. */
  request: (i: number) => RequestSpec;
}

/** Drives one scenario against a running tack and measures it. */
export async function runLoad(
  client: Client,
  server: Pick<TackProcess, "memory" | "pid">,
  scenario: Scenario,
  options: LoadOptions,
): Promise<LoadResult> {
  const warmup = options.warmupRequests ?? Math.min(200, options.concurrency * 10);
  const warmUntil = performance.now() + (options.warmupMs ?? 0);
  let warmed = 0;
  const warmer = async () => {
    while (warmed < warmup || performance.now() < warmUntil) {
      await client.send(scenario.request(1_000_000_000 + warmed++));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, warmer));

  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let issued = 0;
  let maxRss = server.memory()?.rssMiB ?? null;
  const sampler = setInterval(() => {
    const rss = server.memory()?.rssMiB;
    if (rss !== undefined && (maxRss === null || rss > maxRss)) maxRss = rss;
  }, 50);

  const cpuBefore = cpuMs(server.pid);
  const started = performance.now();
  const deadline = started + options.durationMs;
  const limit = options.maxRequests ?? Number.POSITIVE_INFINITY;
  const worker = async () => {
    while (issued < limit && performance.now() < deadline) {
      const spec = scenario.request(issued++);
      const sent = performance.now();
      try {
        const result = await client.send(spec);
        const ok = spec.expect
          ? spec.expect.includes(result.status)
          : result.status >= 200 && result.status < 300;
        if (!ok) {
          errors++;
          firstError ??= `${result.status} ${JSON.stringify(result.body).slice(0, 200)}`;
        }
      } catch (error) {
        errors++;
        firstError ??= String(error);
      }
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const durationMs = performance.now() - started;
  const cpuAfter = cpuMs(server.pid);
  clearInterval(sampler);

  const memory = server.memory();
  if (memory && (maxRss === null || memory.rssMiB > maxRss)) maxRss = memory.rssMiB;
  latencies.sort((a, b) => a - b);
  return {
    name: scenario.name,
    concurrency: options.concurrency,
    requests: latencies.length,
    errors,
    durationMs,
    requestsPerSecond: (latencies.length / durationMs) * 1000,
    latencyMs: {
      p50: percentile(latencies, 50),
      p90: percentile(latencies, 90),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? 0,
      mean: latencies.reduce((sum, value) => sum + value, 0) / (latencies.length || 1),
    },
    serverCpuMsPerRequest:
      cpuBefore === null || cpuAfter === null || latencies.length === 0
        ? null
        : (cpuAfter - cpuBefore) / latencies.length,
    rssMiB: memory?.rssMiB ?? null,
    maxRssMiB: maxRss,
    ...(firstError === undefined ? {} : { firstError }),
  };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}
