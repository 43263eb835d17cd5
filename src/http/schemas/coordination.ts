import { Type } from "@sinclair/typebox";
import { Id, Timestamp } from "./common.js";
import { Priority } from "./tickets.js";

// Coordination extensions (docs/api.md, "Coordination for agents"): claims with leases. Trimming
// and length of `actor` and the lease bounds are checked in the domain
// (domain/tickets/ticket-claims.ts), one message each; the schemas document them.

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

const Actor = Type.String({
  description: "Who claims: trimmed, 1-100 characters, compared exactly.",
});
const LeaseSeconds = Type.Integer({
  minimum: 10,
  maximum: 86_400,
  description: "Lease length in seconds, 10-86400; default 900.",
});

export const ClaimBody = Type.Object({ actor: Actor, leaseSeconds: Type.Optional(LeaseSeconds) });

export const ReleaseBody = Type.Object({ actor: Actor });

export const ClaimNextBody = Type.Object({
  actor: Actor,
  leaseSeconds: Type.Optional(LeaseSeconds),
  laneId: Type.Optional(Id),
  tag: Type.Optional(Type.String({ description: "Tag name, case-insensitive." })),
  priority: Type.Optional(Priority),
});
