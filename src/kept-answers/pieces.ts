import type { Listed } from "./board-list.js";

/**
 * Summaries as bytes: a piece is one summary's JSON as the list serializer writes it, in UTF-8,
 * followed by ","; a run is pieces in a row. An answer is runs in a row, less the last comma,
 * inside the list's wrapper (http/list-sending.ts).
 */

const COMMA = 0x2c;

/**
 * A summary's JSON as kept: UTF-8 bytes followed by ",", in a buffer of its own (a slice of
 * Node's shared pool would keep its whole 8 KB slab alive for as long as the piece lives).
 */
export function pieceBytes(json: string): Buffer {
  const length = Buffer.byteLength(json, "utf8");
  const bytes = Buffer.allocUnsafeSlow(length + 1);
  bytes.write(json, 0, "utf8");
  bytes[length] = COMMA;
  return bytes;
}

/** The pieces of tickets (all serialized) in a row, each ending in ",": copied once. */
export function joined(tickets: readonly Listed[]): Buffer {
  return Buffer.concat(tickets.map((listed) => listed.piece as Buffer));
}

/**
 * Up to this many pieces, a list joined per request (a search, a tag) answers its pieces as
 * they are: the route copies them once into the answer, where joining them first copied every
 * byte twice (~0.1 ms and 160 KB of garbage for a 286-hit search). Above it, one joined run:
 * a list that big is sent without a copy, and a part per ticket would cost a write each.
 */
const PIECES_AS_RUNS = 512;

/** A per-request list's runs: its pieces (few), or them joined (many). */
export function asRuns(tickets: readonly Listed[]): Buffer[] {
  if (tickets.length === 0) return [];
  if (tickets.length > PIECES_AS_RUNS) return [joined(tickets)];
  return tickets.map((listed) => listed.piece as Buffer);
}

/** Lane ids from `lanes.orderOf`'s text. */
export function idsOf(lanes: string): number[] {
  return lanes === "" ? [] : lanes.split(",").map(Number);
}

/** How many of a lane's tickets (active ones first) are active. */
export function activeCount(lane: readonly Listed[]): number {
  let low = 0;
  let high = lane.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((lane[middle] as Listed).isArchived) high = middle;
    else low = middle + 1;
  }
  return low;
}
