import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

// `npm run test:package` (not part of `npm test`: the install compiles better-sqlite3 from source
// when no prebuilt binary can be downloaded, minutes of CPU; .ci/run calls it after `npm test`).
// What a user without a clone does (README, "Without cloning"): pack, install the tarball
// globally, run `tack serve`, and get the API and the web UI.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), "tack-package-"));
let server: ChildProcess | undefined;
after(() => {
  server?.kill("SIGTERM");
  rmSync(folder, { recursive: true, force: true });
});

/** npm with the test runner's own variables removed, so the child's scripts do not report here. */
function npm(args: string[], cwd: string) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("NODE_TEST")) delete env[key];
  delete env.NODE_OPTIONS;
  return run("npm", args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
}

test("the tarball holds the built server and UI, README, LICENSE and docs, nothing else", {
  timeout: 10 * 60_000,
}, async () => {
  // `npm pack` runs `prepare`, which builds dist/ from this clone first.
  const { stdout } = await npm(["pack", "--json", "--pack-destination", folder], ROOT);
  const [packed] = JSON.parse(stdout.slice(stdout.search(/^\[/m))) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  assert.ok(packed);
  const paths = packed.files.map((file) => file.path);
  const unexpected = paths.filter(
    (path) =>
      !["package.json", "README.md", "LICENSE"].includes(path) &&
      !(path.startsWith("dist/") && !path.endsWith(".map")) &&
      !path.startsWith("docs/"),
  );
  assert.deepEqual(unexpected, []);
  for (const needed of ["dist/cli.js", "dist/server.js", "dist/ui/index.html", "docs/api.md"]) {
    assert.ok(paths.includes(needed), `${needed} is missing from the tarball`);
  }
  copyFileSync(join(folder, packed.filename), join(folder, "tack.tgz"));
});

test("prepare builds only in a clone: in an installed package it does nothing", {
  timeout: 60_000,
}, async () => {
  const installed = join(folder, "installed-copy");
  mkdirSync(installed);
  copyFileSync(join(ROOT, "package.json"), join(installed, "package.json"));
  await npm(["run", "prepare"], installed);
  assert.equal(existsSync(join(installed, "dist")), false);
});

test("npm install -g of the tarball gives a tack that serves the API and the UI", {
  timeout: 30 * 60_000,
}, async () => {
  const tarball = join(folder, "tack.tgz");
  assert.ok(existsSync(tarball), "the pack test must run first");
  const prefix = join(folder, "prefix");
  // As the README says: better-sqlite3's install script allowed, nothing else. Packages come from
  // the npm cache when it has them (--prefer-offline), else from the registry.
  const installed = await npm(
    [
      "install",
      "-g",
      "--prefix",
      prefix,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--allow-scripts=better-sqlite3",
      tarball,
    ],
    folder,
  );
  // tack's own `prepare` is a script of a non-registry source: npm skips it and says so.
  assert.match(installed.stderr, /tack@[\d.]+ \(prepare/);

  const tack = join(prefix, "bin", "tack");
  const version = await run(tack, ["--version"]);
  assert.match(version.stdout, /^\d+\.\d+\.\d+/);

  server = spawn(tack, ["serve", "--port", "0", "--db", join(folder, "data", "tack.sqlite")], {
    cwd: folder,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    server?.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    });
    server?.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    server?.on("exit", (code) => reject(new Error(`tack serve exited ${code}: ${output}`)));
  });
  const health = await fetch(`${url}/api/health`);
  assert.deepEqual(await health.json(), { ok: true });
  const page = await fetch(`${url}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
  assert.match(await page.text(), /<title>tack<\/title>/);

  const exited = new Promise((resolve) => server?.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
  server = undefined;
});
