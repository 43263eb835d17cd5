import type { AskT, TicketSummary } from "./api-types.js";
import { inbox } from "./asks.js";
import { ApiError } from "./errors.js";
import type { TackClient } from "./tack-client.js";

// Open tickets the ready queue leaves out for a reason other than their relations or a claim:
// an open blocking ask (docs/api.md, "Asks") or a `notBefore` still to come ("Not before").
// `ready` and `prime` name them, so an agent knows the work exists and what it waits for.

export interface WaitingOnAsks {
  ticketId: number;
  title: string;
  /** The ticket's open blocking asks, oldest first. */
  askIds: number[];
}

export interface WaitingUntil {
  ticketId: number;
  title: string;
  notBefore: string;
}

export interface Waiting {
  onAsks: WaitingOnAsks[];
  until: WaitingUntil[];
}

/**
 * What the board's open tickets wait for. `tickets` must hold the board's unarchived tickets (a
 * plain ticket list does); the board's open asks are read here. A server without asks has none.
 */
export async function waitingTickets(
  client: TackClient,
  boardId: number,
  tickets: readonly TicketSummary[],
  now = Date.now(),
): Promise<Waiting> {
  const open = tickets.filter((ticket) => !ticket.isResolved && !ticket.isArchived);
  const byId = new Map(open.map((ticket) => [ticket.id, ticket]));
  let asks: AskT[] = [];
  if (open.some((ticket) => (ticket.openAsks ?? 0) > 0)) {
    try {
      asks = await inbox(client, { status: "open", boardId });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== "not_found") throw error;
    }
  }
  const held = new Map<number, number[]>();
  for (const ask of asks) {
    if (!ask.blocking || !byId.has(ask.ticketId)) continue;
    held.set(ask.ticketId, [...(held.get(ask.ticketId) ?? []), ask.id]);
  }
  const onAsks = [...held].map(([ticketId, askIds]) => ({
    ticketId,
    title: byId.get(ticketId)?.title ?? "",
    askIds,
  }));
  const until = open
    .filter((ticket) => ticket.notBefore != null && Date.parse(ticket.notBefore) > now)
    .map((ticket) => ({
      ticketId: ticket.id,
      title: ticket.title,
      notBefore: ticket.notBefore as string,
    }))
    .sort((a, b) => Date.parse(a.notBefore) - Date.parse(b.notBefore));
  return { onAsks, until };
}

/** At most `shown` of each kind, as lines for people and agents; none when nothing waits. */
export function waitingLines(waiting: Waiting, shown = 5): string[] {
  const lines: string[] = [];
  const more = (total: number) => (total > shown ? ` (+${total - shown} more)` : "");
  if (waiting.onAsks.length > 0) {
    const named = waiting.onAsks
      .slice(0, shown)
      .map((one) => `#${one.ticketId} (ask ${one.askIds.join(", ")})`);
    lines.push(
      `Waiting on a person's answer (open blocking asks): ${named.join(", ")}${more(waiting.onAsks.length)}.`,
    );
  }
  if (waiting.until.length > 0) {
    const named = waiting.until
      .slice(0, shown)
      .map((one) => `#${one.ticketId} (not before ${one.notBefore})`);
    lines.push(`Waiting for a moment: ${named.join(", ")}${more(waiting.until.length)}.`);
  }
  return lines;
}
