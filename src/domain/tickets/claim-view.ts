import type { ClaimRow } from "../../storage/ticket-claims.js";
import type { TicketClaim } from "../model.js";

/** The state of a ticket that decides whether its stored claim still holds. */
export interface ClaimedTicket {
  boardId: number;
  isResolved: boolean;
  isArchived: boolean;
}

/**
 * A stored claim as the API shows it: null once it has expired, and null on a ticket resolved,
 * archived or moved to another board (the row itself is deleted before that change commits, but
 * the answer of the same request is built first).
 */
export function claimView(
  row: ClaimRow | undefined,
  at: string,
  ticket: ClaimedTicket,
): TicketClaim | null {
  if (!row || row.expiresAt <= at) return null;
  if (ticket.isResolved || ticket.isArchived || row.boardId !== ticket.boardId) return null;
  return { actor: row.actor, claimedAt: row.claimedAt, expiresAt: row.expiresAt };
}
