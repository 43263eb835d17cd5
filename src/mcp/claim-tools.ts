import { Type } from "@sinclair/typebox";
import { finishClaim } from "../client/ticket-operations.js";
import { ClaimNextOutput, RenewOutput, TicketOutput } from "./output-schemas.js";
import { ticketForModel } from "./ticket-answers.js";
import { boardOf, LeaseSeconds, ReadyFilters, TicketId } from "./tool-inputs.js";
import { defineTool, type TackTool, write } from "./tool-kit.js";

// The tools of a claim's life: take the next ready ticket or a given one, renew the lease while
// working, release it done, blocked or handed off (docs/agents.md).

export const claimTools: TackTool[] = [
  defineTool({
    name: "claim_next",
    title: "Claim the next ready ticket",
    description:
      "Atomically claims the first ready ticket (optionally of a lane, tag or priority) for you, with a lease. Use to start work; no two agents get the same ticket. Returns the claimed ticket, or ticket null when nothing is ready.",
    input: Type.Object({
      ...ReadyFilters,
      leaseSeconds: LeaseSeconds,
    }),
    output: ClaimNextOutput,
    annotations: write(false),
    async run(args, context) {
      const boardId = await boardOf(context, args.boardId);
      const ticket = await context.client.claimNext(boardId, {
        laneId: args.laneId,
        tag: args.tag,
        priority: args.priority,
        leaseSeconds: args.leaseSeconds,
      });
      if (!ticket) return { summary: "Nothing is ready.", data: { ticket: null } };
      return {
        summary: `Claimed #${ticket.id} ${ticket.title} until ${ticket.claim?.expiresAt}`,
        data: { ticket: ticketForModel(ticket) },
      };
    },
  }),
  defineTool({
    name: "claim",
    title: "Claim a ticket",
    description:
      "Claims a given ticket for you with a lease; claiming your own claim again renews it. Fails with the holder's name if someone else holds it. Returns the ticket.",
    input: Type.Object({ ticketId: TicketId, leaseSeconds: LeaseSeconds }),
    output: TicketOutput,
    annotations: write(true),
    async run(args, context) {
      const ticket = await context.client.claim(args.ticketId, { leaseSeconds: args.leaseSeconds });
      return {
        summary: `Claimed #${ticket.id} until ${ticket.claim?.expiresAt}`,
        data: ticketForModel(ticket),
      };
    },
  }),
  defineTool({
    name: "renew_claim",
    title: "Renew a claim",
    description:
      "Extends your lease on a ticket (a heartbeat during long work); an optional note is logged as a progress event. Fails if someone else holds it. Returns the claim.",
    input: Type.Object({
      ticketId: TicketId,
      leaseSeconds: LeaseSeconds,
      note: Type.Optional(Type.String({ description: "Progress note." })),
    }),
    output: RenewOutput,
    annotations: write(true),
    async run(args, context) {
      const { client } = context;
      const ticket = await client.claim(args.ticketId, { leaseSeconds: args.leaseSeconds });
      if (args.note?.trim()) {
        await client.logEvent(args.ticketId, {
          source: client.actor,
          kind: "progress",
          title: args.note.trim().slice(0, 500),
        });
      }
      return {
        summary: `#${ticket.id} claimed until ${ticket.claim?.expiresAt}`,
        data: { ticketId: ticket.id, claim: ticket.claim ?? null, version: ticket.version ?? null },
      };
    },
  }),
  defineTool({
    name: "release",
    title: "Release a claim",
    description:
      "Ends your claim. outcome done resolves the ticket; blocked (note = reason) and handoff (note = what is left) leave it open and add the note as a comment. Returns the ticket.",
    input: Type.Object({
      ticketId: TicketId,
      outcome: Type.Optional(
        Type.Union([Type.Literal("done"), Type.Literal("blocked"), Type.Literal("handoff")], {
          description: "Default: plain release.",
        }),
      ),
      note: Type.Optional(Type.String()),
    }),
    output: TicketOutput,
    annotations: write(true),
    async run(args, context) {
      const ticket = args.outcome
        ? await finishClaim(context.client, args.ticketId, args.outcome, args.note)
        : await context.client.release(args.ticketId);
      return {
        summary: `Released #${ticket.id}${ticket.isResolved ? " (resolved)" : ""}`,
        data: ticketForModel(ticket),
      };
    },
  }),
];
