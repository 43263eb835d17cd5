// A fake GitLab REST v4 server for the calls tack makes, with the real paths, auth, JSON shapes,
// error bodies and RateLimit-* headers; only the data is made up.
//
//   const gl = await startFakeGitLab({ token: "glpat-test" });
//   gl.addIssue({ projectPath: "group/sub/app", iid: 7, title: "Crash" });
//   // configure tack with instance gl.instanceUrl; API at gl.instanceUrl + "/api/v4"
//   gl.notes;              // notes (comments) received
//   await gl.close();
//
// Behaviour worth knowing:
// - Token in PRIVATE-TOKEN or "Authorization: Bearer". An unknown token is 401
//   {"message":"401 Unauthorized"}; no token is anonymous: public projects readable, private
//   ones 404 "Project Not Found", writes 401.
// - `readOnlyToken` (a read_api token) gets 403 insufficient_scope on writes.
// - Projects are found by URL-encoded full path (group%2Fsub%2Fapp) or numeric id,
//   case-insensitively.
// - `exhaustRateLimit()` makes every request 429 "Retry later" until reset.
// - Issues with type "task" live at /-/work_items/<iid> in the web UI but are served by the
//   issues API like any issue.

import {
  type FailNextOptions,
  type FakeResponse,
  type FakeServerControls,
  parseJsonBody,
  type RecordedRequest,
  splitPath,
  startFakeHttpServer,
} from "./fake-http-server.js";

export interface FakeGitLabOptions {
  token: string;
  readOnlyToken?: string;
}

export interface FakeGitLabIssueInput {
  /** Full project path, e.g. "group/subgroup/project". */
  projectPath: string;
  iid: number;
  title: string;
  description?: string | null;
  state?: "opened" | "closed";
  type?: "issue" | "incident" | "task";
  visibility?: "public" | "private";
  updatedAt?: string;
}

export interface FakeGitLabNote {
  id: number;
  projectPath: string;
  iid: number;
  body: string;
  createdAt: string;
}

export interface FakeGitLab extends FakeServerControls {
  readonly instanceUrl: string;
  readonly notes: FakeGitLabNote[];
  addIssue(issue: FakeGitLabIssueInput): void;
  /** Make the next (matching) request fail with this status and a GitLab-shaped error body. */
  failNext(status: number, options?: FailNextOptions): void;
  exhaustRateLimit(): void;
  resetRateLimit(): void;
}

const RATE_LIMIT = 2000;
const USER = { id: 77, username: "tack-bot", name: "Tack Bot" };

interface StoredProject {
  id: number;
  path: string;
  visibility: "public" | "private";
}

interface StoredIssue {
  id: number;
  project: StoredProject;
  iid: number;
  title: string;
  description: string | null;
  state: "opened" | "closed";
  type: "issue" | "incident" | "task";
  createdAt: string;
  updatedAt: string;
}

export async function startFakeGitLab(options: FakeGitLabOptions): Promise<FakeGitLab> {
  const projects = new Map<string, StoredProject>();
  const issues = new Map<string, StoredIssue>();
  const notes: FakeGitLabNote[] = [];
  let observed = 0;
  let exhausted = false;
  let nextId = 500;

  const server = await startFakeHttpServer((request) => {
    observed += 1;
    if (exhausted) return tooManyRequests();
    const response = route(request);
    return { ...response, headers: { ...rateLimitHeaders(), ...response.headers } };
  });

  function rateLimitHeaders(): Record<string, string> {
    const reset = Math.floor(Date.now() / 1000) + 60;
    return {
      "RateLimit-Limit": String(RATE_LIMIT),
      "RateLimit-Observed": String(observed),
      "RateLimit-Remaining": String(Math.max(0, RATE_LIMIT - observed)),
      "RateLimit-Reset": String(reset),
      "RateLimit-ResetTime": new Date(reset * 1000).toUTCString(),
    };
  }

  function tooManyRequests(): FakeResponse {
    return {
      status: 429,
      headers: { ...rateLimitHeaders(), "RateLimit-Remaining": "0", "Retry-After": "60" },
      body: "Retry later\n",
    };
  }

  function route(request: RecordedRequest): FakeResponse {
    const auth = authenticate(request);
    if (auth === "invalid") return { status: 401, body: { message: "401 Unauthorized" } };

    const { segments } = splitPath(request.path);
    const [api, version, resource, projectId = "", issuesSegment, iid = "", notesSegment] =
      segments;
    if (api !== "api" || version !== "v4") return { status: 404, body: { error: "404 Not Found" } };
    if (resource === "user" && segments.length === 3 && request.method === "GET") {
      return auth === "anonymous"
        ? { status: 401, body: { message: "401 Unauthorized" } }
        : { status: 200, body: userJson() };
    }
    if (resource !== "projects" || issuesSegment !== "issues" || !/^\d+$/.test(iid)) {
      return { status: 404, body: { error: "404 Not Found" } };
    }
    const project = findProject(decodeURIComponent(projectId));
    if (project === undefined || (project.visibility === "private" && auth === "anonymous")) {
      return { status: 404, body: { message: "404 Project Not Found" } };
    }
    const issue = issues.get(issueKey(project.path, iid));
    if (issue === undefined) return { status: 404, body: { message: "404 Not found" } };

    if (request.method === "GET" && segments.length === 6) {
      return { status: 200, body: issueJson(issue) };
    }
    if (request.method === "POST" && segments.length === 7 && notesSegment === "notes") {
      if (auth === "anonymous") return { status: 401, body: { message: "401 Unauthorized" } };
      if (auth === "read") {
        return {
          status: 403,
          body: {
            error: "insufficient_scope",
            error_description:
              "The request requires higher privileges than provided by the access token.",
            scope: "api",
          },
        };
      }
      return createNote(issue, request);
    }
    return { status: 404, body: { error: "404 Not Found" } };
  }

  function authenticate(request: RecordedRequest): "anonymous" | "invalid" | "read" | "write" {
    const privateToken = request.headers["private-token"];
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1];
    const token = typeof privateToken === "string" ? privateToken : bearer;
    if (token === undefined) return "anonymous";
    if (token === options.token) return "write";
    if (options.readOnlyToken !== undefined && token === options.readOnlyToken) return "read";
    return "invalid";
  }

  function findProject(idOrPath: string): StoredProject | undefined {
    if (/^\d+$/.test(idOrPath)) {
      return [...projects.values()].find((p) => String(p.id) === idOrPath);
    }
    return projects.get(idOrPath.toLowerCase());
  }

  function createNote(issue: StoredIssue, request: RecordedRequest): FakeResponse {
    const body = parseJsonBody(request) as { body?: unknown } | undefined;
    if (typeof body?.body !== "string" || body.body.trim() === "") {
      return { status: 400, body: { error: "body is missing" } };
    }
    const createdAt = new Date().toISOString();
    const note = {
      id: nextId++,
      projectPath: issue.project.path,
      iid: issue.iid,
      body: body.body,
      createdAt,
    };
    notes.push(note);
    issue.updatedAt = createdAt;
    return {
      status: 201,
      body: {
        id: note.id,
        type: null,
        body: note.body,
        attachment: null,
        author: userJson(),
        created_at: createdAt,
        updated_at: createdAt,
        system: false,
        noteable_id: issue.id,
        noteable_type: "Issue",
        project_id: issue.project.id,
        resolvable: false,
        confidential: false,
        internal: false,
        imported: false,
        imported_from: "none",
        noteable_iid: issue.iid,
        commands_changes: {},
      },
    };
  }

  function issueJson(issue: StoredIssue) {
    const projectWeb = `${server.origin}/${issue.project.path}`;
    const webKind = issue.type === "task" ? "work_items" : "issues";
    const issueApi = `${server.origin}/api/v4/projects/${issue.project.id}/issues/${issue.iid}`;
    return {
      id: issue.id,
      iid: issue.iid,
      project_id: issue.project.id,
      title: issue.title,
      description: issue.description,
      state: issue.state,
      created_at: issue.createdAt,
      updated_at: issue.updatedAt,
      closed_at: issue.state === "closed" ? issue.updatedAt : null,
      closed_by: null,
      labels: ["bug"],
      milestone: null,
      assignees: [],
      author: userJson(),
      type: issue.type.toUpperCase(),
      assignee: null,
      user_notes_count: notes.filter(
        (n) => issueKey(n.projectPath, n.iid) === issueKey(issue.project.path, issue.iid),
      ).length,
      merge_requests_count: 0,
      upvotes: 0,
      downvotes: 0,
      due_date: null,
      confidential: false,
      discussion_locked: null,
      issue_type: issue.type,
      web_url: `${projectWeb}/-/${webKind}/${issue.iid}`,
      time_stats: {
        time_estimate: 0,
        total_time_spent: 0,
        human_time_estimate: null,
        human_total_time_spent: null,
      },
      task_completion_status: { count: 0, completed_count: 0 },
      has_tasks: true,
      task_status: "0 of 0 checklist items completed",
      _links: {
        self: issueApi,
        notes: `${issueApi}/notes`,
        award_emoji: `${issueApi}/award_emoji`,
        project: `${server.origin}/api/v4/projects/${issue.project.id}`,
        closed_as_duplicate_of: null,
      },
      references: {
        short: `#${issue.iid}`,
        relative: `#${issue.iid}`,
        full: `${issue.project.path}#${issue.iid}`,
      },
      severity: "UNKNOWN",
      moved_to_id: null,
      imported: false,
      imported_from: "none",
      service_desk_reply_to: null,
    };
  }

  function userJson() {
    return {
      id: USER.id,
      username: USER.username,
      name: USER.name,
      state: "active",
      locked: false,
      avatar_url: `${server.origin}/uploads/-/system/user/avatar/${USER.id}/avatar.png`,
      web_url: `${server.origin}/${USER.username}`,
    };
  }

  return {
    ...server,
    instanceUrl: server.origin,
    notes,
    addIssue(input) {
      const lookup = input.projectPath.toLowerCase();
      let project = projects.get(lookup);
      if (project === undefined) {
        project = {
          id: nextId++,
          path: input.projectPath,
          visibility: input.visibility ?? "public",
        };
        projects.set(lookup, project);
      }
      const now = new Date().toISOString();
      issues.set(issueKey(project.path, input.iid), {
        id: nextId++,
        project,
        iid: input.iid,
        title: input.title,
        description: input.description === undefined ? "" : input.description,
        state: input.state ?? "opened",
        type: input.type ?? "issue",
        createdAt: now,
        updatedAt: input.updatedAt ?? now,
      });
    },
    failNext(status, failOptions = {}) {
      const body =
        status === 429 ? "Retry later\n" : { message: `${status} ${statusText(status)}` };
      server.interceptNext(
        { status, body, headers: { ...rateLimitHeaders(), ...failOptions.headers } },
        failOptions,
      );
    },
    exhaustRateLimit() {
      exhausted = true;
    },
    resetRateLimit() {
      exhausted = false;
    },
  };
}

function issueKey(projectPath: string, iid: number | string): string {
  return `${projectPath.toLowerCase()}#${iid}`;
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    500: "Internal Server Error",
    502: "Bad Gateway",
  };
  return texts[status] ?? "Error";
}
