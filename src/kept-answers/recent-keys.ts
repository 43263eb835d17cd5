/**
 * The keys seen lately, each with the value it was seen with, at most `bound` of them, the least
 * recently seen dropped first: what the caches that keep an answer only once it is asked for
 * again remember of the first asking (http/conditional-requests.ts `AnswerCache` with
 * admitOnRepeat, ticket-parts.ts `KeptTicketParts.admit`).
 */
export class RecentKeys<K, V> {
  private readonly seen = new Map<K, V>();

  constructor(private readonly bound: number) {}

  /** The value `key` was last seen with, and forgets it (undefined: not seen lately). */
  take(key: K): V | undefined {
    const value = this.seen.get(key);
    this.seen.delete(key);
    return value;
  }

  /** Notes `key` as the most recently seen, with `value`. */
  note(key: K, value: V): void {
    this.seen.delete(key);
    this.seen.set(key, value);
    if (this.seen.size > this.bound) {
      for (const oldest of this.seen.keys()) {
        this.seen.delete(oldest);
        break;
      }
    }
  }
}
