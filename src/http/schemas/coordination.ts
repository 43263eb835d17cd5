import { Type } from "@sinclair/typebox";
import {
  ACTOR_MAX,
  LEASE_DEFAULT_SECONDS,
  LEASE_MAX_SECONDS,
  LEASE_MIN_SECONDS,
} from "../../model/limits.js";
import { Priority } from "../../model/tickets.js";
import { Id } from "./common.js";

export { TicketClaim } from "../../model/claims.js";

// Coordination extensions (docs/api.md, "Coordination for agents"): claims with leases. Trimming
// and length of `actor` and the lease bounds (model/limits.ts) are checked in the domain
// (domain/tickets/ticket-claims.ts), one message each; the schemas document them.

const Actor = Type.String({
  description: `Who claims: trimmed, 1-${ACTOR_MAX} characters, compared exactly.`,
});
const LeaseSeconds = Type.Integer({
  minimum: LEASE_MIN_SECONDS,
  maximum: LEASE_MAX_SECONDS,
  description: `Lease length in seconds, ${LEASE_MIN_SECONDS}-${LEASE_MAX_SECONDS}; default ${LEASE_DEFAULT_SECONDS}.`,
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
