// What import, preview, refresh and comment push share (docs/api.md, "Remote tracking"): which
// token a call may use, how provider failures become client errors, and how a fetched issue becomes
// the stored snapshot. The provider layer (src/providers) does the HTTP; this module never does.

import type { CredentialStore } from "../../providers/credentials.js";
import { RemoteIssueInputError } from "../../providers/issue-locator.js";
import {
  isRemoteProviderId,
  RemoteError,
  type RemoteIssue,
  type RemoteIssueTarget,
  type RemoteProvider,
  type RemoteProviderId,
} from "../../providers/types.js";
import type { RemoteIdentity, RemoteSnapshot } from "../../storage/remote-links.js";
import { InvalidInput } from "../errors.js";
import { renderMarkdown } from "../markdown.js";
import type { TicketRemote } from "../model.js";
import { TITLE_MAX } from "../names.js";
import { searchTextOf } from "../search-text.js";

/**
 * The remote side as the domain sees it: configured credentials and a way to get an adapter.
 * server.ts builds it from the environment; tests pass providers with short timeouts.
 */
export interface RemoteAccess {
  credentials: Pick<CredentialStore, "hasCredential" | "forOperation" | "forDiagnostic">;
  provider(id: RemoteProviderId): RemoteProvider;
}

/**
 * A remote call ready to run: the adapter and the token for the target's instance.
 * Obtaining one is the only way domain code reaches a provider, so an instance without a
 * credential (exact scope, or the provider's wildcard) is never contacted.
 */
export interface RemoteCall {
  provider: RemoteProvider;
  token: string;
}

/** For import, preview, refresh and push: 400 when no credential serves the instance. */
export function operationCall(remote: RemoteAccess, target: RemoteIssueTarget): RemoteCall {
  const token = remote.credentials.forOperation(target.provider, target.instanceUrl);
  if (token === null) {
    throw new InvalidInput(
      `no credential configured for ${target.provider} at ${target.instanceUrl}`,
    );
  }
  return { provider: remote.provider(target.provider), token };
}

/** The target of a stored link (its identity is what was fetched and stored at import). */
export function targetOfLink(link: TicketRemote): RemoteIssueTarget {
  if (!isRemoteProviderId(link.provider)) {
    // Only import writes links, with a known provider; anything else is a corrupt row.
    throw new Error(`remote link of ticket ${link.ticketId} has an unknown provider`);
  }
  return {
    provider: link.provider,
    instanceUrl: link.instanceUrl,
    resourceType: "issue",
    projectKey: link.projectKey,
    issueKey: link.issueKey,
  };
}

/** Whether two identities name the same issue (GitHub and GitLab paths ignore case). */
export function sameIdentity(a: RemoteIdentity, b: RemoteIdentity): boolean {
  return (
    a.provider === b.provider &&
    a.instanceUrl === b.instanceUrl &&
    a.resourceType === b.resourceType &&
    a.projectKey.toLowerCase() === b.projectKey.toLowerCase() &&
    a.issueKey === b.issueKey
  );
}

/** The stored, read-only copy of a fetched issue, its body rendered and sanitized once. */
export function snapshotOf(issue: RemoteIssue): RemoteSnapshot {
  return {
    displayRef: issue.displayRef,
    url: issue.url,
    title: issue.title,
    bodyMarkdown: issue.bodyMarkdown,
    bodyHtml: renderMarkdown(issue.bodyMarkdown),
    state: issue.state,
    remoteUpdatedAt: issue.remoteUpdatedAt,
    searchText: searchTextOf(
      issue.provider,
      issue.projectKey,
      issue.issueKey,
      issue.displayRef,
      issue.url,
      issue.title,
    ),
  };
}

/**
 * The local ticket title for a remote title: trimmed and within the title limit. Providers cap
 * titles at 255 characters, so cutting is a safeguard; a blank title falls back to the reference.
 */
export function localTitleOf(issue: Pick<RemoteIssue, "title" | "displayRef">): string {
  const title = issue.title.trim().slice(0, TITLE_MAX).trim();
  return title === "" ? issue.displayRef : title;
}

/** Provider failures and bad references as 400s; their messages are safe by construction. */
export function asClientError(error: unknown): unknown {
  if (error instanceof RemoteError || error instanceof RemoteIssueInputError) {
    return new InvalidInput(error.message);
  }
  return error;
}
