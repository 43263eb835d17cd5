import { EVENT_SOURCE_MAX } from "../../model/limits.js";
import type { Stores } from "../../storage/index.js";
import type { NewTicketEvent } from "../../storage/ticket-events.js";
import { now } from "../clock.js";
import type { TicketEvent } from "../model.js";
import { BODY_MAX, cleanName, optionalText, TITLE_MAX } from "../names.js";
import type { TicketService } from "../tickets/tickets.js";
import type { Transact } from "../transaction.js";

/** TicketEventCreateBody of docs/api.md. */
export interface TicketEventInput {
  source: string;
  kind: string;
  title: string;
  summary?: string | null;
  severity?: string | null;
  icon?: string | null;
  data?: Record<string, unknown>;
}

/** Limits the contract leaves open (docs/decisions.md): summary like a body, the rest short. */
const SEVERITY_MAX = 100;
const ICON_MAX = 2000;

/**
 * Checks and normalises an event: naming strings trimmed and non-empty; optional strings trimmed
 * with empty meaning null; `data` an object, `{}` when absent. `prefix` names the event in
 * messages (`events[2].`) when it comes from a board import.
 */
export function cleanTicketEvent(
  input: TicketEventInput,
  prefix = "",
): Omit<NewTicketEvent, "ticketId" | "createdAt"> {
  return {
    source: cleanName(input.source, `${prefix}source`, EVENT_SOURCE_MAX),
    kind: cleanName(input.kind, `${prefix}kind`, EVENT_SOURCE_MAX),
    title: cleanName(input.title, `${prefix}title`, TITLE_MAX),
    summary: optionalText(input.summary, `${prefix}summary`, BODY_MAX),
    severity: optionalText(input.severity, `${prefix}severity`, SEVERITY_MAX),
    icon: optionalText(input.icon, `${prefix}icon`, ICON_MAX),
    data: input.data ?? {},
  };
}

/**
 * Structured events that sources (providers, agents, integrations) attach to a ticket. They are
 * data, not activity: creating one writes no activity entry and leaves the ticket's `updatedAt`
 * alone, but it is a change of the board, so the stream announces it.
 */
export function ticketEventService(
  stores: Pick<Stores, "ticketEvents">,
  deps: { tickets: Pick<TicketService, "requireRow"> },
  transact: Transact,
) {
  const { ticketEvents } = stores;
  const { tickets } = deps;

  return {
    /** Newest first. */
    list(ticketId: number): TicketEvent[] {
      tickets.requireRow(ticketId);
      return ticketEvents.listByTicket(ticketId);
    },

    create(ticketId: number, input: TicketEventInput): TicketEvent {
      const event = cleanTicketEvent(input);
      return transact((changes) => {
        const ticket = tickets.requireRow(ticketId);
        const id = ticketEvents.insert({ ...event, ticketId, createdAt: now() });
        changes.touched(ticket.boardId);
        changes.ticketMentioned(ticket.boardId, ticketId);
        return ticketEvents.get(id) as TicketEvent;
      });
    },
  };
}

export type TicketEventService = ReturnType<typeof ticketEventService>;
