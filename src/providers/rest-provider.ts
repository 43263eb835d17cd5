// The one shape every provider adapter has: a REST API that reads an issue by one path, posts a
// comment to another, and checks a credential with a third. An adapter describes its API (how
// the token travels, its paths, how its issue JSON maps onto RemoteIssue); the calls, their
// messages and their failures are made here, the same for each provider.

import { createProviderClient, type ProviderClient } from "./http.js";
import { commentFromJson, type JsonObject, requireObject } from "./json-fields.js";
import type {
  RemoteComment,
  RemoteIssue,
  RemoteIssueTarget,
  RemoteProvider,
  RemoteProviderId,
  RemoteProviderOptions,
} from "./types.js";

/** What differs between providers. Paths are relative to the provider's API base. */
export interface RestIssueApi {
  id: RemoteProviderId;
  /** The headers that carry the token (one header each, never the URL). */
  headers(token: string): Record<string, string>;
  /** An issue's path, and the query that reads it. */
  issuePath(target: RemoteIssueTarget): string;
  /** How a failure names the issue: "github issue o/r#1". */
  describe(target: RemoteIssueTarget): string;
  /** The provider's issue JSON as a RemoteIssue; its identity comes from the answer. */
  toRemoteIssue(target: RemoteIssueTarget, issue: JsonObject): RemoteIssue;
  /** A path any valid token may read: the credential check. */
  credentialPath: string;
  /** Checks the credential check's answer when it must have a shape (Redmine: its user). */
  credentialAnswer?(json: unknown): void;
  /**
   * How a comment is posted, when the provider answers it with `{id, created_at}` (GitHub,
   * GitLab). A provider whose answer names no comment (Redmine) posts its own instead.
   */
  comments?: { path(target: RemoteIssueTarget): string; body(markdown: string): unknown };
  /** The whole answer is the issue (GitHub, GitLab), or it sits under one key (Redmine). */
  issueKey?: string;
}

/** Builds an adapter from its description; `postComment` may be given when `comments` is not. */
export function createRestProvider(
  api: RestIssueApi,
  options: RemoteProviderOptions,
  postComment?: (
    request: ProviderClient,
    target: RemoteIssueTarget,
    token: string,
    bodyMarkdown: string,
  ) => Promise<RemoteComment>,
): RemoteProvider {
  const request = createProviderClient(api.id, api.headers, options.timeoutMs);
  const comments = api.comments;
  return {
    id: api.id,

    async fetchIssue(target, token) {
      const json = requireObject(
        api.id,
        await request(target.instanceUrl, token, {
          method: "GET",
          path: api.issuePath(target),
          action: "read",
          subject: api.describe(target),
        }),
      );
      const issue = api.issueKey === undefined ? json : requireObject(api.id, json[api.issueKey]);
      return api.toRemoteIssue(target, issue);
    },

    async postComment(target, token, bodyMarkdown) {
      if (postComment !== undefined) return postComment(request, target, token, bodyMarkdown);
      if (comments === undefined) throw new Error(`${api.id}: no way to post a comment`);
      const json = await request(target.instanceUrl, token, {
        method: "POST",
        path: comments.path(target),
        body: comments.body(bodyMarkdown),
        action: "comment on",
        subject: api.describe(target),
      });
      return commentFromJson(api.id, json);
    },

    async checkCredential(instanceUrl, token) {
      const json = await request(instanceUrl, token, {
        method: "GET",
        path: api.credentialPath,
        action: "use",
        subject: `the ${api.id} api at ${instanceUrl}`,
      });
      api.credentialAnswer?.(json);
    },
  };
}
