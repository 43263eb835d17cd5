// POST /api/tickets/{ticketId}/remote-refresh (docs/api.md, "Remote tracking"): re-fetches the
// tracked issue and updates the ticket title and the read-only snapshot. The local bodyMarkdown
// is the user's and is never touched.

import { RemoteError, type RemoteIssue } from "../../providers/types.js";
import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import { now } from "../clock.js";
import { InvalidInput } from "../errors.js";
import type { Ticket, TicketRemote } from "../model.js";
import { ticketSearchText } from "../search-text.js";
import type { TicketService } from "../tickets/tickets.js";
import type { Transact } from "../transaction.js";
import {
  localTitleOf,
  operationCall,
  type RemoteAccess,
  sameIdentity,
  snapshotOf,
  targetOfLink,
} from "./remote-tracking.js";

export function remoteRefreshService(
  stores: Pick<Stores, "remoteLinks" | "tickets">,
  deps: {
    tickets: Pick<TicketService, "require" | "get">;
    activity: ActivityRecorder;
    remote: RemoteAccess;
  },
  transact: Transact,
) {
  const { remoteLinks } = stores;
  const { tickets, activity, remote } = deps;

  function requireLink(ticketId: number): TicketRemote {
    tickets.require(ticketId);
    const link = remoteLinks.get(ticketId);
    if (link === null) throw new InvalidInput("ticket is not tracked by a remote issue");
    return link;
  }

  /** Records the failed attempt (committed), then fails the request with the same message. */
  function fail(link: TicketRemote, message: string, details: Record<string, unknown>): never {
    transact((changes) => {
      const ticket = tickets.require(link.ticketId);
      activity.record({
        boardId: ticket.boardId,
        ticketId: ticket.id,
        action: "remote_refresh_failed",
        message: `Refresh from ${link.displayRef} failed: ${message}`,
        details: { displayRef: link.displayRef, ...details, error: message },
      });
      changes.touched(ticket.boardId);
    });
    throw new InvalidInput(message);
  }

  return {
    async refresh(ticketId: number): Promise<Ticket> {
      const link = requireLink(ticketId);
      const target = targetOfLink(link);
      const call = operationCall(remote, target);

      let issue: RemoteIssue;
      try {
        issue = await call.provider.fetchIssue(target, call.token);
      } catch (error) {
        if (error instanceof RemoteError) fail(link, error.message, { status: error.status });
        throw error;
      }
      // A transferred or moved issue answers as another issue: tracking it silently would break
      // "one ticket per remote issue", so the link stays as it is.
      if (!sameIdentity(issue, link)) {
        fail(link, "remote refresh returned a different issue", {
          returned: {
            projectKey: issue.projectKey,
            issueKey: issue.issueKey,
            displayRef: issue.displayRef,
          },
        });
      }

      return transact((changes) => {
        const before = tickets.require(ticketId);
        const previous = requireLink(ticketId);
        const at = now();
        const title = localTitleOf(issue);
        if (title !== before.title) {
          stores.tickets.update(ticketId, {
            ...before,
            title,
            searchText: ticketSearchText(title, before.bodyMarkdown),
            updatedAt: at,
            checklist: { done: before.checklistDone, total: before.checklistTotal },
          });
        }
        remoteLinks.updateSnapshot(ticketId, snapshotOf(issue), at);
        activity.record({
          boardId: before.boardId,
          ticketId,
          action: "remote_refreshed",
          message: `Refreshed from ${issue.displayRef}`,
          details: {
            displayRef: issue.displayRef,
            before: { title: previous.title, state: previous.state },
            after: { title: issue.title, state: issue.state },
            titleChanged: previous.title !== issue.title,
            bodyChanged: previous.bodyMarkdown !== issue.bodyMarkdown,
            stateChanged: previous.state !== issue.state,
          },
        });
        changes.touched(before.boardId);
        return tickets.get(ticketId);
      });
    },
  };
}

export type RemoteRefreshService = ReturnType<typeof remoteRefreshService>;
