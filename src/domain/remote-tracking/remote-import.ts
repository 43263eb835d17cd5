// POST /api/boards/{boardId}/remote-import and .../remote-import/preview (docs/api.md,
// "Remote tracking"). Everything local is checked before the provider is
// contacted; the fetched issue (not the request) decides the identity, so a differently written
// reference to a tracked issue is still a duplicate.

import type { RemoteIssueImportPreview } from "../../model/remote.js";
import { locateRemoteIssue, type RemoteIssueReference } from "../../providers/issue-locator.js";
import { RemoteError, type RemoteIssue, type RemoteIssueTarget } from "../../providers/types.js";
import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import type { BoardService } from "../boards/boards.js";
import { now } from "../clock.js";
import { Conflict, InvalidInput } from "../errors.js";
import type { Ticket } from "../model.js";
import { BODY_MAX } from "../names.js";
import type { TicketLanes } from "../tickets/ticket-ordering.js";
import type { TicketService } from "../tickets/tickets.js";
import type { Transact } from "../transaction.js";
import {
  asClientError,
  localTitleOf,
  operationCall,
  type RemoteAccess,
  type RemoteCall,
  snapshotOf,
} from "./remote-tracking.js";

/** RemoteIssueImport of docs/api.md. */
export interface RemoteIssueImportInput extends RemoteIssueReference {
  laneId: number;
  postBacklinkComment?: boolean;
  backlinkUrl?: string;
}

/** A request whose local parts all passed: what to fetch, with which token, and the backlink. */
interface CheckedImport {
  target: RemoteIssueTarget;
  call: RemoteCall;
  /** Normalised backlink URL, or null for a comment with the ticket reference only. */
  backlinkUrl: string | null;
}

export function remoteImportService(
  stores: Pick<Stores, "remoteLinks">,
  deps: {
    boards: Pick<BoardService, "require">;
    lanes: Pick<TicketLanes, "laneOfBoard">;
    tickets: Pick<TicketService, "create" | "get" | "require">;
    activity: ActivityRecorder;
    remote: RemoteAccess;
  },
  transact: Transact,
) {
  const { remoteLinks } = stores;
  const { boards, lanes, tickets, activity, remote } = deps;

  /** Board (404), lane, backlink URL, reference and credential (400), in that order. */
  function check(boardId: number, input: RemoteIssueImportInput): CheckedImport {
    boards.require(boardId);
    lanes.laneOfBoard(boardId, input.laneId);
    const backlinkUrl =
      input.backlinkUrl === undefined ? null : cleanBacklinkUrl(input.backlinkUrl);
    let target: RemoteIssueTarget;
    try {
      target = locateRemoteIssue(input);
    } catch (error) {
      throw asClientError(error);
    }
    return { target, call: operationCall(remote, target), backlinkUrl };
  }

  async function fetchIssue({ target, call }: CheckedImport): Promise<RemoteIssue> {
    try {
      return await call.provider.fetchIssue(target, call.token);
    } catch (error) {
      throw asClientError(error);
    }
  }

  /** Posts the backlink after the import committed; the outcome is recorded, never thrown. */
  async function postBacklink(checked: CheckedImport, issue: RemoteIssue, ticket: Ticket) {
    const text =
      checked.backlinkUrl === null
        ? `Imported into tack as ${ticket.ref}.`
        : `Imported into tack as ${ticket.ref}: ${checked.backlinkUrl}`;
    let outcome:
      | { posted: true; remoteCommentId: string | null }
      | { posted: false; error: string };
    try {
      const comment = await checked.call.provider.postComment(issue, checked.call.token, text);
      outcome = { posted: true, remoteCommentId: comment.remoteCommentId };
    } catch (error) {
      // A provider failure has a safe message; anything else is described without its text.
      const message =
        error instanceof RemoteError ? error.message : "the backlink comment could not be posted";
      outcome = { posted: false, error: message };
    }
    // Activity only: the import already announced the board change, and the stream sends one
    // message per request (docs/api.md, "The board change stream").
    transact(() => {
      if (remoteLinks.get(ticket.id) === null) return; // deleted meanwhile: nothing to describe
      const boardId = tickets.require(ticket.id).boardId;
      activity.record({
        boardId,
        ticketId: ticket.id,
        ...(outcome.posted
          ? {
              action: "remote_backlink_posted",
              message: `Backlink comment posted on ${issue.displayRef}`,
              details: { displayRef: issue.displayRef, remoteCommentId: outcome.remoteCommentId },
            }
          : {
              action: "remote_backlink_failed",
              message: `Backlink comment failed: ${outcome.error}`,
              details: { displayRef: issue.displayRef, error: outcome.error },
            }),
      });
    });
  }

  return {
    /** Fetches the issue and says whether it is tracked already; writes nothing. */
    async preview(
      boardId: number,
      input: RemoteIssueImportInput,
    ): Promise<RemoteIssueImportPreview> {
      const checked = check(boardId, input);
      const issue = await fetchIssue(checked);
      const existingId = remoteLinks.ticketIdOf(issue);
      return {
        provider: issue.provider,
        instanceUrl: issue.instanceUrl,
        resourceType: issue.resourceType,
        projectKey: issue.projectKey,
        issueKey: issue.issueKey,
        displayRef: issue.displayRef,
        url: issue.url,
        title: issue.title,
        state: issue.state,
        remoteUpdatedAt: issue.remoteUpdatedAt,
        duplicate: existingId !== undefined,
        existingTicketId: existingId ?? null,
        existingTicketRef: existingId === undefined ? null : tickets.get(existingId).ref,
      };
    },

    /**
     * Creates a tracked ticket: the remote title as its (read-only) title, the remote body as its
     * local body, and the snapshot. 409 when the issue is tracked anywhere already. The optional
     * backlink comment is posted after commit; its failure never fails the import.
     */
    async import(boardId: number, input: RemoteIssueImportInput): Promise<Ticket> {
      const checked = check(boardId, input);
      const issue = await fetchIssue(checked);
      if (issue.bodyMarkdown.length > BODY_MAX) {
        throw new InvalidInput(
          `the remote issue body is longer than ${BODY_MAX} characters, the limit of a ticket body`,
        );
      }
      const ticket = transact((changes) => {
        const existingId = remoteLinks.ticketIdOf(issue);
        if (existingId !== undefined) {
          throw new Conflict(
            `${issue.displayRef} is already tracked by ${tickets.get(existingId).ref}`,
          );
        }
        const created = tickets.create(boardId, {
          laneId: input.laneId,
          title: localTitleOf(issue),
          bodyMarkdown: issue.bodyMarkdown,
        });
        remoteLinks.insert({
          ticketId: created.id,
          provider: issue.provider,
          instanceUrl: issue.instanceUrl,
          resourceType: issue.resourceType,
          projectKey: issue.projectKey,
          issueKey: issue.issueKey,
          ...snapshotOf(issue),
          at: now(),
        });
        activity.record({
          boardId,
          ticketId: created.id,
          action: "remote_imported",
          message: `Imported from ${issue.displayRef}`,
          details: {
            provider: issue.provider,
            instanceUrl: issue.instanceUrl,
            projectKey: issue.projectKey,
            issueKey: issue.issueKey,
            displayRef: issue.displayRef,
            url: issue.url,
          },
        });
        changes.touched(boardId);
        return tickets.get(created.id);
      });
      if (input.postBacklinkComment === true) await postBacklink(checked, issue, ticket);
      return tickets.get(ticket.id);
    },
  };
}

export type RemoteImportService = ReturnType<typeof remoteImportService>;

/** An absolute http(s) URL, normalised (no stray whitespace can reach the remote comment). */
function cleanBacklinkUrl(value: string): string {
  let url: URL | null = null;
  try {
    url = new URL(value.trim());
  } catch {
    // reported below
  }
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new InvalidInput("backlinkUrl must be an absolute http or https url");
  }
  return url.href;
}
