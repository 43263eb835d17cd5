let lastMillis = Number.NaN;
let lastText = "";

/** The one source of timestamps: ISO 8601 with milliseconds, UTC. */
export function now(): string {
  // Formatting costs ~1 µs and a bulk write (a board import's activity) asks thousands of times
  // within the same millisecond: format each millisecond once. The text is the same either way.
  const millis = Date.now();
  if (millis !== lastMillis) {
    lastMillis = millis;
    lastText = new Date(millis).toISOString();
  }
  return lastText;
}
