/**
 * The long poll of `GET /api/asks/{askId}?wait=` (docs/api.md, "Asks"): callers waiting for an
 * ask to leave `open`, kept per ask id in memory. A waiter is a callback and a timer, nothing
 * more: no thread, no database transaction or snapshot is held while it waits. `wake` runs every
 * waiter of an ask (called after the commit that answered or withdrew it); a waiter whose time
 * passes, or whose caller went away (`remove`), leaves the registry at once.
 */
export type Wake = () => void;

export function askWaiters() {
  const waiting = new Map<number, Set<Wake>>();

  function remove(askId: number, wake: Wake): void {
    const set = waiting.get(askId);
    if (!set) return;
    set.delete(wake);
    if (set.size === 0) waiting.delete(askId);
  }

  return {
    /** Adds a waiter of `askId`; returns the function that removes it (safe to call twice). */
    add(askId: number, wake: Wake): () => void {
      let set = waiting.get(askId);
      if (!set) {
        set = new Set();
        waiting.set(askId, set);
      }
      set.add(wake);
      return () => remove(askId, wake);
    },

    /** Runs and removes every waiter of `askId`. */
    wake(askId: number): void {
      const set = waiting.get(askId);
      if (!set) return;
      waiting.delete(askId);
      for (const wake of set) wake();
    },

    /** Runs and removes every waiter (the server is closing: each gets its ask as it is). */
    wakeAll(): void {
      for (const askId of [...waiting.keys()]) this.wake(askId);
    },

    /** Waiters of one ask, or of all asks. */
    count(askId?: number): number {
      if (askId !== undefined) return waiting.get(askId)?.size ?? 0;
      let total = 0;
      for (const set of waiting.values()) total += set.size;
      return total;
    },
  };
}

export type AskWaiters = ReturnType<typeof askWaiters>;
