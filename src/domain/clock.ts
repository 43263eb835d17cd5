let lastMillis = Number.NaN;
let lastText = "";

/** Where the current time comes from: the system clock, or a test's clock (`useClock`). */
let source: () => number = Date.now;

/**
 * Replaces the clock (tests of lease expiry move time forward instead of sleeping). Returns a
 * function that puts the system clock back.
 */
export function useClock(clock: () => number): () => void {
  source = clock;
  lastMillis = Number.NaN;
  return () => {
    source = Date.now;
    lastMillis = Number.NaN;
  };
}

/** The current time in milliseconds since the epoch. */
export function nowMillis(): number {
  return source();
}

/** The one source of timestamps: ISO 8601 with milliseconds, UTC. */
export function now(): string {
  // Formatting costs ~1 µs and a bulk write (a board import's activity) asks thousands of times
  // within the same millisecond: format each millisecond once. The text is the same either way.
  const millis = source();
  if (millis !== lastMillis) {
    lastMillis = millis;
    lastText = new Date(millis).toISOString();
  }
  return lastText;
}
