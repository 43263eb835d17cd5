/** The one source of timestamps: ISO 8601 with milliseconds, UTC. */
export function now(): string {
  return new Date().toISOString();
}
