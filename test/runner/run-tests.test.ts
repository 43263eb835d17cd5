import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";
import { planTier, ROOT } from "./tiers.js";

// The runner of `npm test` and `npm run test:quick` (test/run-tests.ts): it runs every test file,
// says which file a failure came from, fails the run on any failure, keeps each file's hooks to
// that file, and ends files and processes that would never end. The files it runs here are
// test/fixtures/runner/*.ts.

const FIXTURES = "test/fixtures/runner";

/** Runs the runner to its end (it is killed after 2 minutes); its exit code and output. */
async function runRunner(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "test/run-tests.ts", ...args],
      { cwd: ROOT, timeout: 120_000, killSignal: "SIGKILL" },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; killed?: boolean; stdout: string; stderr: string };
    assert.ok(!failed.killed, `the runner did not end within 2 minutes:\n${failed.stdout}`);
    return { code: failed.code ?? -1, output: failed.stdout + failed.stderr };
  }
}

test("npm test runs every *.test.ts under test/ once; the quick tier is a part of it", async () => {
  const { stdout } = await promisify(execFile)("find", ["test", "-name", "*.test.ts"], {
    cwd: ROOT,
  });
  const found = stdout.trim().split("\n").sort();
  const full = planTier("full");
  assert.deepEqual([...full.grouped, ...full.alone].sort(), found);
  const quick = planTier("quick");
  for (const file of [...quick.grouped, ...quick.alone]) assert.ok(found.includes(file), file);
  assert.ok(quick.grouped.length > 40, "the quick tier runs the in-process folders");
});

for (const mode of ["--together", "--alone"]) {
  test(`a failing test is named with its file and fails the run (${mode})`, async () => {
    const { code, output } = await runRunner([
      mode,
      "--jobs=1",
      `${FIXTURES}/passes.ts`,
      `${FIXTURES}/fails.ts`,
    ]);
    assert.equal(code, 1, output);
    assert.match(output, /✖ failing:\n {2}test\/fixtures\/runner\/fails\.ts > a group > fails\n/);
    assert.match(output, /▶ test\/fixtures\/runner\/fails\.ts\n {2}▶ a group\n/);
    assert.match(output, /✔ test\/fixtures\/runner\/passes\.ts/);
    assert.match(output, /tests 3, pass 2, fail 1/);
  });
}

test("a file that fails to load is named and fails the run", async () => {
  const { code, output } = await runRunner(["--together", `${FIXTURES}/does-not-load.ts`]);
  assert.equal(code, 1, output);
  assert.match(
    output,
    /✖ failing:\n {2}test\/fixtures\/runner\/does-not-load\.ts > \(the file: .*this file does not load\)/,
  );
});

test("files sharing a process: each file's after() hooks run when that file ends", async () => {
  const { code, output } = await runRunner([
    "--together",
    "--jobs=1",
    `${FIXTURES}/sets-at-its-end.ts`,
    `${FIXTURES}/reads-what-the-last-file-set.ts`,
  ]);
  assert.equal(code, 0, output);
  assert.match(output, /tests 2, pass 2, fail 0/);
});

test("a file that never ends is killed at its timeout and named; the files after it run", async () => {
  const { code, output } = await runRunner([
    "--together",
    "--jobs=1",
    "--file-timeout=3",
    `${FIXTURES}/never-ends.ts`,
    `${FIXTURES}/passes.ts`,
  ]);
  assert.equal(code, 1, output);
  assert.match(
    output,
    /✖ test\/fixtures\/runner\/never-ends\.ts: killed: still running after 3 s \(--file-timeout\)/,
  );
  assert.match(output, /✔ test\/fixtures\/runner\/passes\.ts/);
});

test("a process a file keeps alive after its last file is killed, and the run fails", async () => {
  const { code, output } = await runRunner([
    "--together",
    "--exit-grace=2",
    `${FIXTURES}/leaves-a-server-open.ts`,
  ]);
  assert.equal(code, 1, output);
  assert.match(output, /✔ test\/fixtures\/runner\/leaves-a-server-open\.ts/);
  assert.match(
    output,
    /the process that ran test\/fixtures\/runner\/leaves-a-server-open\.ts: killed: still alive 2 s after its last file, with open: .*TCPServerWrap/,
  );
});
