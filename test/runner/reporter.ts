import { once } from "node:events";
import { relative } from "node:path";
import { spec, type TestEvent } from "node:test/reporters";
import { fileURLToPath } from "node:url";
import { type Counts, sendToRunner } from "./messages.js";
import { ROOT } from "./tiers.js";

// The reporter of a test/runner/worker.ts process: each test file's events go to a spec reporter
// of their own, whose text is sent to the runner as it comes, then the file's counts and failed
// tests. A worker running several files sees each as a suite at nesting 0 (named by the file);
// under `--alone FILE` the file's tests are at nesting 0 and are reported one level down, under
// the file's name, so both read alike.

const WORKER = fileURLToPath(new URL("./worker.ts", import.meta.url));
const ALONE = process.argv[2] === "--alone" ? process.argv[3] : undefined;
/** The root test's closing diagnostics ("tests 12", "pass 12", ...): the runner counts itself. */
const SUMMARY = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [\d.]+$/;

type EventData = {
  name: string;
  nesting: number;
  file?: string;
  skip?: unknown;
  todo?: unknown;
  details?: { type?: string; duration_ms?: number; error?: { failureType?: string } };
  message?: string;
};

class FileReport {
  readonly counts: Counts = { tests: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 };
  readonly failures: string[] = [];
  private readonly names: string[] = [];
  private readonly spec = new spec();

  constructor(readonly file: string) {
    this.spec.setEncoding("utf8");
    this.spec.on("data", (text: string) => sendToRunner({ type: "output", file, text }));
  }

  add(type: string, data: EventData): void {
    if (type === "test:start") this.names[data.nesting] = data.name;
    if ((type === "test:pass" || type === "test:fail") && data.nesting > 0) this.count(type, data);
    const error = data.details?.error as
      | (Error & { cause?: Error; failureType?: string })
      | undefined;
    if (type === "test:fail" && data.nesting === 0 && error?.failureType !== "subtestsFailed") {
      // The file itself failed: its import threw, or a hook of its own.
      const why = error?.cause?.message ?? error?.message ?? "failed";
      this.failures.push(`(the file: ${why.split("\n")[0]})`);
    }
    this.spec.write({ type, data });
  }

  private count(type: string, data: EventData): void {
    if (data.details?.type === "suite") {
      if (type === "test:fail" && data.details.error?.failureType !== "subtestsFailed") {
        this.failures.push(this.path(data)); // its before() hook, say
      }
      return;
    }
    this.counts.tests++;
    if (data.todo !== undefined && data.todo !== false) this.counts.todo++;
    else if (data.skip !== undefined && data.skip !== false) this.counts.skipped++;
    else if (type === "test:pass") this.counts.passed++;
    else if (data.details?.error?.failureType === "cancelledByParent") this.counts.cancelled++;
    else {
      this.counts.failed++;
      this.failures.push(this.path(data));
    }
  }

  private path(data: EventData): string {
    return [...this.names.slice(1, data.nesting), data.name].join(" > ");
  }

  async end(): Promise<void> {
    this.spec.end();
    await once(this.spec, "end");
    const { file, counts, failures } = this;
    const ok = failures.length === 0 && counts.cancelled === 0;
    sendToRunner({ type: "result", file, ok, counts, failures });
  }
}

// biome-ignore lint/correctness/useYield: what it reports goes to the runner (sendToRunner)
export default async function* fileReports(source: AsyncIterable<TestEvent>) {
  let current: FileReport | undefined;
  let rootEnded = false;
  for await (const event of source) {
    const { type } = event;
    const data = event.data as unknown as EventData;
    if (type === "test:plan" && data.nesting === 0) rootEnded = true;
    if (data.nesting === 0 && (rootEnded || ALONE === undefined)) {
      if (type === "test:diagnostic") {
        if (!SUMMARY.test(data.message ?? "")) {
          sendToRunner({ type: "diagnostic", text: data.message ?? "" });
        }
        continue;
      }
      if (ALONE !== undefined) continue;
      if (type === "test:start") {
        // A suite the worker made is named by its file; a test that escaped its file's suite
        // (it was created outside the suite's asynchronous context) is named by where it was.
        const file = data.file === WORKER || !data.file ? data.name : relative(ROOT, data.file);
        current = new FileReport(file);
      }
      if (current === undefined) continue;
      if (type === "test:start" || type === "test:pass" || type === "test:fail") {
        current.add(type, data);
      }
      if (type === "test:pass" || type === "test:fail") {
        await current.end();
        current = undefined;
      }
      continue;
    }
    if (ALONE !== undefined && current === undefined) {
      current = new FileReport(ALONE);
      current.add("test:start", { name: ALONE, nesting: 0 });
    }
    current?.add(type, ALONE === undefined ? data : { ...data, nesting: data.nesting + 1 });
  }
  if (ALONE !== undefined) {
    current ??= new FileReport(ALONE);
    const failed = current.failures.length > 0 || current.counts.cancelled > 0;
    // As node:test reports a suite whose tests failed: the failures are listed under the tests.
    const error = Object.assign(new Error("tests failed"), { failureType: "subtestsFailed" });
    const duration_ms = performance.now(); // since the process started
    const details = failed ? { type: "suite", duration_ms, error } : { type: "suite", duration_ms };
    current.add(failed ? "test:fail" : "test:pass", { name: ALONE, nesting: 0, details });
    await current.end();
  }
}
