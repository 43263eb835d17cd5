import { ApiError, openGet } from "./api";
import type { TicketSummary } from "./types";

// A board's ticket list read as it arrives. The answer (`{"tickets": [...]}`, docs/api.md,
// "Tickets") is megabytes on a big board (~640 bytes a summary: 13 MB at 20,000 tickets, 64 MB at
// 100,000), and it comes in board order (docs/api.md, "Ordering": lane by lane), so its first
// kilobytes already hold the first lane's first cards. Reading it whole, then parsing it whole,
// kept the page blank for the transfer and the parse of all of it; here each network chunk's
// complete summaries are parsed and handed over at once, and the parse of the whole overlaps the
// transfer.

/**
 * The first run is short: its summaries fill the first lanes' screen, and are shown before the
 * rest of a big first chunk (Chromium hands over up to 2 MiB at a time) is parsed. Later runs
 * are longer, so the handing over costs little beside the parse.
 */
const FIRST_RUN = 200;
const RUN = 2000;

/**
 * GETs `path` (a ticket list), or reads an answer already asked for (`openGet`), and calls
 * `onSummaries` with each run of summaries as soon as they are complete, in the answer's order,
 * waiting for what it returns before parsing on; resolves once the list has ended. A failed
 * answer throws ApiError; a body that is not a ticket list throws ApiError too (status 0).
 */
export async function readTicketList(
  list: string | Promise<Response>,
  onSummaries: (run: TicketSummary[]) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const response = await (typeof list === "string" ? openGet(list, signal) : list);
  const splitter = new SummarySplitter();
  const decoder = new TextDecoder();
  const reader = response.body?.getReader();
  let handed = 0;
  const hand = async (text: string) => {
    splitter.add(text);
    for (;;) {
      const run = splitter.next(handed === 0 ? FIRST_RUN : RUN);
      if (run.length === 0) return;
      handed += run.length;
      await onSummaries(run);
    }
  };
  if (!reader) {
    // No readable body in this browser: the same code over the whole text.
    await hand(await response.text());
  } else {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await hand(decoder.decode(value, { stream: true }));
    }
    await hand(decoder.decode());
  }
  splitter.end();
}

/**
 * Reads board `boardId`'s list (archived tickets too) one lane at a time, in the order of
 * `laneIds` (board order): `onRun` gets each lane's runs as `readTicketList` hands them, with
 * the lane's index, and `onLaneEnd` is called once a lane's list has ended. The next lane's list
 * is asked for as soon as the one before has answered, so the server prepares it while the page
 * reads the one before; asked together, the second could be prepared before the first. Rejects
 * as `readTicketList` does; the lists still asked for are called off through `signal`.
 */
export async function readLaneLists(
  boardId: number,
  laneIds: readonly number[],
  signal: AbortSignal,
  on: {
    onRun: (run: TicketSummary[], lane: number) => void | Promise<void>;
    onLaneEnd: (lane: number) => void | Promise<void>;
  },
): Promise<void> {
  const ask = (laneId: number) =>
    openGet(`/api/boards/${boardId}/tickets?archived=all&lane_id=${laneId}`, signal);
  let next = laneIds.length > 0 ? ask(laneIds[0] as number) : null;
  for (let lane = 0; next; lane++) {
    const answer = next;
    const following = laneIds[lane + 1];
    next = null;
    if (following !== undefined) {
      // Only once this lane has answered; a failure is this read's (or was called off).
      next = answer.then(() => ask(following));
      next.catch(() => {});
    }
    await readTicketList(answer, (run) => on.onRun(run, lane), signal);
    await on.onLaneEnd(lane);
  }
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/**
 * Finds where each element of the `tickets` array ends in text that arrives in pieces, and
 * parses complete ones with one JSON.parse per run (the elements between brackets). Only the
 * JSON structure is scanned: strings are skipped with indexOf, so the scan costs a small part
 * of the parse.
 */
export class SummarySplitter {
  /** Text not handed over yet: from the end of the last element handed over on. */
  private text = "";
  /** Where the scan goes on in `text`. */
  private at = 0;
  /** Nesting depth at `at`: 1 in the answer object, 2 in the array, 3+ inside an element. */
  private depth = 0;
  /** The last key read in the answer object (depth 1), to find `tickets`. */
  private key = "";
  private inList = false;
  private ended = false;
  /** Where the first element not handed over starts in `text` (-1: none started). */
  private runStart = -1;

  /** The next piece of the answer. */
  add(piece: string): void {
    this.text += piece;
  }

  /** The next complete elements, at most `limit`, parsed; [] until more text completes one. */
  next(limit: number): TicketSummary[] {
    const text = this.text;
    let at = this.at;
    let runEnd = -1;
    let count = 0;
    while (at < text.length && !this.ended && count < limit) {
      const code = text.charCodeAt(at);
      if (code === QUOTE) {
        const close = closingQuote(text, at + 1);
        if (close < 0) break; // the string goes on in the next piece
        if (this.depth === 1) this.key = text.slice(at + 1, close);
        at = close + 1;
        continue;
      }
      if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        if (this.depth === 1 && code === OPEN_BRACKET && this.key === "tickets") this.inList = true;
        else if (this.depth === 2 && this.inList && this.runStart < 0) this.runStart = at;
        this.depth++;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        this.depth--;
        if (this.inList && this.depth === 2) {
          runEnd = at + 1;
          count++;
        } else if (this.inList && this.depth === 1) this.ended = true;
      }
      at++;
    }
    if (runEnd < 0) {
      this.at = at;
      return [];
    }
    const run = parseRun(text.slice(this.runStart, runEnd));
    // The rest starts after the last complete element; an element begun there is found again.
    this.text = text.slice(runEnd);
    this.at = at - runEnd;
    this.runStart = this.depth > 2 ? this.text.indexOf("{") : -1;
    return run;
  }

  /** Throws unless the list was read to its end. */
  end(): void {
    if (!this.ended) throw new ApiError(0, "the ticket list ended early");
  }
}

/** The index of the quote that closes a string whose text starts at `from`, or -1. */
function closingQuote(text: string, from: number): number {
  let at = text.indexOf('"', from);
  while (at >= 0) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

function parseRun(elements: string): TicketSummary[] {
  try {
    return JSON.parse(`[${elements}]`) as TicketSummary[];
  } catch {
    throw new ApiError(0, "the ticket list could not be read");
  }
}
