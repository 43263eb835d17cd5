// bench/profile-summary.ts on a hand-made CPU profile: the call tree keeps each node's inclusive
// and self time, children heaviest first, and leaves out branches under the threshold.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { callTree, summarizeProfile } from "../../bench/profile-summary.js";

const folder = mkdtempSync(join(tmpdir(), "tack-profile-summary-"));
after(() => rmSync(folder, { recursive: true, force: true }));

const frame = (functionName: string, lineNumber: number) => ({
  functionName,
  url: "file:///app/dist/http/app.js",
  lineNumber,
});
// (root) -> handler -> { serialize (3 ms self), write (20 ms self) }, handler 5 ms self.
const file = join(folder, "test.cpuprofile");
writeFileSync(
  file,
  JSON.stringify({
    nodes: [
      { id: 1, callFrame: frame("(root)", -1), children: [2] },
      { id: 2, callFrame: frame("handler", 9), children: [3, 4] },
      { id: 3, callFrame: frame("serialize", 19) },
      { id: 4, callFrame: frame("write", 29) },
    ],
    samples: [2, 3, 4, 4],
    timeDeltas: [5000, 3000, 10_000, 10_000],
  }),
);

test("the call tree under a matching function, heaviest child first, small branches left out", () => {
  const lines = callTree(file, /handler/, 6, 4).split("\n");
  assert.deepEqual(
    lines.slice(1).map((line) => line.trim().split(/\s+/).slice(0, 3)),
    [
      ["28", "5", "handler"],
      ["20", "20", "write"],
    ],
  );
  assert.match(lines[2] as string, /^ {2}\s*20/, "a child is indented under its parent");
  assert.match(callTree(file, /handler/, 6, 0), /3\s+3 serialize http\/app\.js:20/);
  const nested = callTree(file, /handler|write/, 6, 4);
  assert.equal(nested.match(/write/g)?.length, 1, "a match inside a match is not a root again");
});

test("the flat summary still lists self and inclusive times", () => {
  const summary = summarizeProfile(file);
  assert.match(summary, /busy 28 ms of 28 ms/);
  assert.match(summary, /20\.0 ms\s+71\.4%\s+write http\/app\.js:30/);
});
