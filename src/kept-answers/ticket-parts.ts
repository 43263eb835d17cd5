import type { TicketParts } from "../domain/tickets/ticket-views.js";
import { RecentKeys } from "./recent-keys.js";

/**
 * The parts' JSON, cut from a full Ticket's JSON as the route's serializer wrote it
 * (ticket-json.ts), kept as UTF-8 bytes next to the parts it was written from: an answer of the
 * same ticket joins it with its fresh fields instead of serializing ~5 KB of comments and bodies
 * again.
 */
export interface TicketPartsJson {
  /** `,"tags":[…],"blockerIds":[…],"relatedIds":[…],"ref":…,"shortRef":…,"externalReferences":[…]` */
  links: Buffer;
  /** `,"comments":[…],"blockers":[…],"blockedBy":[…],"related":[…],"parent":…,"children":[…]` */
  relations: Buffer;
  /** `,"bodyMarkdown":…,"bodyHtml":…` */
  bodies: Buffer;
}

/**
 * Kept parts are bounded by this estimate of their size (UTF-16 characters count twice; the
 * kept JSON, UTF-8 bytes, counts its bytes).
 */
const MAX_BYTES = 16 * 1024 * 1024;
/**
 * How many tickets `admit` remembers having read: about as many answers as MAX_BYTES holds
 * (~700 on the benchmark's board, a few thousand of smaller tickets). A ticket read again only
 * after more reads than that would be dropped before its next read anyway.
 */
const ASKED_TICKETS = 1024;
/** A kept entry's size beyond its texts: objects, map entries, short fields. */
const ENTRY_BYTES = 400;
const ROW_BYTES = 200;

function sizeOf(parts: TicketParts): number {
  let bytes = ENTRY_BYTES + ROW_BYTES * (parts.neighbours.length + parts.tags.length);
  bytes += 2 * (parts.text.bodyMarkdown.length + parts.text.bodyHtml.length);
  for (const row of parts.neighbours) bytes += 2 * row.title.length;
  for (const reference of parts.externalReferences) {
    bytes += ROW_BYTES + 2 * (reference.url.length + (reference.title?.length ?? 0));
  }
  for (const comment of parts.comments) {
    bytes += ROW_BYTES + 2 * (comment.bodyMarkdown.length + comment.bodyHtml.length);
  }
  return bytes;
}

/** The buffer the pieces are views of (cut from one answer: its whole text). */
function jsonSizeOf(json: TicketPartsJson): number {
  return json.links.buffer.byteLength;
}

/**
 * Parts of tickets by id (domain/tickets/ticket-views.ts `TicketParts`, with their JSON once an
 * answer wrote it), least recently used dropped first beyond MAX_BYTES. Which parts are still
 * true is SQLite's to say: storage/ticket-changes.ts notes every ticket whose parts a
 * transaction changed (`changed_parts`, from triggers on every table they come from), and the
 * notes are dropped here before that transaction commits (`forget`). Only parts of committed
 * state are kept: inside a transaction, parts it changed are neither used nor kept (the caller
 * asks `ticketChanges.partsChanged`, ticket-answers.ts).
 */
export class KeptTicketParts {
  private readonly entries = new Map<
    number,
    { parts: TicketParts; json: TicketPartsJson | undefined; bytes: number }
  >();
  private size = 0;
  /** Tickets whose parts were read lately, least recently first (`admit`). */
  private readonly asked = new RecentKeys<number, true>(ASKED_TICKETS);

  constructor(private readonly maxBytes = MAX_BYTES) {}

  /**
   * Whether a ticket's parts, read for an answer, are worth keeping: they are from the second
   * time its parts are read while it is among the last ASKED_TICKETS tickets read. Keeping the
   * parts of every ticket read once (a sweep of writes over a big board, each to another ticket)
   * cut and copied every answer for nothing and grew the old generation, whose collection cost
   * a title PATCH more than the reading it was meant to save (docs/performance.md,
   * "Ticket answers from kept parts").
   */
  admit(ticketId: number): boolean {
    const before = this.asked.take(ticketId) !== undefined;
    this.asked.note(ticketId, true);
    return before;
  }

  /** Whether these very parts are the ones kept for the ticket. */
  holds(ticketId: number, parts: TicketParts): boolean {
    return this.entries.get(ticketId)?.parts === parts;
  }

  get(ticketId: number): TicketParts | undefined {
    const entry = this.entries.get(ticketId);
    if (!entry) return undefined;
    // Most recently used last (Map keeps insertion order).
    this.entries.delete(ticketId);
    this.entries.set(ticketId, entry);
    return entry.parts;
  }

  set(ticketId: number, parts: TicketParts): void {
    this.delete(ticketId);
    const bytes = sizeOf(parts);
    if (bytes > this.maxBytes) return;
    this.entries.set(ticketId, { parts, json: undefined, bytes });
    this.size += bytes;
    this.trim();
  }

  /** The JSON kept with these parts (the very object `get` gave), if any. */
  jsonOf(ticketId: number, parts: TicketParts): TicketPartsJson | undefined {
    const entry = this.entries.get(ticketId);
    return entry?.parts === parts ? entry.json : undefined;
  }

  /** Keeps the JSON of these parts, if they are still the kept ones. */
  setJson(ticketId: number, parts: TicketParts, json: TicketPartsJson): void {
    const entry = this.entries.get(ticketId);
    if (entry?.parts !== parts) return;
    const bytes = entry.bytes - (entry.json ? jsonSizeOf(entry.json) : 0) + jsonSizeOf(json);
    this.size += bytes - entry.bytes;
    entry.bytes = bytes;
    entry.json = json;
    this.trim();
  }

  forget(ticketIds: Iterable<number>): void {
    for (const id of ticketIds) this.delete(id);
  }

  /** Estimated bytes kept (docs/performance.md quotes it). */
  get bytes(): number {
    return this.size;
  }

  private trim(): void {
    for (const [oldest] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  private delete(ticketId: number): void {
    const entry = this.entries.get(ticketId);
    if (!entry) return;
    this.size -= entry.bytes;
    this.entries.delete(ticketId);
  }
}
