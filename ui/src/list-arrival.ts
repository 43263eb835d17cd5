import { batch } from "@preact/signals";
import { arrivingLaneId, tickets } from "./board-data";
import { newerHere } from "./local-changes";
import type { TicketSummary } from "./types";

// The open board's ticket list shown while it arrives, lane by lane (board-sync.ts reads each
// lane's list with ticket-list-reader.ts). Showing costs a copy of the Map and a render of every
// lane, so the summaries wait until they are as many as those shown: a list of n tickets is
// shown ~log2(n) times, plus once at the end of each lane (a lane reads complete only once all
// of it is shown), the first run at once.

export class ListArrival {
  private waiting: TicketSummary[][] = [];
  private waitingCount = 0;
  private shown = 0;

  /**
   * `since`: the page's change count when the list was asked for; a ticket the page wrote
   * after that (a card dragged, a ticket added while the list arrives) keeps the page's copy.
   */
  constructor(private readonly since: number) {}

  /** Takes a run in; returns whether it is time to show what waits. */
  add(run: TicketSummary[]): boolean {
    this.waiting.push(run);
    this.waitingCount += run.length;
    return this.waitingCount >= Math.max(1, this.shown);
  }

  /**
   * Shows what waits, and that lanes from `arriving` on may get more (those before it are
   * complete: everything read of them is now shown); undefined: the whole list is in.
   */
  show(arriving: number | undefined): void {
    batch(() => {
      if (this.waitingCount > 0) {
        const next = new Map(tickets.value);
        for (const run of this.waiting) {
          for (const ticket of run) {
            if (!newerHere(ticket.id, this.since)) next.set(ticket.id, ticket);
          }
        }
        this.shown += this.waitingCount;
        this.waiting = [];
        this.waitingCount = 0;
        tickets.value = next;
      }
      arrivingLaneId.value = arriving;
    });
  }
}
