// A fake GitHub REST v3 server that behaves like api.github.com / GitHub Enterprise Server for
// the calls tack makes. Paths, auth, JSON shapes, error bodies and rate-limit headers follow the
// real API; only the data is made up.
//
//   const gh = await startFakeGitHub({ token: "ghp_test" });
//   gh.addIssue({ owner: "octo", repo: "hello", number: 1, title: "Bug" });
//   // configure tack with instance gh.instanceUrl (Enterprise style: API under /api/v3)
//   gh.comments;           // comments received
//   await gh.close();
//
// Behaviour worth knowing:
// - Authorization "Bearer <t>" or "token <t>". An unknown token is 401 "Bad credentials" on
//   every endpoint; no token is anonymous: public reads work, private repos are 404, writes 401.
// - `readOnlyToken` may read but gets 403 "Resource not accessible…" on writes.
// - No User-Agent header is 403, as on github.com.
// - Repository names match case-insensitively; answers use the canonical case.
// - `exhaustRateLimit()` makes every request 403 with x-ratelimit-remaining 0 until reset.
// - `transferIssue()` makes the old issue path answer 301 to the new one (as GitHub does after a
//   transfer), so a client that follows it sees a different owner/repo/number.

import {
  type FailNextOptions,
  type FakeResponse,
  type FakeServerControls,
  parseJsonBody,
  type RecordedRequest,
  splitPath,
  startFakeHttpServer,
} from "./fake-http-server.js";

export interface FakeGitHubOptions {
  /** Token with read and write access. */
  token: string;
  /** Token that may read but not comment. */
  readOnlyToken?: string;
  /** "/api/v3" (GitHub Enterprise Server, the default) or "" (api.github.com layout). */
  apiPrefix?: "/api/v3" | "";
}

export interface FakeGitHubIssueInput {
  owner: string;
  repo: string;
  number: number;
  title: string;
  body?: string | null;
  state?: "open" | "closed";
  /** Make it a pull request: the issues API returns it with a pull_request key. */
  pullRequest?: boolean;
  /** Private repository: invisible (404) without a token. */
  private?: boolean;
  updatedAt?: string;
}

export interface FakeGitHubComment {
  id: number;
  owner: string;
  repo: string;
  number: number;
  body: string;
  createdAt: string;
}

export interface FakeGitHub extends FakeServerControls {
  /** What tack is configured with: the instance origin. */
  readonly instanceUrl: string;
  /** Where the REST API is served: instanceUrl + apiPrefix. */
  readonly apiUrl: string;
  readonly comments: FakeGitHubComment[];
  addIssue(issue: FakeGitHubIssueInput): void;
  transferIssue(
    from: { owner: string; repo: string; number: number },
    to: { owner: string; repo: string; number: number },
  ): void;
  /** Make the next (matching) request fail with this status and a GitHub-shaped error body. */
  failNext(status: number, options?: FailNextOptions): void;
  exhaustRateLimit(): void;
  resetRateLimit(): void;
}

const DOCS = "https://docs.github.com/rest";
const RATE_LIMIT = 5000;
const USER = { login: "tack-bot", id: 4242 };

type StoredIssue = Required<Omit<FakeGitHubIssueInput, "updatedAt">> & {
  id: number;
  createdAt: string;
  updatedAt: string;
};

export async function startFakeGitHub(options: FakeGitHubOptions): Promise<FakeGitHub> {
  const prefix = options.apiPrefix ?? "/api/v3";
  const issues = new Map<string, StoredIssue>();
  const transfers = new Map<string, string>();
  const comments: FakeGitHubComment[] = [];
  let remaining = RATE_LIMIT;
  let nextId = 1000;

  const server = await startFakeHttpServer((request) => {
    const response = route(request);
    return { ...response, headers: { ...rateLimitHeaders(), ...response.headers } };
  });
  const apiUrl = server.origin + prefix;
  const key = (owner: string, repo: string, number: number | string) =>
    `${owner}/${repo}#${number}`.toLowerCase();

  function rateLimitHeaders(): Record<string, string> {
    return {
      "x-ratelimit-limit": String(RATE_LIMIT),
      "x-ratelimit-remaining": String(remaining),
      "x-ratelimit-used": String(RATE_LIMIT - remaining),
      "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
      "x-ratelimit-resource": "core",
      "x-github-api-version-selected": "2022-11-28",
    };
  }

  function route(request: RecordedRequest): FakeResponse {
    if (!request.headers["user-agent"]) {
      return {
        status: 403,
        body: "Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required). Check https://developer.github.com for other possible causes.\n",
      };
    }
    const auth = authenticate(request.headers.authorization);
    if (auth === "invalid") return error(401, "Bad credentials");
    if (remaining === 0) {
      return error(
        403,
        `API rate limit exceeded for user ID ${USER.id}.`,
        `${DOCS}/overview/rate-limits-for-the-rest-api`,
      );
    }
    remaining -= 1;

    if (!request.path.startsWith(`${prefix}/`)) return error(404, "Not Found");
    const { segments } = splitPath(request.path.slice(prefix.length));
    if (request.method === "GET" && segments.length === 0) {
      return { status: 200, body: rootDocument() };
    }

    const [repos, owner = "", repo = "", issuesSegment, number = "", commentsSegment] = segments;
    if (repos !== "repos" || issuesSegment !== "issues" || !/^\d+$/.test(number)) {
      return error(404, "Not Found");
    }
    const moved = transfers.get(key(owner, repo, number));
    if (moved !== undefined && request.method === "GET" && segments.length === 5) {
      const location = `${apiUrl}/repos/${moved}`;
      return {
        status: 301,
        headers: { location },
        body: { message: "Moved Permanently", url: location, documentation_url: DOCS },
      };
    }
    const issue = issues.get(key(owner, repo, number));
    if (issue === undefined || (issue.private && auth === "anonymous")) {
      return error(404, "Not Found");
    }

    if (request.method === "GET" && segments.length === 5) {
      return { status: 200, body: issueJson(issue) };
    }
    if (request.method === "POST" && segments.length === 6 && commentsSegment === "comments") {
      if (auth === "anonymous") return error(401, "Requires authentication");
      if (auth === "read") {
        return error(
          403,
          "Resource not accessible by personal access token",
          `${DOCS}/issues/comments#create-an-issue-comment`,
        );
      }
      return createComment(issue, request);
    }
    return error(404, "Not Found");
  }

  function authenticate(header: string | undefined): "anonymous" | "invalid" | "read" | "write" {
    if (header === undefined) return "anonymous";
    const match = /^(?:Bearer|token) (.+)$/i.exec(header);
    if (match?.[1] === options.token) return "write";
    if (options.readOnlyToken !== undefined && match?.[1] === options.readOnlyToken) return "read";
    return "invalid";
  }

  function createComment(issue: StoredIssue, request: RecordedRequest): FakeResponse {
    const body = parseJsonBody(request) as { body?: unknown } | undefined;
    if (body === undefined) return error(400, "Problems parsing JSON");
    if (typeof body.body !== "string" || body.body === "") {
      return {
        status: 422,
        body: {
          message: "Validation Failed",
          errors: [{ resource: "IssueComment", code: "missing_field", field: "body" }],
          documentation_url: `${DOCS}/issues/comments#create-an-issue-comment`,
          status: "422",
        },
      };
    }
    const createdAt = timestamp();
    const comment = {
      id: nextId++,
      owner: issue.owner,
      repo: issue.repo,
      number: issue.number,
      body: body.body,
      createdAt,
    };
    comments.push(comment);
    issue.updatedAt = createdAt;
    const issueApi = `${apiUrl}/repos/${issue.owner}/${issue.repo}/issues/${issue.number}`;
    return {
      status: 201,
      headers: {
        location: `${apiUrl}/repos/${issue.owner}/${issue.repo}/issues/comments/${comment.id}`,
      },
      body: {
        id: comment.id,
        node_id: `IC_kwDO${comment.id}`,
        url: `${apiUrl}/repos/${issue.owner}/${issue.repo}/issues/comments/${comment.id}`,
        html_url: `${webUrl(issue)}#issuecomment-${comment.id}`,
        body: comment.body,
        user: userJson(),
        created_at: createdAt,
        updated_at: createdAt,
        issue_url: issueApi,
        author_association: "OWNER",
        performed_via_github_app: null,
        reactions: reactionsJson(
          `${apiUrl}/repos/${issue.owner}/${issue.repo}/issues/comments/${comment.id}/reactions`,
        ),
      },
    };
  }

  function webUrl(issue: StoredIssue): string {
    // On github.com the web host differs from the API host; Enterprise serves both on one origin.
    const kind = issue.pullRequest ? "pull" : "issues";
    return `${server.origin}/${issue.owner}/${issue.repo}/${kind}/${issue.number}`;
  }

  function issueJson(issue: StoredIssue) {
    const repoApi = `${apiUrl}/repos/${issue.owner}/${issue.repo}`;
    const issueApi = `${repoApi}/issues/${issue.number}`;
    return {
      url: issueApi,
      repository_url: repoApi,
      labels_url: `${issueApi}/labels{/name}`,
      comments_url: `${issueApi}/comments`,
      events_url: `${issueApi}/events`,
      html_url: webUrl(issue),
      id: issue.id,
      node_id: `I_kwDO${issue.id}`,
      number: issue.number,
      title: issue.title,
      user: userJson(),
      labels: [
        {
          id: 1,
          node_id: "LA_1",
          url: `${repoApi}/labels/bug`,
          name: "bug",
          color: "d73a4a",
          default: true,
          description: "Something isn't working",
        },
      ],
      state: issue.state,
      state_reason: issue.state === "closed" ? "completed" : null,
      locked: false,
      assignee: null,
      assignees: [],
      milestone: null,
      comments: comments.filter(
        (c) => key(c.owner, c.repo, c.number) === key(issue.owner, issue.repo, issue.number),
      ).length,
      created_at: issue.createdAt,
      updated_at: issue.updatedAt,
      closed_at: issue.state === "closed" ? issue.updatedAt : null,
      author_association: "OWNER",
      active_lock_reason: null,
      ...(issue.pullRequest
        ? {
            draft: false,
            pull_request: {
              url: `${repoApi}/pulls/${issue.number}`,
              html_url: webUrl(issue),
              diff_url: `${webUrl(issue)}.diff`,
              patch_url: `${webUrl(issue)}.patch`,
              merged_at: null,
            },
          }
        : {}),
      body: issue.body,
      closed_by: null,
      reactions: reactionsJson(`${issueApi}/reactions`),
      timeline_url: `${issueApi}/timeline`,
      performed_via_github_app: null,
    };
  }

  function userJson() {
    return {
      login: USER.login,
      id: USER.id,
      node_id: "MDQ6VXNlcjQyNDI=",
      avatar_url: `${server.origin}/avatars/u/${USER.id}`,
      url: `${apiUrl}/users/${USER.login}`,
      html_url: `${server.origin}/${USER.login}`,
      type: "User",
      site_admin: false,
    };
  }

  function rootDocument() {
    return {
      current_user_url: `${apiUrl}/user`,
      issue_url: `${apiUrl}/repos/{owner}/{repo}/issues/{issue_number}`,
      rate_limit_url: `${apiUrl}/rate_limit`,
      repository_url: `${apiUrl}/repos/{owner}/{repo}`,
    };
  }

  function error(status: number, message: string, documentationUrl = DOCS): FakeResponse {
    return {
      status,
      body: { message, documentation_url: documentationUrl, status: String(status) },
    };
  }

  return {
    ...server,
    instanceUrl: server.origin,
    apiUrl,
    comments,
    addIssue(input) {
      const now = timestamp();
      issues.set(key(input.owner, input.repo, input.number), {
        owner: input.owner,
        repo: input.repo,
        number: input.number,
        title: input.title,
        body: input.body === undefined ? "" : input.body,
        state: input.state ?? "open",
        pullRequest: input.pullRequest ?? false,
        private: input.private ?? false,
        id: nextId++,
        createdAt: now,
        updatedAt: input.updatedAt ?? now,
      });
    },
    transferIssue(from, to) {
      const issue = issues.get(key(from.owner, from.repo, from.number));
      if (issue === undefined) throw new Error("fake github: no such issue to transfer");
      issues.delete(key(from.owner, from.repo, from.number));
      const moved = { ...issue, owner: to.owner, repo: to.repo, number: to.number };
      issues.set(key(to.owner, to.repo, to.number), moved);
      // Real GitHub redirects to /repositories/<repo id>/issues/<n>; the fake redirects to the
      // /repos/<owner>/<repo> form of the same issue, which a client follows the same way.
      transfers.set(
        key(from.owner, from.repo, from.number),
        `${to.owner}/${to.repo}/issues/${to.number}`,
      );
    },
    failNext(status, failOptions = {}) {
      server.interceptNext(
        {
          ...error(status, failureMessage(status)),
          headers: { ...rateLimitHeaders(), ...failOptions.headers },
        },
        failOptions,
      );
    },
    exhaustRateLimit() {
      remaining = 0;
    },
    resetRateLimit() {
      remaining = RATE_LIMIT;
    },
  };
}

function failureMessage(status: number): string {
  if (status === 401) return "Bad credentials";
  if (status === 404) return "Not Found";
  if (status === 403) return "Forbidden";
  return "Server Error";
}

function reactionsJson(url: string) {
  return {
    url,
    total_count: 0,
    "+1": 0,
    "-1": 0,
    laugh: 0,
    hooray: 0,
    confused: 0,
    heart: 0,
    rocket: 0,
    eyes: 0,
  };
}

function timestamp(): string {
  // GitHub timestamps have whole seconds.
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}
