// Shared vocabulary of the remote provider layer (docs/api.md, "Remote tracking").
// Domain modules depend on these types only, never on a particular provider module.

/** Provider ids, in the order GET /api/meta lists them. */
export const REMOTE_PROVIDER_IDS = ["github", "gitlab", "redmine"] as const;

export type RemoteProviderId = (typeof REMOTE_PROVIDER_IDS)[number];

export function isRemoteProviderId(value: unknown): value is RemoteProviderId {
  return typeof value === "string" && (REMOTE_PROVIDER_IDS as readonly string[]).includes(value);
}

/**
 * The identity of one remote issue: provider, normalised instance (the credential scope),
 * resource type, project and issue key. One tack ticket may track each identity once.
 */
export interface RemoteIssueTarget {
  provider: RemoteProviderId;
  /** Normalised as a credential scope: origin for github/gitlab, origin + path for redmine. */
  instanceUrl: string;
  resourceType: "issue";
  /**
   * github `owner/repo`, gitlab the full project path `group/sub/project`,
   * redmine the numeric project id (empty until the issue has been fetched; see redmine.ts).
   */
  projectKey: string;
  /** Decimal issue number: github number, gitlab iid, redmine issue id. */
  issueKey: string;
}

/**
 * A fetched issue. The identity fields come from the provider's answer, not from the request,
 * so a moved or transferred issue shows up as a different identity.
 */
export interface RemoteIssue extends RemoteIssueTarget {
  displayRef: string;
  /** Web (browser) URL of the issue. */
  url: string;
  title: string;
  bodyMarkdown: string;
  state: string | null;
  /** ISO 8601, or null when the provider did not say. */
  remoteUpdatedAt: string | null;
}

export interface RemoteComment {
  /**
   * The provider's id of the new comment. Null only when the provider accepted the comment but
   * its id could not be determined (redmine, see redmine.ts): the comment exists, so callers
   * must treat this as pushed, never retry it.
   */
  remoteCommentId: string | null;
  /** ISO 8601 creation time reported by the provider. */
  postedAt: string;
}

/** The failure statuses of RemoteDiagnosticResult that a provider call can produce. */
export type RemoteFailureStatus =
  | "auth_failed"
  | "permission_failed"
  | "not_found"
  | "rate_limited"
  | "error";

/**
 * A classified provider failure. The message is a safe lowercase sentence written by tack:
 * never an upstream response body, never a token, so callers may store and return it as is.
 */
export class RemoteError extends Error {
  override readonly name = "RemoteError";
  readonly status: RemoteFailureStatus;
  /** HTTP status of the provider's answer, when there was one (for logs). */
  readonly httpStatus: number | null;

  constructor(status: RemoteFailureStatus, message: string, httpStatus: number | null = null) {
    super(message);
    this.status = status;
    this.httpStatus = httpStatus;
  }
}

/** One provider adapter. Stateless; every call gets the token it should use. */
export interface RemoteProvider {
  readonly id: RemoteProviderId;
  fetchIssue(target: RemoteIssueTarget, token: string): Promise<RemoteIssue>;
  postComment(
    target: RemoteIssueTarget,
    token: string,
    bodyMarkdown: string,
  ): Promise<RemoteComment>;
  /**
   * Checks that the instance answers and accepts the token, without naming an issue
   * (for diagnostics that carry no issue). Resolves on success, rejects with RemoteError.
   */
  checkCredential(instanceUrl: string, token: string): Promise<void>;
}

export interface RemoteProviderOptions {
  /** Per-request timeout in milliseconds; default 10 000. */
  timeoutMs?: number;
}
