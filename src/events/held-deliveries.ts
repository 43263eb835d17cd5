import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Deliveries of board notifications held back until the request that caused them has been
 * answered. A client that refetches when a message arrives must not be told of a change before
 * the request making it has its answer (a UI deleting a board would otherwise ask for the board
 * it is deleting). Work outside any request (tests calling services, background jobs) delivers
 * at once.
 */
const heldDeliveries = new AsyncLocalStorage<HeldDeliveries>();

export class HeldDeliveries {
  private pending: Array<() => void> = [];
  private released = false;

  /** Runs `deliver` now if this scope was already released, else when it is. */
  hold(deliver: () => void): void {
    if (this.released) deliver();
    else this.pending.push(deliver);
  }

  /** Delivers everything held, in publication order; later deliveries go out at once. */
  release(): void {
    if (this.released) return;
    this.released = true;
    const pending = this.pending;
    this.pending = [];
    for (const deliver of pending) deliver();
  }
}

/** Runs `work` (and everything it awaits) with deliveries held in `scope`. */
export function holdingDeliveries<T>(scope: HeldDeliveries, work: () => T): T {
  return heldDeliveries.run(scope, work);
}

/** Delivers now, or when the surrounding request has been answered. */
export function deliverAfterAnswer(deliver: () => void): void {
  const scope = heldDeliveries.getStore();
  if (scope) scope.hold(deliver);
  else deliver();
}
