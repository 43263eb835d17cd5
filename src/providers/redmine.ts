// Redmine JSON REST adapter. The instance URL may carry a sub-path (https://host/redmine);
// the API is the web URL with a .json suffix.
//   GET {instance}/issues/{id}.json
//   GET {instance}/users/current.json                     whose key this is (credential check)
//   PUT {instance}/issues/{id}.json  {"issue":{"notes":"..."}} -> 204, no body
//   GET {instance}/issues/{id}.json?include=journals
//
// Comment ids: a note is a journal, and the PUT does not say which journal it created. So
// postComment asks who the key belongs to before writing (which also fails early on a bad key),
// writes, then re-reads the journals and takes the newest journal by that user whose notes equal
// the posted text. If that last step fails or finds nothing, the note still exists: the result
// is remoteCommentId null (not an error), because a retry would post the note twice.
//
// Identity: Redmine addresses issues by id alone. projectKey is the numeric id of the issue's
// project as last fetched (the issue JSON names no project identifier); moving an issue to
// another project therefore changes its identity, as a transfer does on GitHub.

import { createProviderClient } from "./http.js";
import {
  isJsonObject,
  isoTimestamp,
  type JsonObject,
  optionalObject,
  optionalString,
  requireId,
  requireObject,
  requireString,
} from "./json-fields.js";
import type {
  RemoteComment,
  RemoteIssue,
  RemoteIssueTarget,
  RemoteProvider,
  RemoteProviderOptions,
} from "./types.js";

export function createRedmineProvider(options: RemoteProviderOptions = {}): RemoteProvider {
  const request = createProviderClient(
    "redmine",
    (token) => ({ "X-Redmine-API-Key": token }),
    options.timeoutMs,
  );

  const currentUserId = async (instanceUrl: string, token: string): Promise<string> => {
    const json = await request(instanceUrl, token, {
      method: "GET",
      path: "/users/current.json",
      action: "use",
      subject: `the redmine api at ${instanceUrl}`,
    });
    const user = requireObject("redmine", requireObject("redmine", json).user);
    return requireId("redmine", user, "id");
  };

  const readIssue = async (target: RemoteIssueTarget, token: string, query = "") => {
    const json = await request(target.instanceUrl, token, {
      method: "GET",
      path: `/issues/${target.issueKey}.json${query}`,
      action: "read",
      subject: describe(target),
    });
    return requireObject("redmine", requireObject("redmine", json).issue);
  };

  return {
    id: "redmine",

    async fetchIssue(target, token) {
      return toRemoteIssue(target, await readIssue(target, token));
    },

    async postComment(target, token, bodyMarkdown) {
      const userId = await currentUserId(target.instanceUrl, token);
      await request(target.instanceUrl, token, {
        method: "PUT",
        path: `/issues/${target.issueKey}.json`,
        body: { issue: { notes: bodyMarkdown } },
        action: "comment on",
        subject: describe(target),
      });
      try {
        const issue = await readIssue(target, token, "?include=journals");
        return findPostedJournal(issue, userId, bodyMarkdown);
      } catch {
        return { remoteCommentId: null, postedAt: new Date().toISOString() };
      }
    },

    async checkCredential(instanceUrl, token) {
      await currentUserId(instanceUrl, token);
    },
  };
}

function describe(target: RemoteIssueTarget): string {
  return `redmine issue #${target.issueKey}`;
}

function toRemoteIssue(target: RemoteIssueTarget, issue: JsonObject): RemoteIssue {
  const id = requireId("redmine", issue, "id");
  const project = requireObject("redmine", issue.project);
  const status = optionalObject(issue, "status");
  return {
    provider: "redmine",
    instanceUrl: target.instanceUrl,
    resourceType: "issue",
    projectKey: requireId("redmine", project, "id"),
    issueKey: id,
    displayRef: `${requireString("redmine", project, "name")} #${id}`,
    // The API answer carries no web URL; Redmine's is fixed.
    url: `${target.instanceUrl}/issues/${id}`,
    title: requireString("redmine", issue, "subject"),
    bodyMarkdown: optionalString(issue, "description") ?? "",
    state: status === null ? null : optionalString(status, "name"),
    remoteUpdatedAt: isoTimestamp(optionalString(issue, "updated_on")),
  };
}

function findPostedJournal(issue: JsonObject, userId: string, notes: string): RemoteComment {
  const wanted = comparableText(notes);
  let newest: { id: number; createdOn: string | null } | null = null;
  const journals = Array.isArray(issue.journals) ? issue.journals : [];
  for (const journal of journals) {
    if (!isJsonObject(journal) || typeof journal.id !== "number") continue;
    const user = optionalObject(journal, "user");
    const byUser = user !== null && String(user.id) === userId;
    const sameText = comparableText(optionalString(journal, "notes") ?? "") === wanted;
    if (byUser && sameText && (newest === null || journal.id > newest.id)) {
      newest = { id: journal.id, createdOn: optionalString(journal, "created_on") };
    }
  }
  return {
    remoteCommentId: newest === null ? null : String(newest.id),
    postedAt: isoTimestamp(newest?.createdOn ?? null) ?? new Date().toISOString(),
  };
}

/** Redmine may store line breaks as CRLF and drop trailing whitespace. */
function comparableText(text: string): string {
  return text.replace(/\r\n/g, "\n").trim();
}
