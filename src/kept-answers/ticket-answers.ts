import { now } from "../domain/clock.js";
import type { Ticket } from "../domain/model.js";
import { claimView } from "../domain/tickets/claim-view.js";
import type { TicketParts, TicketViews, TicketWritten } from "../domain/tickets/ticket-views.js";
import type { Read } from "../domain/transaction.js";
import type { Stores } from "../storage/index.js";
import { cutTicketJson, joinTicketJson, type TicketJson } from "./ticket-json.js";
import { KeptTicketParts } from "./ticket-parts.js";

/** A full Ticket's JSON as the routes' response serializer writes it. */
export type SerializeTicket = (ticket: Ticket) => string;

/** What the kept Ticket answers read. */
export interface TicketSources {
  stores: Pick<Stores, "ticketClaims" | "remoteLinks" | "ticketChanges">;
  read: Read;
  /** Whether a unit of work is open on the connection (parts it changed are then not kept). */
  inUnitOfWork: () => boolean;
  views: Pick<TicketViews, "written" | "partsOf" | "fullTicket">;
}

/**
 * Full Ticket answers from kept parts (index.ts, THE INVARIANT): each ticket's parts
 * (ticket-parts.ts) and the JSON cut from its first full answer (ticket-json.ts), joined with the
 * few fields read for every answer (its row, claim and remote link).
 */
export function ticketAnswers(sources: TicketSources, maxBytes?: number) {
  const { stores, read, inUnitOfWork, views } = sources;
  const kept = new KeptTicketParts(maxBytes);
  stores.ticketChanges.onPartsChanged((ids) => kept.forget(ids));

  /**
   * A ticket's parts: the kept ones when still true, else read (and kept if the ticket was read
   * lately, unless the open unit of work changed them: they would not be committed state, or
   * `keep` is false).
   */
  function partsOf(written: TicketWritten, keep: boolean): TicketParts {
    const { record } = written;
    const ticketId = record.id;
    const changedHere = inUnitOfWork() && stores.ticketChanges.partsChanged(ticketId);
    if (!changedHere) {
      const parts = kept.get(ticketId);
      // A move to another board notes the parts too; this check costs nothing.
      if (parts && parts.board.id === record.boardId) return parts;
    }
    const parts = views.partsOf(record);
    if (!changedHere && keep && kept.admit(ticketId)) kept.set(ticketId, parts);
    return parts;
  }

  return {
    /**
     * The full Ticket's JSON, exactly what `serialize` writes for it: joined from the JSON kept
     * with the ticket's parts when it has some, else serialized, and cut for the next answer.
     * `written`: what a write left of the ticket (else its row is read). With `keep: false`,
     * parts not kept yet are read for this answer alone: neither they nor their JSON are kept.
     */
    json(
      ticketId: number,
      serialize: SerializeTicket,
      written?: TicketWritten,
      options: { keep: boolean } = { keep: true },
    ): TicketJson {
      return read(() => {
        const known = written ?? views.written(ticketId);
        const record = known.record;
        const parts = partsOf(known, options.keep);
        const claim = stores.ticketClaims.get(ticketId);
        const remote = known.remote !== undefined ? known.remote : stores.remoteLinks.get(ticketId);
        // A ticket tracking a remote issue is serialized in full (ticket-json.ts).
        if (remote !== null) return serialize(views.fullTicket(record, parts, claim, remote));
        const fresh = {
          row: record,
          hasChildren: parts.neighbours.some((row) => row.kind === "child"),
          claim: claimView(claim, now(), record),
        };
        const json = kept.jsonOf(ticketId, parts);
        if (json) return joinTicketJson(fresh, json);
        const full = serialize(views.fullTicket(record, parts, claim, remote));
        if (!options.keep || !kept.holds(ticketId, parts)) return full;
        const cut = cutTicketJson(full, fresh);
        if (cut) kept.setJson(ticketId, parts, cut);
        return full;
      });
    },

    /** Estimated bytes kept (docs/performance.md quotes it). */
    get bytes(): number {
      return kept.bytes;
    },
  };
}

export type TicketAnswers = ReturnType<typeof ticketAnswers>;
