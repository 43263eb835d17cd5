// GitLab REST v4 adapter (gitlab.com and self-managed instances).
//   GET  {origin}/api/v4/projects/{url-encoded path}/issues/{iid}
//   POST {origin}/api/v4/projects/{url-encoded path}/issues/{iid}/notes  {"body": "..."} -> 201 {id, created_at}
//   GET  {origin}/api/v4/user                                          credential check
// Work items of a project (/-/work_items/<n>) share the iid sequence with issues, and the
// issues API serves the issue-like types (issue, incident, task), so they take the same path.

import { createProviderClient } from "./http.js";
import {
  commentFromJson,
  isoTimestamp,
  type JsonObject,
  optionalObject,
  optionalString,
  requireId,
  requireObject,
  requireString,
} from "./json-fields.js";
import type {
  RemoteIssue,
  RemoteIssueTarget,
  RemoteProvider,
  RemoteProviderOptions,
} from "./types.js";

export function createGitLabProvider(options: RemoteProviderOptions = {}): RemoteProvider {
  const request = createProviderClient(
    "gitlab",
    (token) => ({ "PRIVATE-TOKEN": token }),
    options.timeoutMs,
  );

  return {
    id: "gitlab",

    async fetchIssue(target, token) {
      const json = await request(target.instanceUrl, token, {
        method: "GET",
        path: issuePath(target),
        action: "read",
        subject: describe(target),
      });
      return toRemoteIssue(target, requireObject("gitlab", json));
    },

    async postComment(target, token, bodyMarkdown) {
      const json = await request(target.instanceUrl, token, {
        method: "POST",
        path: `${issuePath(target)}/notes`,
        body: { body: bodyMarkdown },
        action: "comment on",
        subject: describe(target),
      });
      return commentFromJson("gitlab", json);
    },

    async checkCredential(instanceUrl, token) {
      await request(instanceUrl, token, {
        method: "GET",
        path: "/user",
        action: "use",
        subject: `the gitlab api at ${instanceUrl}`,
      });
    },
  };
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
  return {
    provider: "gitlab",
    instanceUrl: target.instanceUrl,
    resourceType: "issue",
    projectKey,
    issueKey: iid,
    displayRef: `${projectKey}#${iid}`,
    url: requireString("gitlab", issue, "web_url"),
    title: requireString("gitlab", issue, "title"),
    bodyMarkdown: optionalString(issue, "description") ?? "",
    state: optionalString(issue, "state"),
    remoteUpdatedAt: isoTimestamp(optionalString(issue, "updated_at")),
  };
}
