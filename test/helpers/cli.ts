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

/** Collects a child's output until it exits (killing it if it outlives the timeout). */
export function waitForExit(child: ChildProcess, output = collect(child)): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`process did not exit in time; stderr: ${output.stderr}`));
    }, PROCESS_TIMEOUT_MS);
    // "close" comes after the exit and after the last output was read.
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ...output });
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
  /** Sends the signal and waits for the exit. */
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
  const exited = waitForExit(child, output);
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
          return exited;
        },
      });
    };
    child.stdout?.on("data", onData);
    exited.then(
      (exit) => {
        clearTimeout(timer);
        reject(new Error(`tack exited before starting (${exit.code}): ${exit.stderr}`));
      },
      () => {},
    );
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
