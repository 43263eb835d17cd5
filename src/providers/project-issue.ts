import { isoTimestamp, type JsonObject, optionalString, requireString } from "./json-fields.js";
import type { RemoteIssue, RemoteIssueTarget, RemoteProviderId } from "./types.js";

/**
 * The RemoteIssue of a forge that numbers issues within a project (GitHub, GitLab): shown as
 * "project#n"; the web URL and the body under the names its JSON uses, title, state and
 * updated_at under the names both use.
 */
export function projectIssue(
  provider: RemoteProviderId,
  target: RemoteIssueTarget,
  issue: JsonObject,
  identity: { projectKey: string; issueKey: string },
  names: { url: string; body: string },
): RemoteIssue {
  const { projectKey, issueKey } = identity;
  return {
    provider,
    instanceUrl: target.instanceUrl,
    resourceType: "issue",
    projectKey,
    issueKey,
    displayRef: `${projectKey}#${issueKey}`,
    url: requireString(provider, issue, names.url),
    title: requireString(provider, issue, "title"),
    bodyMarkdown: optionalString(issue, names.body) ?? "",
    state: optionalString(issue, "state"),
    remoteUpdatedAt: isoTimestamp(optionalString(issue, "updated_at")),
  };
}
