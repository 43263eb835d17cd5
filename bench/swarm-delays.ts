/**
 * The delay from a write's answer to the board-stream message that announces it, per stream
 * reader. A message names the tickets it touched, not the request that caused it, so writes are
 * matched per ticket: a message about ticket T credits every answered write of T that reader is
 * still waiting for. The server sends a message only after the request's answer is written, but
 * the two travel on different sockets, so the message can reach this process first: a message
 * about T that credited nothing and arrived after a write of T went out counts for that write
 * when its answer arrives (delay 0). Writes of one ticket come from the one agent holding it,
 * one after another, so this pairs each write with its own message closely enough for p50/p99.
 */
import { percentile } from "./load-loop.js";

interface Reader {
  /** Answered writes per ticket, waiting for a message: their answer times. */
  waiting: Map<number, number[]>;
  /** Per ticket, the arrival of the newest message that credited no write. */
  unmatched: Map<number, number>;
}

export class StreamDelays {
  private readonly readers: Reader[];
  private readonly delays: number[] = [];
  private measuring = true;

  constructor(readers: number) {
    this.readers = Array.from({ length: readers }, () => ({
      waiting: new Map(),
      unmatched: new Map(),
    }));
  }

  /** Writes answered from now on are not recorded (the run is ending). */
  stopRecording(): void {
    this.measuring = false;
  }

  /** Forgets what was recorded so far (after the warm-up). */
  reset(): void {
    this.delays.length = 0;
    for (const reader of this.readers) reader.waiting.clear();
  }

  /** A write of `ticketId`, sent at `sentAt`, answered at `answeredAt`. */
  written(ticketId: number, sentAt: number, answeredAt: number): void {
    if (!this.measuring) return;
    for (const reader of this.readers) {
      const list = reader.waiting.get(ticketId);
      const early = reader.unmatched.get(ticketId);
      if (list === undefined && early !== undefined && early >= sentAt) {
        reader.unmatched.delete(ticketId);
        this.delays.push(0);
      } else if (list === undefined) {
        reader.waiting.set(ticketId, [answeredAt]);
      } else {
        list.push(answeredAt);
      }
    }
  }

  /** Reader `index` received a message about `ticketIds` (null: everything) at `arrivedAt`. */
  received(index: number, ticketIds: number[] | null, arrivedAt: number): void {
    const reader = this.readers[index];
    if (reader === undefined) return;
    const ids = ticketIds ?? [...reader.waiting.keys()];
    for (const id of ids) {
      const list = reader.waiting.get(id);
      if (list === undefined) {
        reader.unmatched.set(id, arrivedAt);
        continue;
      }
      for (const answeredAt of list) this.delays.push(Math.max(0, arrivedAt - answeredAt));
      reader.waiting.delete(id);
    }
  }

  /** p50/p99 of every reader's delays, and the writes no message has announced yet. */
  summary(): { samples: number; p50: number; p99: number; max: number; unannounced: number } {
    const sorted = [...this.delays].sort((a, b) => a - b);
    let unannounced = 0;
    for (const reader of this.readers) {
      for (const list of reader.waiting.values()) unannounced += list.length;
    }
    return {
      samples: sorted.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? 0,
      unannounced,
    };
  }
}
