/**
 * Deliveries of board notifications held back until the request that caused them has been
 * answered. A client that refetches when a message arrives must not be told of a change before
 * the request making it has its answer (a UI deleting a board would otherwise ask for the board
 * it is deleting). Work outside any request (tests calling services, background jobs) delivers
 * at once.
 *
 * Which request published is known without following asynchronous context: AsyncLocalStorage
 * turns on Node's promise hooks, a cost paid on every promise of every request
 * (docs/performance.md, "Board streams"). Instead, a route handler runs its synchronous
 * part inside `whileHandling` (http/stream-after-response.ts), and better-sqlite3 commits
 * synchronously, so a publication made there names its request; that is nearly every write. A
 * publication from a later, asynchronous part of a handler (an import once its bodies are
 * rendered, a write after a remote call) cannot tell which request made it, so it waits until
 * every write request being answered at that moment has been answered.
 */
let handling: HeldDeliveries | undefined;

/** Write requests not yet answered: what a publication of unknown origin waits for. */
const unansweredWrites = new Set<HeldDeliveries>();

export class HeldDeliveries {
  private pending: Array<() => void> = [];
  private released = false;

  /** `write`: the request may change data (any method but GET, HEAD and OPTIONS). */
  constructor(write: boolean) {
    if (write) unansweredWrites.add(this);
  }

  /** Runs `deliver` now if this scope was already released, else when it is. */
  hold(deliver: () => void): void {
    if (this.released) deliver();
    else this.pending.push(deliver);
  }

  /** Delivers everything held, in publication order; later deliveries go out at once. */
  release(): void {
    if (this.released) return;
    this.released = true;
    unansweredWrites.delete(this);
    const pending = this.pending;
    this.pending = [];
    for (const deliver of pending) deliver();
  }
}

/** Runs the synchronous `work` with the deliveries it causes held in `scope`. */
export function whileHandling<T>(scope: HeldDeliveries, work: () => T): T {
  const outer = handling;
  handling = scope;
  try {
    return work();
  } finally {
    handling = outer;
  }
}

/** Delivers now, or when the request that caused it (or, unknown, every write) is answered. */
export function deliverAfterAnswer(deliver: () => void): void {
  if (handling) {
    handling.hold(deliver);
    return;
  }
  if (unansweredWrites.size === 0) {
    deliver();
    return;
  }
  let waiting = unansweredWrites.size;
  const answered = () => {
    waiting -= 1;
    if (waiting === 0) deliver();
  };
  for (const scope of unansweredWrites) scope.hold(answered);
}
