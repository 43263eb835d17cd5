import { type Static, Type } from "@sinclair/typebox";
import { Timestamp } from "./common.js";

// A claim with its lease (docs/api.md, "Coordination for agents"). The lease bounds and the
// actor's length are in limits.ts; the domain (domain/tickets/ticket-claims.ts) checks them.

export const TicketClaim = Type.Object(
  {
    actor: Type.String(),
    claimedAt: Timestamp,
    expiresAt: Timestamp,
  },
  {
    $id: "TicketClaim",
    description: "Who works on the ticket until when; the field is null once the lease expired.",
  },
);
/** Who works on a ticket until when. */
export type TicketClaim = Static<typeof TicketClaim>;
