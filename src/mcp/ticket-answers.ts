import type { LaneT, Ticket, TicketSummary } from "../client/api-types.js";
import type { TackClient } from "../client/tack-client.js";
import { laneMap, page, ticketRow } from "../client/ticket-rows.js";

// How the ticket tools show tickets to a model: in full without repeated HTML, or as a page of
// compact rows with a one-line summary.

/** Full ticket for a model: without the rendered HTML, which repeats the Markdown. */
export function ticketForModel(ticket: Ticket): Record<string, unknown> {
  const { bodyHtml: _html, comments, remote, ...rest } = ticket;
  return {
    ...rest,
    comments: comments.map(({ bodyHtml: _commentHtml, ...comment }) => comment),
    remote: remote ? { displayRef: remote.displayRef, url: remote.url, state: remote.state } : null,
  };
}

/** One page of compact rows; `knownLanes` saves a request when the caller has them. */
export async function rows(
  client: TackClient,
  boardId: number,
  tickets: TicketSummary[],
  limit = 20,
  offset = 0,
  knownLanes?: LaneT[],
) {
  const lanes = laneMap(knownLanes ?? (await client.listLanes(boardId)));
  const { items, ...paging } = page(tickets, offset, limit);
  return { ...paging, tickets: items.map((ticket) => ticketRow(ticket, lanes)) };
}

export function pagedSummary(
  what: string,
  result: { total: number; offset: number; hasMore: boolean; tickets: unknown[] },
) {
  const shown = result.tickets.length;
  return `${result.total} ${what}; showing ${shown} from offset ${result.offset}${result.hasMore ? " (more: raise offset)" : ""}`;
}
