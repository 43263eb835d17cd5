/** Printing benchmark figures: tables, and the request benchmarks' report with its settings. */
import type { MemorySample } from "./lib.js";
import type { LoadResult } from "./load-loop.js";

/** What bench/boards.ts measures, as printReport prints it. */
export interface BenchReport {
  title: string;
  /** One line about the data set, e.g. "50 boards x 4 lanes x 10 tags". */
  dataset: string;
  results: LoadResult[];
  /** Server memory when the module finished (peak = VmHWM since the process started). */
  memory: MemorySample | null;
  notes?: string[];
}

/** How long each scenario runs; `BENCH_DURATION_MS` shortens or lengthens every bench. */
export function scenarioDurationMs(fallback = 3000): number {
  const fromEnv = Number(process.env.BENCH_DURATION_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : fallback;
}

/** Warm-up time per scenario: BENCH_WARMUP_MS, or 2 s. */
export function scenarioWarmupMs(fallback = 2000): number {
  const fromEnv = Number(process.env.BENCH_WARMUP_MS);
  return Number.isFinite(fromEnv) && fromEnv >= 0 && process.env.BENCH_WARMUP_MS !== ""
    ? fromEnv
    : fallback;
}

export function printReport(report: BenchReport): void {
  console.log(`\n## ${report.title}`);
  console.log(report.dataset);
  printTable(
    [
      "scenario",
      "conc",
      "requests",
      "errors",
      "req/s",
      "p50 ms",
      "p90 ms",
      "p99 ms",
      "max ms",
      "CPU ms/req",
      "RSS MiB",
      "max RSS",
    ],
    report.results.map((result) => [
      result.name,
      result.concurrency,
      result.requests,
      result.errors,
      result.requestsPerSecond.toFixed(0),
      result.latencyMs.p50.toFixed(2),
      result.latencyMs.p90.toFixed(2),
      result.latencyMs.p99.toFixed(2),
      result.latencyMs.max.toFixed(1),
      result.serverCpuMsPerRequest === null ? "n/a" : result.serverCpuMsPerRequest.toFixed(2),
      mib(result.rssMiB),
      mib(result.maxRssMiB),
    ]),
  );
  if (report.memory) {
    console.log(
      `server memory at end: RSS ${mib(report.memory.rssMiB)} MiB, peak RSS ${mib(report.memory.peakRssMiB)} MiB`,
    );
  }
  for (const result of report.results) {
    if (result.firstError) console.log(`! ${result.name}: first error ${result.firstError}`);
  }
  for (const note of report.notes ?? []) console.log(`- ${note}`);
}

const mib = (value: number | null) => (value === null ? "n/a" : value.toFixed(1));

/** Left-aligns the first column, right-aligns the others. */
export function printTable(header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) =>
    Math.max(...cells.map((row) => (row[column] ?? "").length)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join("  ");
  console.log(line(cells[0] as string[]));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const row of cells.slice(1)) console.log(line(row));
}
