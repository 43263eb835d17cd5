/**
 * The long poll of `GET /api/asks/{askId}?wait=` (docs/api.md, "Asks"): callers waiting for an
 * ask to leave `open`, kept per ask id in memory. A waiter is two callbacks and a timer, nothing
 * more: no thread, no database transaction or snapshot is held while it waits.
 *
 * - `wake` runs every waiter of an ask (after the commit that answered or withdrew it);
 * - `ticketsChanged` re-checks the waiters of asks whose ticket a commit deleted (a deleted
 *   ticket takes its asks along: its waiters learn it then, not when their time is up);
 * - a waiter whose time passes, or whose caller went away (`add`'s remover), leaves at once.
 */
export interface Waiter {
  /** Delivers the ask as it is, whatever its state. */
  wake(): void;
  /** Delivers only if the ask is no longer open (or gone); otherwise keeps waiting. */
  check(): void;
}

export function askWaiters() {
  const waiting = new Map<number, Set<Waiter>>();
  /** The ticket of each ask that has waiters. */
  const ticketOf = new Map<number, number>();

  function remove(askId: number, waiter: Waiter): void {
    const set = waiting.get(askId);
    if (!set) return;
    set.delete(waiter);
    if (set.size > 0) return;
    waiting.delete(askId);
    ticketOf.delete(askId);
  }

  return {
    /** Adds a waiter of `askId` (on `ticketId`); returns its remover (safe to call twice). */
    add(askId: number, ticketId: number, waiter: Waiter): () => void {
      let set = waiting.get(askId);
      if (!set) {
        set = new Set();
        waiting.set(askId, set);
        ticketOf.set(askId, ticketId);
      }
      set.add(waiter);
      return () => remove(askId, waiter);
    },

    /** Runs every waiter of `askId` (each removes itself as it delivers). */
    wake(askId: number): void {
      for (const waiter of [...(waiting.get(askId) ?? [])]) waiter.wake();
    },

    /**
     * Re-checks the waiters of every ask on those of these tickets that are gone (`isGone` is
     * asked once per ticket). An ask leaves `open` only by an answer or a withdrawal, which wake
     * its waiters themselves, so a ticket that still exists needs no read per ask: many waiters
     * on one ticket's asks cost one read per commit, not one each.
     */
    ticketsChanged(ticketIds: ReadonlySet<number>, isGone: (ticketId: number) => boolean): void {
      if (waiting.size === 0) return;
      const gone = new Map<number, boolean>();
      for (const [askId, ticketId] of [...ticketOf]) {
        if (!ticketIds.has(ticketId)) continue;
        let isTicketGone = gone.get(ticketId);
        if (isTicketGone === undefined) {
          isTicketGone = isGone(ticketId);
          gone.set(ticketId, isTicketGone);
        }
        if (!isTicketGone) continue;
        for (const waiter of [...(waiting.get(askId) ?? [])]) waiter.check();
      }
    },

    /** Runs every waiter (the server is closing: each gets its ask as it is). */
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
