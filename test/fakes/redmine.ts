// A fake Redmine JSON REST server installed under a sub-path (default /redmine), with Redmine's
// paths, X-Redmine-API-Key auth, JSON shapes and empty-bodied errors; only the data is made up.
//
//   const rm = await startFakeRedmine({ token: "rm-key" });
//   rm.addIssue({ id: 42, project: { id: 3, name: "Tack Demo" }, subject: "Printer on fire" });
//   // configure tack with instance rm.instanceUrl (http://127.0.0.1:<port>/redmine)
//   rm.notes;              // notes (journals) received
//   await rm.close();
//
// Behaviour worth knowing (as a Redmine with "Authentication required" switched on):
// - Key in X-Redmine-API-Key or the `key` query parameter. Missing or unknown key: 401 with an
//   empty body and WWW-Authenticate. Errors (403, 404) have empty bodies, as Redmine's API does.
// - `readOnlyToken` belongs to a second user who may view but not edit: 403 on PUT.
// - PUT /issues/<id>.json {"issue":{"notes":"…"}} answers 204 without a body and adds a journal;
//   journals are listed only with ?include=journals.

import {
  type FailNextOptions,
  type FakeResponse,
  type FakeServerControls,
  parseJsonBody,
  type RecordedRequest,
  splitPath,
  startFakeHttpServer,
} from "./fake-http-server.js";

export interface FakeRedmineOptions {
  token: string;
  readOnlyToken?: string;
  /** Sub-path the instance lives under; "" for the host root. Default "/redmine". */
  basePath?: string;
}

export interface FakeRedmineIssueInput {
  id: number;
  project: { id: number; name: string };
  subject: string;
  description?: string | null;
  status?: { id: number; name: string; isClosed?: boolean };
  updatedOn?: string;
}

export interface FakeRedmineNote {
  journalId: number;
  issueId: number;
  userId: number;
  notes: string;
}

export interface FakeRedmine extends FakeServerControls {
  /** What tack is configured with: origin plus sub-path. */
  readonly instanceUrl: string;
  /** The user the read-write token belongs to. */
  readonly user: { id: number; name: string };
  readonly notes: FakeRedmineNote[];
  addIssue(issue: FakeRedmineIssueInput): void;
  /** Add a journal as if someone else had commented (for comment id tests). */
  addJournal(issueId: number, journal: { userId: number; userName: string; notes: string }): void;
  /** Make the next (matching) request fail with this status and Redmine's empty error body. */
  failNext(status: number, options?: FailNextOptions): void;
}

interface Journal {
  id: number;
  user: { id: number; name: string };
  notes: string;
  created_on: string;
  updated_on: string;
  private_notes: boolean;
  details: unknown[];
}

interface StoredIssue extends Required<Omit<FakeRedmineIssueInput, "updatedOn" | "status">> {
  status: { id: number; name: string; is_closed: boolean };
  createdOn: string;
  updatedOn: string;
  journals: Journal[];
}

const WRITER = { id: 5, login: "tack-bot", firstname: "Tack", lastname: "Bot" };
const READER = { id: 6, login: "viewer", firstname: "Read", lastname: "Only" };

export async function startFakeRedmine(options: FakeRedmineOptions): Promise<FakeRedmine> {
  const basePath = options.basePath ?? "/redmine";
  const issues = new Map<number, StoredIssue>();
  const notes: FakeRedmineNote[] = [];
  let nextJournalId = 900;

  const server = await startFakeHttpServer(route);
  const baseSegments = basePath.split("/").filter((s) => s !== "");

  function route(request: RecordedRequest): FakeResponse {
    const { segments, query } = splitPath(request.path);
    const user = authenticate(
      request.headers["x-redmine-api-key"] ?? query.get("key") ?? undefined,
    );
    if (user === null) {
      return { status: 401, headers: { "WWW-Authenticate": 'Basic realm="Redmine API"' } };
    }
    if (baseSegments.some((segment, i) => segments[i] !== segment)) return { status: 404 };
    const [resource, item, ...rest] = segments.slice(baseSegments.length);
    if (rest.length > 0) return { status: 404 };

    if (resource === "users" && item === "current.json" && request.method === "GET") {
      return { status: 200, body: { user: userJson(user) } };
    }
    const idMatch = resource === "issues" ? /^(\d+)\.json$/.exec(item ?? "") : null;
    const issue = idMatch ? issues.get(Number(idMatch[1])) : undefined;
    if (issue === undefined) return { status: 404 };

    if (request.method === "GET") {
      const includes = (query.get("include") ?? "").split(",");
      return { status: 200, body: { issue: issueJson(issue, includes.includes("journals")) } };
    }
    if (request.method === "PUT") {
      if (user.id !== WRITER.id) return { status: 403 };
      const body = parseJsonBody(request) as { issue?: { notes?: unknown } } | undefined;
      if (body === undefined) return { status: 400 };
      const text = body.issue?.notes;
      if (typeof text === "string" && text.trim() !== "") {
        const journal = addJournalTo(issue, { id: user.id, name: fullName(user) }, text);
        notes.push({ journalId: journal.id, issueId: issue.id, userId: user.id, notes: text });
      }
      return { status: 204 };
    }
    return { status: 404 };
  }

  function authenticate(key: string | string[] | undefined): typeof WRITER | null {
    if (key === options.token) return WRITER;
    if (options.readOnlyToken !== undefined && key === options.readOnlyToken) return READER;
    return null;
  }

  function addJournalTo(
    issue: StoredIssue,
    user: { id: number; name: string },
    text: string,
  ): Journal {
    const now = timestamp();
    const journal: Journal = {
      id: nextJournalId++,
      user,
      notes: text,
      created_on: now,
      updated_on: now,
      private_notes: false,
      details: [],
    };
    issue.journals.push(journal);
    issue.updatedOn = now;
    return journal;
  }

  function issueJson(issue: StoredIssue, withJournals: boolean) {
    return {
      id: issue.id,
      project: issue.project,
      tracker: { id: 1, name: "Bug" },
      status: issue.status,
      priority: { id: 2, name: "Normal" },
      author: { id: WRITER.id, name: fullName(WRITER) },
      subject: issue.subject,
      description: issue.description,
      start_date: issue.createdOn.slice(0, 10),
      due_date: null,
      done_ratio: 0,
      is_private: false,
      estimated_hours: null,
      total_estimated_hours: null,
      spent_hours: 0.0,
      total_spent_hours: 0.0,
      custom_fields: [{ id: 1, name: "Severity", value: "" }],
      created_on: issue.createdOn,
      updated_on: issue.updatedOn,
      closed_on: issue.status.is_closed ? issue.updatedOn : null,
      ...(withJournals ? { journals: issue.journals } : {}),
    };
  }

  function userJson(user: typeof WRITER) {
    return {
      id: user.id,
      login: user.login,
      admin: false,
      firstname: user.firstname,
      lastname: user.lastname,
      mail: `${user.login}@example.invalid`,
      created_on: "2024-01-02T03:04:05Z",
      updated_on: "2024-01-02T03:04:05Z",
      last_login_on: null,
      passwd_changed_on: null,
      twofa_scheme: null,
      // Redmine returns the key's own value here; the fake does the same, so a client that
      // logs this answer would leak it, which the adapter tests guard against.
      api_key: user.id === WRITER.id ? options.token : options.readOnlyToken,
      status: 1,
    };
  }

  return {
    ...server,
    instanceUrl: server.origin + basePath,
    user: { id: WRITER.id, name: fullName(WRITER) },
    notes,
    addIssue(input) {
      const now = timestamp();
      issues.set(input.id, {
        id: input.id,
        project: input.project,
        subject: input.subject,
        description: input.description === undefined ? "" : input.description,
        status: {
          id: input.status?.id ?? 1,
          name: input.status?.name ?? "New",
          is_closed: input.status?.isClosed ?? false,
        },
        createdOn: now,
        updatedOn: input.updatedOn ?? now,
        journals: [],
      });
    },
    addJournal(issueId, journal) {
      const issue = issues.get(issueId);
      if (issue === undefined) throw new Error("fake redmine: no such issue");
      addJournalTo(issue, { id: journal.userId, name: journal.userName }, journal.notes);
    },
    failNext(status, failOptions = {}) {
      server.interceptNext({ status, headers: failOptions.headers ?? {} }, failOptions);
    },
  };
}

function fullName(user: { firstname: string; lastname: string }): string {
  return `${user.firstname} ${user.lastname}`;
}

function timestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}
