import { fsync } from "node:fs";
import type { SyncFile } from "../../src/storage/group-commit.js";

export interface HeldCall {
  fd: number;
  /** Lets the call finish: a real fsync, or `failure` reported as its error. */
  release(failure?: Error): void;
}

/**
 * A stand-in for the server's fsync of its write-ahead log (`startTestServer({ syncFile })`)
 * that a test can hold: while `holding`, each call waits until released, so every answer waits
 * too (storage/group-commit.ts). With `holding` off, calls go through at once.
 */
export function heldSync() {
  const pending: HeldCall[] = [];
  const seen: number[] = [];
  let wake: (() => void) | undefined;
  const held = {
    holding: false,
    /** Descriptors of every call so far. */
    seen,
    syncFile: ((fd, done) => {
      seen.push(fd);
      const release = (failure?: Error) =>
        failure ? done(failure) : fsync(fd, (error) => done(error));
      if (!held.holding) return release();
      pending.push({ fd, release });
      wake?.();
    }) satisfies SyncFile,
    /**
     * Stops holding and releases every held call: for `t.after`, so a test that fails while a
     * call is held ends instead of leaving the server's close waiting for that sync forever.
     */
    stop(): void {
      held.holding = false;
      for (const call of pending.splice(0)) call.release();
    },
    /** The oldest held call, once there is one. */
    async next(): Promise<HeldCall> {
      while (pending.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return pending.shift() as HeldCall;
    },
  };
  return held;
}
