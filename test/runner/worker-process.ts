import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { MESSAGE_FD, type WorkerMessage } from "./messages.js";
import { ROOT } from "./tiers.js";

// A test/runner/worker.ts process as test/run-tests.ts sees it: started in a process group of
// its own, so that killing it also ends what its tests started (servers' child processes,
// browsers), with its messages parsed as they come.

/** How long the messages a process wrote before it exited may take to arrive. */
const DRAIN_MS = 2_000;

export interface Ending {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the runner killed the process, and why. */
  killedBecause?: string;
}

export class WorkerProcess {
  private readonly child: ChildProcess;
  private readonly input: Writable | null;
  private killedBecause: string | undefined;
  /** The file sent last and what to call when it has finished (true) or the process ended. */
  private waiting: { file: string; resolve: (finished: boolean) => void } | undefined;
  /** What kept the process alive after it was told to stop, as it last said. */
  lingering: string[] = [];
  /** Resolves once the process has exited and its messages have been read. */
  readonly ended: Promise<Ending>;

  /** `alone`: the one file this process runs; otherwise it runs the files it is sent. */
  constructor(
    nodeArgs: readonly string[],
    alone: string | undefined,
    onMessage: (message: WorkerMessage) => void,
  ) {
    const args = [
      "--import",
      "tsx",
      "--test-reporter=./test/runner/reporter.ts",
      "--test-reporter-destination=stdout",
      ...nodeArgs,
      "test/runner/worker.ts",
      ...(alone === undefined ? [] : ["--alone", alone]),
    ];
    // Under `node --test` (the runner's own test) this says "report to the parent in its format".
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      detached: true,
      stdio: [alone === undefined ? "pipe" : "ignore", "inherit", "inherit", "pipe"],
    });
    this.child = child;
    this.input = child.stdin;
    const messages = child.stdio[MESSAGE_FD] as Readable;
    const lines = createInterface({ input: messages, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on("line", (line) => {
      const message = JSON.parse(line) as WorkerMessage;
      onMessage(message);
      if (message.type === "lingering") this.lingering = message.resources;
      if (message.type === "finished" && message.file === this.waiting?.file) {
        this.waiting.resolve(true);
        this.waiting = undefined;
      }
    });
    const drained = once(lines, "close");
    this.ended = (async () => {
      const [code, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals];
      // A process the worker started may hold the message pipe open after the worker is gone.
      const drainTime = AbortSignal.timeout(DRAIN_MS);
      await Promise.race([drained, once(drainTime, "abort")]);
      lines.close();
      this.waiting?.resolve(false);
      this.waiting = undefined;
      return { code, signal, killedBecause: this.killedBecause };
    })();
  }

  /**
   * Sends the next file to a process running several: resolves true once its tests have ended,
   * false if the process ended first.
   */
  run(file: string): Promise<boolean> {
    return new Promise((resolve) => {
      this.waiting = { file, resolve };
      this.input?.write(`${file}\n`);
    });
  }

  /** Tells a process running several files that none follow: it ends once they are done. */
  stop(): void {
    this.input?.end();
  }

  /** Kills the process and everything it started. */
  kill(reason: string): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.killedBecause ??= reason;
    try {
      process.kill(-(this.child.pid as number), "SIGKILL");
    } catch {
      this.child.kill("SIGKILL");
    }
  }
}
