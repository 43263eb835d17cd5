/**
 * `npm run bench [-- <name>...]`: runs every known bench module (or the named ones), each against
 * its own tack child process, and prints throughput, latency percentiles and server memory.
 * The whole run is bounded: each scenario runs for BENCH_DURATION_MS (default 3 s) and the
 * process gives up after TOTAL_LIMIT_MS.
 */
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { isBenchReport, printReport } from "./lib.js";

const TOTAL_LIMIT_MS = 5 * 60_000;

interface BenchModule {
  name: string;
  /** Source file next to this one; modules still being written are skipped while absent. */
  file: string;
  entry: string;
}

const MODULES: BenchModule[] = [
  { name: "boards", file: "boards.ts", entry: "runBoardBench" },
  { name: "tickets", file: "tickets.ts", entry: "runTicketBench" },
  { name: "export-import", file: "export-import.ts", entry: "runExportImportBench" },
];

async function main(): Promise<void> {
  const limit = setTimeout(() => {
    console.error(`bench: gave up after ${TOTAL_LIMIT_MS / 1000} s`);
    process.exit(1);
  }, TOTAL_LIMIT_MS);
  limit.unref();

  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !MODULES.some((module) => module.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown bench ${unknown.join(", ")}; known: ${MODULES.map((m) => m.name).join(", ")}`,
    );
  }
  const cpu = cpus();
  console.log(
    `tack benchmarks — node ${process.version}, ${cpu.length} x ${cpu[0]?.model.trim() ?? "cpu"}, ${new Date().toISOString()}`,
  );

  for (const module of MODULES) {
    if (wanted.length > 0 && !wanted.includes(module.name)) continue;
    const url = new URL(module.file, import.meta.url);
    if (!existsSync(url)) {
      console.log(`\n## ${module.name}: skipped (bench/${module.file} does not exist yet)`);
      continue;
    }
    const loaded = (await import(url.href)) as Record<string, unknown>;
    const run = loaded[module.entry];
    if (typeof run !== "function")
      throw new Error(`bench/${module.file} does not export ${module.entry}()`);
    const started = Date.now();
    const report = await run();
    // A module may print its own output and return nothing; a BenchReport is printed here.
    if (isBenchReport(report)) printReport(report);
    console.log(`(${module.name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}

main().catch((error: unknown) => {
  console.error(
    `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
