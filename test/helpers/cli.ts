import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildOnce } from "./build-once.js";

/** The repository root: child processes run from here, as `npm run` would. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The node arguments that run the `tack` command in a child process (relative to ROOT): the
 * built dist/cli.js, compiled first when a file under src/ is newer (tsc without its type
 * check, ~10 s of CPU once), so a test never runs code older than the source. The CLI tests
 * start a few hundred processes, and each starts in a quarter of the CPU time of src/cli.ts
 * through tsx, which compiles in every process; tsx remains the fallback if the build fails.
 */
export const CLI_ENTRY: readonly string[] = ensureCliBuilt()
  ? ["dist/cli.js"]
  : ["--import", "tsx", "src/cli.ts"];

function ensureCliBuilt(): boolean {
  try {
    buildOnce("cli", builtCliIsCurrent, () =>
      execFileSync(
        process.execPath,
        [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--noCheck"],
        { cwd: ROOT, stdio: "inherit" },
      ),
    );
  } catch {
    // A build that fails leaves the tests to run the source through tsx.
  }
  return builtCliIsCurrent();
}

function builtCliIsCurrent(): boolean {
  const built = join(ROOT, "dist", "cli.js");
  return existsSync(built) && newestUnder(join(ROOT, "src")) <= statSync(built).mtimeMs;
}

function newestUnder(folder: string): number {
  let newest = statSync(folder).mtimeMs;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * How long a CLI process may take to start or to exit before the test gives up on it: only a
 * guard against hangs, generous because a busy machine can take seconds just to load the CLI.
 */
const PROCESS_TIMEOUT_MS = 60_000;

/**
 * The environment a child sees: ours minus everything tack reads (so the host machine's settings
 * cannot leak into a test) and minus the test runner's own channel, which would otherwise make
 * the child report to this runner.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (
      key.startsWith("TACK_") ||
      key.startsWith("NODE_TEST") ||
      ["HOST", "PORT", "GITHUB_TOKEN", "NODE_OPTIONS"].includes(key)
    ) {
      delete env[key];
    }
  }
  return { ...env, ...extra };
}

/** `nodeArgs` go to node before the CLI (e.g. an `--import` hook of a test). */
export function spawnCli(
  args: string[],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, ...CLI_ENTRY, ...args], {
    cwd: ROOT,
    env: cleanEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * A `tack serve` a test never stops is killed after this, so it cannot keep the test file (and
 * CI) waiting forever. Far longer than any test's use of one under load: the server's life is
 * not the start or the exit that PROCESS_TIMEOUT_MS bounds.
 */
const SERVER_LIFETIME_MS = 10 * 60_000;

/** Collects a child's output until it exits (killing it if it outlives the timeout). */
export function waitForExit(child: ChildProcess, output = collect(child)): Promise<Exit> {
  return exitWithin(child, output, exitOf(child, output));
}

/** The child's exit, once its last output was read ("close" comes after both). */
function exitOf(child: ChildProcess, output: { stdout: string; stderr: string }): Promise<Exit> {
  return new Promise((resolve) => {
    child.once("close", (code, signal) => resolve({ code, signal, ...output }));
  });
}

/** `exit`, or a failure once PROCESS_TIMEOUT_MS have passed, the child then killed. */
function exitWithin(
  child: ChildProcess,
  output: { stderr: string },
  exit: Promise<Exit>,
): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`process did not exit in time; stderr: ${output.stderr}`));
    }, PROCESS_TIMEOUT_MS);
    void exit.then((result) => {
      clearTimeout(timer);
      resolve(result);
    });
  });
}

/** Runs the CLI to completion. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<Exit> {
  return waitForExit(spawnCli(args, env));
}

export interface RunningCli {
  child: ChildProcess;
  /** The whole first line printed on stdout. */
  startLine: string;
  url: string;
  output: { stdout: string; stderr: string };
  /** Sends the signal and waits for the exit (at most PROCESS_TIMEOUT_MS, then kills it). */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

const START_LINE = /listening on (https?:\/\/\S+)/;

/** Starts `tack serve ...` and resolves once it printed its start line. */
export function startCli(
  args: string[],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<RunningCli> {
  const child = spawnCli(["serve", ...args], env, nodeArgs);
  const output = collect(child);
  // Its exit is bounded from stop() on, not from its start: a test may use the server for long
  // (an import killed and restarted, on a loaded machine), and one killed from under it would
  // fail on a cut connection.
  const exited = exitOf(child, output);
  const lifetime = setTimeout(() => child.kill("SIGKILL"), SERVER_LIFETIME_MS);
  lifetime.unref();
  void exited.then(() => clearTimeout(lifetime));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`tack did not start in time; stderr: ${output.stderr}`));
    }, PROCESS_TIMEOUT_MS);
    const onData = () => {
      const newline = output.stdout.indexOf("\n");
      if (newline === -1) return;
      child.stdout?.off("data", onData);
      clearTimeout(timer);
      const startLine = output.stdout.slice(0, newline);
      const url = START_LINE.exec(startLine)?.[1];
      if (!url) {
        child.kill("SIGKILL");
        reject(new Error(`unexpected start line: ${startLine}`));
        return;
      }
      resolve({
        child,
        startLine,
        url,
        output,
        stop(signal = "SIGTERM") {
          child.kill(signal);
          return exitWithin(child, output, exited);
        },
      });
    };
    child.stdout?.on("data", onData);
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`tack exited before starting (${exit.code}): ${exit.stderr}`));
    });
  });
}

function collect(child: ChildProcess): { stdout: string; stderr: string } {
  const output = { stdout: "", stderr: "" };
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    output.stdout += text;
  });
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    output.stderr += text;
  });
  return output;
}
