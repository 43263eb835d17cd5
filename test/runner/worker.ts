import { createInterface } from "node:readline";
import { describe } from "node:test";
import { pathToFileURL } from "node:url";
import { sendToRunner } from "./messages.js";
import { ROOT } from "./tiers.js";

// One process of test/run-tests.ts. `--alone FILE` imports that one file, whose tests run as
// under `node --test FILE`. Otherwise it reads file names on standard input, one a line, and runs
// each in turn as a suite named by the file, telling the runner when the file's last test (and
// its after hooks) has ended; the runner then sends the next. Closing standard input ends it.
//
// The suite is what keeps the files of one process apart: a file's top-level test(), before()
// and after() register under whatever test the calling code runs in (node:test follows the
// asynchronous context), and a module is evaluated in the context of the import() that loaded
// it, here the suite's. So a file's after() hooks (servers closed, a test clock put back) run
// when that file ends, not when the process does.

/** How long a worker told to stop may stay alive before it says what keeps it alive. */
const LINGER_REPORT_MS = 1_000;

const url = (file: string) => pathToFileURL(`${ROOT}${file}`).href;

if (process.argv[2] === "--alone") {
  const file = process.argv[3] ?? "";
  sendToRunner({ type: "start", file });
  await import(url(file));
} else {
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (file) => {
    // The import must start inside the suite's function, synchronously: awaiting anything first
    // would leave the suite's context and the file's tests would land on the root test.
    const ended = describe(file, () => {
      sendToRunner({ type: "start", file });
      return import(url(file));
    });
    ended.then(() => sendToRunner({ type: "finished", file }));
  });
  lines.on("close", () => {
    setTimeout(() => {
      sendToRunner({ type: "lingering", resources: process.getActiveResourcesInfo() });
    }, LINGER_REPORT_MS).unref();
  });
}
