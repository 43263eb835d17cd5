/**
 * Shared benchmark helpers: tack runs as a child process (as users run it), the load comes from
 * this process over keep-alive HTTP connections, and memory is read from /proc for the child.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const START_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------------------------
// The server under test

export interface TackProcess {
  url: string;
  pid: number;
  dbFile: string;
  /** Current and peak resident memory of the server process (null where /proc is unavailable). */
  memory(): MemorySample | null;
  /** SIGTERM, wait for the exit, remove the temporary database. */
  stop(): Promise<void>;
}

export interface MemorySample {
  rssMiB: number;
  peakRssMiB: number;
}

/** The node options of a checkout's start script (`node <options> dist/cli.js serve`). */
function startNodeOptions(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const words = String(manifest.scripts.start).split(/\s+/);
  return words.slice(1, words.indexOf("dist/cli.js"));
}

/**
 * Where `npm run bench -- <name> --profile` wants CPU profiles of this tree's servers
 * (bench/main.ts sets it; a server of another commit's build is never profiled, so a
 * `--compare` run profiles the build under work only).
 */
export const PROFILE_DIR_VARIABLE = "TACK_BENCH_PROFILE_DIR";

/** Options of startTack. */
export interface StartOptions {
  /** Wait after the start line before resolving (default 2 s). */
  settleMs?: number;
  /** More node options (e.g. --cpu-prof), after the start script's. */
  nodeArgs?: string[];
  /** An existing database to serve; it is kept on stop. Default: a fresh temporary one. */
  dbFile?: string;
  /**
   * How long the start line may take (default START_TIMEOUT_MS): the start checks the whole
   * database file (backup/startup-check.ts), tens of seconds for a 100,000-ticket board.
   */
  startTimeoutMs?: number;
}

/**
 * Starts `tack serve` on a fresh temporary database and a free port; resolves with its URL.
 * `root` is the checkout whose build (dist/) runs: this one, or another commit's (builds.ts).
 */
export async function startTack(
  extraArgs: string[] = [],
  root = ROOT,
  options: StartOptions = {},
): Promise<TackProcess> {
  const folder = mkdtempSync(join(tmpdir(), "tack-bench-"));
  const dbFile = options.dbFile ?? join(folder, "tack.sqlite");
  const profileDir = process.env[PROFILE_DIR_VARIABLE];
  const profiling =
    profileDir && resolve(root) === resolve(ROOT)
      ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]
      : [];
  const env = { ...process.env };
  for (const key of ["HOST", "PORT", "NODE_OPTIONS", "GITHUB_TOKEN"]) delete env[key];
  for (const key of Object.keys(env)) if (key.startsWith("TACK_")) delete env[key];
  // What `npm start` runs: the built server with the start script's node options (`npm run
  // bench` builds first).
  const child = spawn(
    process.execPath,
    [
      ...startNodeOptions(root),
      ...profiling,
      ...(options.nodeArgs ?? []),
      "dist/cli.js",
      "serve",
      "--port",
      "0",
      "--db",
      dbFile,
      ...extraArgs,
    ],
    { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  const url = await startLine(child, options.startTimeoutMs);
  // A moment after the start line, as a user's first requests would come (older builds warmed
  // their render threads in the first seconds; bench/startup.ts measures those seconds).
  await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 2000));
  const pid = child.pid as number;
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  return {
    url,
    pid,
    dbFile,
    memory: () => readMemory(pid),
    async stop() {
      child.kill("SIGTERM");
      await exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * The URL a server child process prints in its `listening on <url>` line (tack's start line, and
 * bench/floor-server.ts's); rejects with its stderr if it exits or takes too long first.
 */
export function startLine(child: ChildProcess, timeoutMs = START_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => fail("the server did not start in time"), timeoutMs);
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`${reason}: ${stderr.trim()}`));
    };
    child.stderr?.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    child.once("exit", (code) => fail(`the server exited with ${code} before starting`));
    child.stdout?.setEncoding("utf8").on("data", function onData(text: string) {
      stdout += text;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      child.stdout?.off("data", onData);
      child.stdout?.resume();
      resolve(match[1] as string);
    });
  });
}

/** utime + stime of a process in ms, from /proc/<pid>/stat (null where unavailable). */
export function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/**
 * Resolves once the server has used no more than 10 ms of CPU in each of two consecutive 250 ms
 * windows (at most `maxMs`): after an import, its tickets are indexed for search in the
 * background, and that work belongs to the import, not to the scenario measured next.
 */
export async function waitForIdle(pid: number, maxMs = 30_000): Promise<void> {
  const deadline = performance.now() + maxMs;
  let quiet = 0;
  let last = cpuMs(pid);
  while (quiet < 2 && last !== null && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = cpuMs(pid);
    if (now === null) return;
    quiet = now - last <= 10 ? quiet + 1 : 0;
    last = now;
  }
}

/** VmRSS and VmHWM (the peak) of a process, from /proc/<pid>/status. */
export function readMemory(pid: number): MemorySample | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  const rss = kib("VmRSS");
  const peak = kib("VmHWM");
  if (!Number.isFinite(rss) || !Number.isFinite(peak)) return null;
  return { rssMiB: rss / 1024, peakRssMiB: peak / 1024 };
}

// ---------------------------------------------------------------------------------------------
// HTTP client

export interface HttpResult {
  status: number;
  body: any;
  /**
   * performance.now() when the request started going out, when the answer began to arrive, and
   * when its last byte arrived (before the client decoded and parsed it).
   */
  sentAt: number;
  firstByteAt: number;
  lastByteAt: number;
  /** The answer's size in bytes (its body as sent, after any transfer decoding). */
  bytes: number;
}

export interface RequestSpec {
  method?: string;
  path: string;
  body?: unknown;
  /**
   * false: count the answer's bytes without decoding or parsing them (`body` is then null), so a
   * benchmark sharing the cores with the server spends little on big answers. Default true.
   */
  parse?: boolean;
  /** Statuses that count as success (default: any 2xx). */
  expect?: number[];
}

/**
 * A keep-alive HTTP client bound to one server. node:http with a pooled agent costs less per
 * request than fetch, so the client is less of a bottleneck for a fast local server.
 */
export class Client {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;

  constructor(baseUrl: string, maxSockets = 64) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  send(spec: RequestSpec): Promise<HttpResult> {
    const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const headers: Record<string, string | number> = {};
    if (payload !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = Buffer.byteLength(payload);
    }
    const sentAt = performance.now();
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.host,
          port: this.port,
          method: spec.method ?? "GET",
          path: spec.path,
          headers,
          agent: this.agent,
        },
        (res) => {
          const firstByteAt = performance.now();
          const parse = spec.parse ?? true;
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on("data", (chunk: Buffer) => {
            bytes += chunk.length;
            if (parse) chunks.push(chunk);
          });
          res.on("end", () => {
            const lastByteAt = performance.now();
            let body: unknown = null;
            if (parse) {
              const text = Buffer.concat(chunks).toString("utf8");
              body = text;
              const json = String(res.headers["content-type"]).startsWith("application/json");
              if (json && text !== "") body = JSON.parse(text);
            }
            const status = res.statusCode ?? 0;
            resolve({ status, body, sentAt, firstByteAt, lastByteAt, bytes });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  /** `send` in one line: `parse: false` counts the answer's bytes without decoding them. */
  call(method: string, path: string, body?: unknown, parse = true): Promise<HttpResult> {
    return this.send({ method, path, body, parse });
  }

  /** Sends and throws unless the status is the expected one (for seeding data). */
  async ok(spec: RequestSpec, status = 200): Promise<any> {
    return (await this.okResult(spec, status)).body;
  }

  /** `ok`, with the timings of the exchange. */
  async okResult(spec: RequestSpec, status = 200): Promise<HttpResult> {
    const result = await this.send(spec);
    if (result.status !== status) {
      throw new Error(
        `${spec.method ?? "GET"} ${spec.path}: ${result.status} ${JSON.stringify(result.body)}`,
      );
    }
    return result;
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * Imports `document` into a server started on `dbFile`, lets it index the board for search, and
 * stops it: the database then holds the board for a server started afterwards (under a
 * profiler, say). Returns the import's answer (the BoardDetail JSON, read loosely, as
 * `Client.ok` gives it).
 */
export async function seedDatabase(dbFile: string, document: unknown): Promise<any> {
  const seeding = await startTack([], undefined, { dbFile, settleMs: 0 });
  const client = new Client(seeding.url, 1);
  try {
    const answer = await client.ok(
      { method: "POST", path: "/api/boards/import", body: document },
      201,
    );
    // The database then holds the board indexed for search, as a server that ran a while would.
    await waitForIdle(seeding.pid);
    return answer;
  } finally {
    client.close();
    await seeding.stop();
  }
}

/** Runs `work(i)` for i = 0..count-1 with at most `concurrency` in flight (for seeding). */
export async function inParallel(
  count: number,
  concurrency: number,
  work: (index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
