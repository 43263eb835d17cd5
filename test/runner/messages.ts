import { writeSync } from "node:fs";

// What a worker process (test/runner/worker.ts and its reporter, test/runner/reporter.ts) tells
// the runner (test/run-tests.ts): one JSON object a line on file descriptor 3, written
// synchronously, so whatever was said before a worker is killed reaches the runner.

export const MESSAGE_FD = 3;

export interface Counts {
  tests: number;
  passed: number;
  failed: number;
  cancelled: number;
  skipped: number;
  todo: number;
}

export type WorkerMessage =
  /** The worker starts importing `file` (its tests run next). */
  | { type: "start"; file: string }
  /** Every test of `file` has ended; the worker is ready for the next file. */
  | { type: "finished"; file: string }
  /** Part of `file`'s report as node:test's spec reporter prints it. */
  | { type: "output"; file: string; text: string }
  /** `file`'s report is complete. `failures` are the failed tests' names, suites first. */
  | { type: "result"; file: string; ok: boolean; counts: Counts; failures: string[] }
  /** A diagnostic of the process's root test (asynchronous activity after a test ended, say). */
  | { type: "diagnostic"; text: string }
  /** The worker was told to stop, but what is listed still keeps it alive. */
  | { type: "lingering"; resources: string[] };

export function sendToRunner(message: WorkerMessage): void {
  writeSync(MESSAGE_FD, `${JSON.stringify(message)}\n`);
}
