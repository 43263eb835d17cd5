// GitLab REST v4 adapter (gitlab.com and self-managed instances).
//   GET  {origin}/api/v4/projects/{url-encoded path}/issues/{iid}
//   POST {origin}/api/v4/projects/{url-encoded path}/issues/{iid}/notes  {"body": "..."} -> 201 {id, created_at}
//   GET  {origin}/api/v4/user                                          credential check
// Work items of a project (/-/work_items/<n>) share the iid sequence with issues, and the
// issues API serves the issue-like types (issue, incident, task), so they take the same path.

import { type JsonObject, optionalObject, optionalString, requireId } from "./json-fields.js";
import { projectIssue } from "./project-issue.js";
import { createRestProvider } from "./rest-provider.js";
import type {
  RemoteIssue,
  RemoteIssueTarget,
  RemoteProvider,
  RemoteProviderOptions,
} from "./types.js";

export function createGitLabProvider(options: RemoteProviderOptions = {}): RemoteProvider {
  return createRestProvider(
    {
      id: "gitlab",
      headers: (token) => ({ "PRIVATE-TOKEN": token }),
      issuePath,
      describe,
      toRemoteIssue,
      credentialPath: "/user",
      comments: { path: (target) => `${issuePath(target)}/notes`, body: (body) => ({ body }) },
    },
    options,
  );
}

function issuePath(target: RemoteIssueTarget): string {
  // The project is addressed by its full path with "/" encoded as %2F.
  return `/projects/${encodeURIComponent(target.projectKey)}/issues/${target.issueKey}`;
}

function describe(target: RemoteIssueTarget): string {
  return `gitlab issue ${target.projectKey}#${target.issueKey}`;
}

function toRemoteIssue(target: RemoteIssueTarget, issue: JsonObject): RemoteIssue {
  const iid = requireId("gitlab", issue, "iid");
  // references.full ("group/project#12") is GitLab's own full reference and canonical path;
  // instances older than 12.6 lack it, then the requested path stands in.
  const fullReference = optionalString(optionalObject(issue, "references") ?? {}, "full");
  const hash = fullReference?.lastIndexOf("#") ?? -1;
  const projectKey = fullReference && hash > 0 ? fullReference.slice(0, hash) : target.projectKey;
  return projectIssue(
    "gitlab",
    target,
    issue,
    { projectKey, issueKey: iid },
    { url: "web_url", body: "description" },
  );
}
