/**
 * What `npm run bench -- swarm` prints: the read-after-write table with targets and PASS/FAIL, one
 * table per swarm run, and with `--compare` each figure's median per build and the ratio.
 */
import { median } from "./builds.js";
import { printTable } from "./report.js";
import type { SwarmResult } from "./swarm-load.js";
import type { ReadAfterWriteRow } from "./swarm-reads.js";

const fixed = (value: number | null, digits = 2) =>
  value === null ? "n/a" : value.toFixed(digits);

const verdict = (value: number | null, target: number) =>
  value === null ? "-" : value <= target ? "PASS" : "FAIL";

export function printReadAfterWrite(rows: ReadAfterWriteRow[], doubleClaims: number): void {
  console.log("\n## Read right after a write (server CPU per request, all threads)");
  printTable(
    ["read right after a write", "CPU ms", "target", "", "p50 ms", ""],
    rows.map((row) => [
      row.name,
      fixed(row.cpuMs),
      `≤ ${row.targetMs}`,
      verdict(row.cpuMs, row.targetMs),
      fixed(row.p50Ms),
      row.detail,
    ]),
  );
  console.log(
    `claim-next: ${doubleClaims === 0 ? "PASS, no ticket handed out twice" : `FAIL, ${doubleClaims} tickets handed out twice`}`,
  );
}

export function printSwarm(result: SwarmResult): void {
  console.log(
    `\n## Swarm, K=${result.agents} agents + 2 UI clients, ${(result.durationMs / 1000).toFixed(1)} s measured`,
  );
  printTable(
    ["operation", "requests", "req/s", "p50 ms", "p99 ms", "whole run", "errors", "CPU ms alone"],
    [
      ...result.operations.map((row) => [
        row.name,
        row.requests,
        row.perSecond.toFixed(1),
        row.p50.toFixed(2),
        row.p99.toFixed(2),
        row.wholeRun,
        row.errors,
        fixed(result.alone.find((cost) => cost.name === row.name)?.cpuMs ?? null),
      ]),
      // Operations that ran alone but not in the window (a release, a full-list refetch).
      ...result.alone
        .filter((cost) => !result.operations.some((row) => row.name === cost.name))
        .map((cost) => [cost.name, "", "", "", "", "", "", fixed(cost.cpuMs)]),
    ],
  );
  const delay = result.streamDelayMs;
  const lines = [
    `agent loops: ${result.loops} (${result.loopsPerSecond.toFixed(1)}/s); claims ${result.claims}, claim-next found nothing ready ${result.emptyClaims} times`,
    `server CPU (all threads): ${fixed(result.cpuMsPerRequest)} ms per request over all ${result.requests} requests, ${fixed(result.cpuMsPerLoop, 1)} ms per agent loop; "CPU ms alone": each operation then run alone, one at a time, every stream still attached, the UIs' refetches stopped`,
    `write answered → stream message at a UI client: p50 ${delay.p50.toFixed(1)} ms, p99 ${delay.p99.toFixed(1)} ms, max ${delay.max.toFixed(1)} ms (${delay.samples} samples, ${delay.unannounced} writes never announced)`,
    `UI refetches: ${result.uiRefetches.named} of named tickets, ${result.uiRefetches.full} of the full list; stream messages: ${result.streamMessages.ui} to UI clients, ${result.streamMessages.agents} to agents`,
    `server RSS: ${fixed(result.rssMiB, 1)} MiB at the end, ${fixed(result.peakRssMiB, 1)} MiB highest seen`,
    `no ticket held by two live claims at once (the agents' answers, and the activity of the ${result.auditedTickets} tickets claimed): ${result.doubleClaims.length === 0 ? "PASS" : `FAIL (${result.doubleClaims.slice(0, 5).join("; ")})`}`,
  ];
  for (const row of result.operations) {
    if (row.firstError) lines.push(`! ${row.name}: first error ${row.firstError}`);
  }
  for (const line of lines) console.log(`- ${line}`);
}

/** The figures of one run that --compare sets side by side (all: lower is better, unless noted). */
export function swarmFigures(result: SwarmResult): Map<string, number> {
  const figures = new Map<string, number>();
  figures.set("agent loops/s (higher is better)", result.loopsPerSecond);
  if (result.cpuMsPerRequest !== null) figures.set("CPU ms per request", result.cpuMsPerRequest);
  if (result.cpuMsPerLoop !== null) figures.set("CPU ms per agent loop", result.cpuMsPerLoop);
  for (const row of result.operations) {
    figures.set(`${row.name} req/s (higher is better)`, row.perSecond);
    figures.set(`${row.name} p50 ms`, row.p50);
    figures.set(`${row.name} p99 ms`, row.p99);
  }
  figures.set("stream delay p50 ms", result.streamDelayMs.p50);
  figures.set("stream delay p99 ms", result.streamDelayMs.p99);
  for (const cost of result.alone) {
    if (cost.cpuMs !== null) figures.set(`${cost.name} CPU ms alone`, cost.cpuMs);
  }
  if (result.peakRssMiB !== null) figures.set("RSS highest MiB", result.peakRssMiB);
  figures.set("double claims", result.doubleClaims.length);
  return figures;
}

export function readFigures(rows: ReadAfterWriteRow[]): Map<string, number> {
  const figures = new Map<string, number>();
  for (const row of rows) if (row.cpuMs !== null) figures.set(`${row.name}: CPU ms`, row.cpuMs);
  return figures;
}

/**
 * One table per phase: each figure's median over the rounds for each build, and old / new (for
 * "higher is better" figures, new / old), so > 1 always means the new build is better.
 */
export function printComparison(
  title: string,
  builds: string[],
  rounds: Map<string, number>[][],
  targets: Map<string, number> = new Map(),
): void {
  console.log(`\n## ${title}: median of ${rounds[0]?.length ?? 0} round(s) per build`);
  const names = [...new Set(rounds.flatMap((perBuild) => perBuild.flatMap((f) => [...f.keys()])))];
  const rows = names.map((name) => {
    const medians = rounds.map((perBuild) =>
      median(perBuild.map((figures) => figures.get(name)).filter((v) => v !== undefined)),
    );
    const [old, current] = [medians[0] ?? Number.NaN, medians.at(-1) ?? Number.NaN];
    const higherBetter = name.includes("higher is better");
    const ratio = higherBetter ? current / old : old / current;
    const target = targets.get(name);
    return [
      name,
      ...medians.map((value) => value.toFixed(2)),
      Number.isFinite(ratio) ? ratio.toFixed(2) : "-",
      target === undefined ? "" : `≤ ${target}`,
      target === undefined ? "" : verdict(current, target),
    ];
  });
  printTable(["figure", ...builds, "gain (>1 better)", "target", "new"], rows);
}
