// GitHub REST v3 adapter (github.com and GitHub Enterprise Server).
//   GET  {api}/repos/{owner}/{repo}/issues/{n}
//   POST {api}/repos/{owner}/{repo}/issues/{n}/comments   {"body": "..."} -> 201 {id, created_at}
//   GET  {api}/                                           credential check (any valid token)
// Pull requests are issues to this API: an issue number that is a pull request is fetched and
// commented on like any issue, and its url is the pull request's web page (/pull/<n>).

import { type JsonObject, optionalString, requireId } from "./json-fields.js";
import { projectIssue } from "./project-issue.js";
import { createRestProvider } from "./rest-provider.js";
import type {
  RemoteIssue,
  RemoteIssueTarget,
  RemoteProvider,
  RemoteProviderOptions,
} from "./types.js";

const API_VERSION = "2022-11-28";

export function createGitHubProvider(options: RemoteProviderOptions = {}): RemoteProvider {
  return createRestProvider(
    {
      id: "github",
      headers: (token) => ({
        Authorization: `Bearer ${token}`,
        Accept: "application/vnd.github+json",
        "X-GitHub-Api-Version": API_VERSION,
      }),
      issuePath,
      describe,
      toRemoteIssue,
      credentialPath: "/",
      comments: { path: (target) => `${issuePath(target)}/comments`, body: (body) => ({ body }) },
    },
    options,
  );
}

function issuePath(target: RemoteIssueTarget): string {
  const [owner = "", repo = ""] = target.projectKey.split("/");
  return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues/${target.issueKey}`;
}

function describe(target: RemoteIssueTarget): string {
  return `github issue ${target.projectKey}#${target.issueKey}`;
}

function toRemoteIssue(target: RemoteIssueTarget, issue: JsonObject): RemoteIssue {
  const number = requireId("github", issue, "number");
  // Identity from the answer: a transferred issue (followed 301) belongs to its new repository.
  const projectKey =
    repositoryFromApiUrl(optionalString(issue, "repository_url")) ?? target.projectKey;
  return projectIssue(
    "github",
    target,
    issue,
    { projectKey, issueKey: number },
    { url: "html_url", body: "body" },
  );
}

/** `…/repos/<owner>/<repo>` → `owner/repo`. */
function repositoryFromApiUrl(repositoryUrl: string | null): string | null {
  const match = repositoryUrl === null ? null : /\/repos\/([^/]+)\/([^/]+)$/.exec(repositoryUrl);
  if (match === null) return null;
  const [, owner = "", repo = ""] = match;
  return `${owner}/${repo}`;
}
