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

import type { ProviderClient } from "./http.js";
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
import { createRestProvider, type RestIssueApi } from "./rest-provider.js";
import type {
  RemoteComment,
  RemoteIssue,
  RemoteIssueTarget,
  RemoteProvider,
  RemoteProviderOptions,
} from "./types.js";

const CURRENT_USER = "/users/current.json";

const redmine: RestIssueApi = {
  id: "redmine",
  headers: (token) => ({ "X-Redmine-API-Key": token }),
  issuePath: (target) => `/issues/${target.issueKey}.json`,
  issueKey: "issue",
  describe: (target) => `redmine issue #${target.issueKey}`,
  toRemoteIssue,
  credentialPath: CURRENT_USER,
  credentialAnswer: userIdOf,
};

export function createRedmineProvider(options: RemoteProviderOptions = {}): RemoteProvider {
  return createRestProvider(redmine, options, postComment);
}

/** The id of the user whose key answered `/users/current.json`. */
function userIdOf(json: unknown): string {
  const user = requireObject("redmine", requireObject("redmine", json).user);
  return requireId("redmine", user, "id");
}

/**
 * Asks whose key this is (failing early on a bad key), writes the note, then finds the journal
 * it made (the PUT answers 204 with no body). See the file's header for why a failed search is
 * a comment without an id, not an error.
 */
async function postComment(
  request: ProviderClient,
  target: RemoteIssueTarget,
  token: string,
  bodyMarkdown: string,
): Promise<RemoteComment> {
  const about = redmine.describe(target);
  const call = (
    method: "GET" | "PUT",
    path: string,
    action: string,
    subject: string,
    body?: unknown,
  ) => request(target.instanceUrl, token, { method, path, action, subject, body });
  const account = `the redmine api at ${target.instanceUrl}`;
  const userId = userIdOf(await call("GET", CURRENT_USER, "use", account));
  const notes = { issue: { notes: bodyMarkdown } };
  await call("PUT", redmine.issuePath(target), "comment on", about, notes);
  try {
    const json = await call("GET", `${redmine.issuePath(target)}?include=journals`, "read", about);
    const issue = requireObject("redmine", requireObject("redmine", json).issue);
    return findPostedJournal(issue, userId, bodyMarkdown);
  } catch {
    return { remoteCommentId: null, postedAt: new Date().toISOString() };
  }
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
