import { nowMillis } from "../domain/clock.js";

/** Failed attempts (401s) allowed per address within the window before it gets 429. */
export const MAX_FAILED_ATTEMPTS = 10;
export const FAILED_ATTEMPT_WINDOW_MS = 60_000;
/** Addresses remembered at most; beyond, the one whose last failure is oldest is forgotten. */
const MAX_ADDRESSES = 10_000;

/**
 * Counts refused tokens per peer address (docs/api.md, "Access tokens"): after 10 within 60 seconds
 * the address is refused with 429 until the oldest of them is a minute old. The address is the
 * socket's peer; forwarded headers are not trusted (anyone could send them).
 */
export class FailedAttempts {
  /** Per address, the times of its recent failures, oldest first (at most MAX_FAILED_ATTEMPTS). */
  private readonly failures = new Map<string, number[]>();

  /** Milliseconds until the address may try again; 0 when it is not held back. */
  retryAfterMs(address: string): number {
    const times = this.recent(address);
    if (times.length < MAX_FAILED_ATTEMPTS) return 0;
    return (times[0] as number) + FAILED_ATTEMPT_WINDOW_MS - nowMillis();
  }

  fail(address: string): void {
    const times = this.recent(address);
    times.push(nowMillis());
    if (times.length > MAX_FAILED_ATTEMPTS) times.shift();
    // Re-inserted last, so the Map's first key is the address that failed longest ago.
    this.failures.delete(address);
    this.failures.set(address, times);
    if (this.failures.size > MAX_ADDRESSES) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  private recent(address: string): number[] {
    const times = this.failures.get(address);
    if (!times) return [];
    const since = nowMillis() - FAILED_ATTEMPT_WINDOW_MS;
    while (times.length > 0 && (times[0] as number) <= since) times.shift();
    if (times.length === 0) this.failures.delete(address);
    return times;
  }
}
