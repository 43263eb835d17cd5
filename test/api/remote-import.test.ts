import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github.js";
import { type FakeGitLab, startFakeGitLab } from "../fakes/gitlab.js";
import { type FakeRedmine, startFakeRedmine } from "../fakes/redmine.js";
import { assertError } from "../helpers/factories.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import {
  actionsOf,
  activityOf,
  type BoardLanes,
  createBoard,
  credentialsEnv,
  importIssue,
  TOKENS,
  ticketCount,
} from "./remote-fixtures.js";

// Top-level setup: startTestServer closes the server when the file ends.
const gh: FakeGitHub = await startFakeGitHub({ token: TOKENS.github });
const gl: FakeGitLab = await startFakeGitLab({ token: TOKENS.gitlab });
const rm: FakeRedmine = await startFakeRedmine({ token: TOKENS.redmine });
after(() => Promise.all([gh.close(), gl.close(), rm.close()]));
const api: TestServer = await startTestServer({
  env: credentialsEnv({
    [`github:${gh.instanceUrl}`]: TOKENS.github,
    [`gitlab:${gl.instanceUrl}`]: TOKENS.gitlab,
    [`redmine:${rm.instanceUrl}`]: TOKENS.redmine,
  }),
});
const board: BoardLanes = await createBoard(api, "Work");

const importPath = (boardId: number) => `/api/boards/${boardId}/remote-import`;
const previewPath = (boardId: number) => `/api/boards/${boardId}/remote-import/preview`;

describe("import", () => {
  test("a github issue becomes a tracked ticket: remote title, body copied, snapshot rendered", async () => {
    gh.addIssue({
      owner: "octo",
      repo: "hello",
      number: 1,
      title: "Printer on fire",
      body: "Steps: **smoke**\n<script>alert(1)</script>",
      updatedAt: "2024-05-06T07:08:09Z",
    });
    const ticket = await importIssue(api, board, {
      provider: "github",
      instanceUrl: gh.instanceUrl,
      projectKey: "octo/hello",
      issueKey: "1",
      laneId: board.laneIds[1],
    });

    assert.equal(ticket.title, "Printer on fire");
    assert.equal(ticket.laneId, board.laneIds[1]);
    assert.equal(ticket.bodyMarkdown, "Steps: **smoke**\n<script>alert(1)</script>");
    assert.match(ticket.bodyHtml, /<strong>smoke<\/strong>/);
    const { createdAt, updatedAt, lastSyncedAt, ...remote } = ticket.remote;
    assert.deepEqual(remote, {
      ticketId: ticket.id,
      provider: "github",
      instanceUrl: gh.instanceUrl,
      resourceType: "issue",
      projectKey: "octo/hello",
      issueKey: "1",
      displayRef: "octo/hello#1",
      url: `${gh.instanceUrl}/octo/hello/issues/1`,
      title: "Printer on fire",
      bodyMarkdown: "Steps: **smoke**\n<script>alert(1)</script>",
      bodyHtml: remote.bodyHtml,
      state: "open",
      remoteUpdatedAt: "2024-05-06T07:08:09.000Z",
    });
    assert.match(remote.bodyHtml, /<strong>smoke<\/strong>/);
    assert.doesNotMatch(remote.bodyHtml, /<script/i);
    for (const stamp of [createdAt, updatedAt, lastSyncedAt])
      assert.ok(!Number.isNaN(Date.parse(stamp)));

    const request = gh.requests.at(-1);
    assert.equal(request?.method, "GET");
    assert.equal(request?.path, "/api/v3/repos/octo/hello/issues/1");
    assert.equal(request?.headers.authorization, `Bearer ${TOKENS.github}`);

    const summaries = (await api.get(`/api/boards/${board.boardId}/tickets`)).body.tickets;
    const summary = summaries.find((candidate: any) => candidate.id === ticket.id);
    assert.deepEqual(summary.remote, {
      provider: "github",
      displayRef: "octo/hello#1",
      url: `${gh.instanceUrl}/octo/hello/issues/1`,
    });
    assert.deepEqual((await api.get(`/api/tickets/${ticket.id}`)).body, ticket);

    const activity = await activityOf(api, ticket.id);
    const imported = activity.find((entry) => entry.action === "remote_imported");
    assert.equal(imported?.message, "Imported from octo/hello#1");
    assert.equal(imported?.details.displayRef, "octo/hello#1");
  });

  test("a gitlab issue by url, nested groups and GitLab's full reference", async () => {
    gl.addIssue({ projectPath: "group/sub/app", iid: 7, title: "Crash", description: "trace" });
    const ticket = await importIssue(api, board, {
      provider: "gitlab",
      url: `${gl.instanceUrl}/group/sub/app/-/issues/7`,
    });
    assert.equal(ticket.title, "Crash");
    assert.equal(ticket.bodyMarkdown, "trace");
    assert.equal(ticket.remote.projectKey, "group/sub/app");
    assert.equal(ticket.remote.issueKey, "7");
    assert.equal(ticket.remote.displayRef, "group/sub/app#7");
    assert.equal(ticket.remote.state, "opened");
    assert.equal(gl.requests.at(-1)?.path, "/api/v4/projects/group%2Fsub%2Fapp/issues/7");
    assert.equal(gl.requests.at(-1)?.headers["private-token"], TOKENS.gitlab);
  });

  test("a redmine issue under a sub-path: project id as projectKey, status name as state", async () => {
    rm.addIssue({
      id: 42,
      project: { id: 3, name: "Tack Demo" },
      subject: "Printer jam",
      description: "paper",
      status: { id: 2, name: "In Progress" },
    });
    const ticket = await importIssue(api, board, {
      provider: "redmine",
      url: `${rm.instanceUrl}/issues/42`,
    });
    assert.equal(ticket.title, "Printer jam");
    assert.equal(ticket.remote.instanceUrl, rm.instanceUrl);
    assert.equal(ticket.remote.projectKey, "3");
    assert.equal(ticket.remote.displayRef, "Tack Demo #42");
    assert.equal(ticket.remote.url, `${rm.instanceUrl}/issues/42`);
    assert.equal(ticket.remote.state, "In Progress");
    assert.equal(rm.requests.at(-1)?.path, "/redmine/issues/42.json");
  });

  test("laneId must be a lane of the board; checked before the provider is contacted", async () => {
    const other = await createBoard(api, "Other");
    const requestsBefore = gh.requests.length;
    const response = await api.post(importPath(board.boardId), {
      provider: "github",
      instanceUrl: gh.instanceUrl,
      projectKey: "octo/hello",
      issueKey: "1",
      laneId: other.laneIds[0],
    });
    assertError(response, 400, "laneId is not a lane of this board");
    assert.equal(gh.requests.length, requestsBefore);
  });

  test("an unknown board is 404; a malformed body is 400 naming the field", async () => {
    assertError(
      await api.post(importPath(999_999), { provider: "github", laneId: 1, url: "x" }),
      404,
      "board not found",
    );
    assertError(
      await api.post(importPath(board.boardId), { provider: "github" }),
      400,
      "laneId is required",
    );
    assertError(
      await api.post(importPath(board.boardId), {
        provider: "github",
        laneId: board.laneIds[0],
        issueKey: 12,
      }),
      400,
      "issueKey must be a string",
    );
  });

  test("references are checked: unknown provider, a url of another kind, a missing key", async () => {
    const post = (body: Record<string, unknown>) =>
      api.post(importPath(board.boardId), { laneId: board.laneIds[0], ...body });
    assertError(
      await post({ provider: "jira", issueKey: "1" }),
      400,
      "provider must be one of github, gitlab, redmine",
    );
    assertError(
      await post({ provider: "github", url: `${gh.instanceUrl}/octo/hello/pull/1` }),
      400,
      "url is not a github issue url",
    );
    assertError(
      await post({ provider: "github", instanceUrl: gh.instanceUrl, projectKey: "octo/hello" }),
      400,
      "issueKey is required",
    );
    assertError(
      await post({ provider: "redmine", issueKey: "42" }),
      400,
      "instanceUrl or url is required for redmine",
    );
    assertError(
      await post({ provider: "gitlab", url: "http://gitlab.example.com/g/p/-/issues/1" }),
      400,
      "url must use https",
    );
  });

  test("provider failures are 400 with tack's own sentence, never the upstream body", async () => {
    const post = () =>
      api.post(importPath(board.boardId), {
        provider: "github",
        instanceUrl: gh.instanceUrl,
        projectKey: "octo/hello",
        issueKey: "404",
        laneId: board.laneIds[0],
      });
    const before = await ticketCount(api, board.boardId);
    assertError(
      await post(),
      400,
      "github issue octo/hello#404 was not found or is not visible to the credential",
    );
    gh.failNext(401);
    assertError(await post(), 400, `github rejected the credential for ${gh.instanceUrl}`);
    gh.failNext(500);
    assertError(await post(), 400, "github answered with http status 500");
    gh.exhaustRateLimit();
    try {
      assertError(await post(), 400, "github rate limit reached; try again later");
    } finally {
      gh.resetRateLimit();
    }
    assert.equal(await ticketCount(api, board.boardId), before);
  });
});

describe("preview and duplicates", () => {
  test("preview fetches the issue and creates nothing", async () => {
    gh.addIssue({ owner: "octo", repo: "hello", number: 5, title: "Preview me", state: "closed" });
    const before = await ticketCount(api, board.boardId);
    const response = await api.post(previewPath(board.boardId), {
      provider: "github",
      url: `${gh.instanceUrl}/octo/hello/issues/5`,
      laneId: board.laneIds[0],
    });
    assert.equal(response.status, 200, response.text);
    const { remoteUpdatedAt, ...rest } = response.body;
    assert.deepEqual(rest, {
      provider: "github",
      instanceUrl: gh.instanceUrl,
      resourceType: "issue",
      projectKey: "octo/hello",
      issueKey: "5",
      displayRef: "octo/hello#5",
      url: `${gh.instanceUrl}/octo/hello/issues/5`,
      title: "Preview me",
      state: "closed",
      duplicate: false,
      existingTicketId: null,
      existingTicketRef: null,
    });
    assert.ok(!Number.isNaN(Date.parse(remoteUpdatedAt)));
    assert.equal(await ticketCount(api, board.boardId), before);
  });

  test("preview applies the import's local checks", async () => {
    const other = await createBoard(api, "Elsewhere");
    assertError(
      await api.post(previewPath(board.boardId), {
        provider: "github",
        url: `${gh.instanceUrl}/octo/hello/issues/5`,
        laneId: other.laneIds[0],
      }),
      400,
      "laneId is not a lane of this board",
    );
    assertError(
      await api.post(previewPath(999_999), { provider: "github", laneId: 1, issueKey: "1" }),
      404,
    );
  });

  test("one ticket per remote issue: 409 from any board, however the reference is written", async () => {
    gh.addIssue({ owner: "Octo", repo: "Dupes", number: 9, title: "Only once" });
    const first = await importIssue(api, board, {
      provider: "github",
      instanceUrl: gh.instanceUrl,
      projectKey: "Octo/Dupes",
      issueKey: "9",
    });
    const other = await createBoard(api, "Second");
    const total = (await ticketCount(api, board.boardId)) + (await ticketCount(api, other.boardId));

    for (const reference of [
      { instanceUrl: gh.instanceUrl, projectKey: "Octo/Dupes", issueKey: "9" },
      { url: `${gh.instanceUrl}/octo/dupes/issues/0009` },
    ]) {
      const response = await api.post(importPath(other.boardId), {
        provider: "github",
        laneId: other.laneIds[0],
        ...reference,
      });
      assertError(response, 409, `Octo/Dupes#9 is already tracked by Work#${first.id}`);

      const preview = await api.post(previewPath(other.boardId), {
        provider: "github",
        laneId: other.laneIds[0],
        ...reference,
      });
      assert.equal(preview.status, 200, preview.text);
      assert.equal(preview.body.duplicate, true);
      assert.equal(preview.body.existingTicketId, first.id);
      assert.equal(preview.body.existingTicketRef, `Work#${first.id}`);
    }
    const after = (await ticketCount(api, board.boardId)) + (await ticketCount(api, other.boardId));
    assert.equal(after, total);
  });

  test("two concurrent imports of one issue create one ticket", async () => {
    gh.addIssue({ owner: "octo", repo: "race", number: 1, title: "Raced" });
    gh.setDelay(50);
    try {
      const body = {
        provider: "github",
        url: `${gh.instanceUrl}/octo/race/issues/1`,
        laneId: board.laneIds[0],
      };
      const results = await Promise.all([
        api.post(importPath(board.boardId), body),
        api.post(importPath(board.boardId), body),
      ]);
      assert.deepEqual(results.map((result) => result.status).sort(), [201, 409]);
    } finally {
      gh.setDelay(0);
    }
  });
});

describe("backlink comments", () => {
  const reference = (number: number) => ({
    provider: "github",
    url: `${gh.instanceUrl}/octo/links/issues/${number}`,
  });

  test("postBacklinkComment posts the ticket reference, with backlinkUrl when given", async () => {
    gh.addIssue({ owner: "octo", repo: "links", number: 1, title: "Linked" });
    gh.addIssue({ owner: "octo", repo: "links", number: 2, title: "Linked with url" });
    const plain = await importIssue(api, board, { ...reference(1), postBacklinkComment: true });
    const withUrl = await importIssue(api, board, {
      ...reference(2),
      postBacklinkComment: true,
      backlinkUrl: "https://tack.example/tickets/2",
    });
    const posted = gh.comments.filter((comment) => comment.repo === "links");
    assert.deepEqual(
      posted.map((comment) => [comment.number, comment.body]),
      [
        [1, `Imported into tack as Work#${plain.id}.`],
        [2, `Imported into tack as Work#${withUrl.id}: https://tack.example/tickets/2`],
      ],
    );
    const entry = (await activityOf(api, plain.id)).find(
      (item) => item.action === "remote_backlink_posted",
    );
    assert.equal(entry?.details.remoteCommentId, String(posted[0]?.id));
  });

  test("without postBacklinkComment nothing is posted, even with a backlinkUrl", async () => {
    gh.addIssue({ owner: "octo", repo: "links", number: 3, title: "Quiet" });
    const before = gh.comments.length;
    const ticket = await importIssue(api, board, {
      ...reference(3),
      backlinkUrl: "https://tack.example/3",
    });
    assert.equal(gh.comments.length, before);
    assert.ok(
      !(await actionsOf(api, ticket.id)).some((action) => action.startsWith("remote_backlink")),
    );
  });

  test("a failed backlink never fails the import; activity records it", async () => {
    gh.addIssue({ owner: "octo", repo: "links", number: 4, title: "Backlink fails" });
    gh.failNext(500, { when: (request) => request.method === "POST" });
    const ticket = await importIssue(api, board, { ...reference(4), postBacklinkComment: true });
    assert.equal(ticket.remote.displayRef, "octo/links#4");
    const entry = (await activityOf(api, ticket.id)).find(
      (item) => item.action === "remote_backlink_failed",
    );
    assert.equal(entry?.details.error, "github answered with http status 500");
    assert.ok(!(await actionsOf(api, ticket.id)).includes("remote_backlink_posted"));
  });

  test("backlinkUrl must be an absolute http(s) url, checked before anything happens", async () => {
    gh.addIssue({ owner: "octo", repo: "links", number: 5, title: "Bad url" });
    const before = { requests: gh.requests.length, tickets: await ticketCount(api, board.boardId) };
    for (const backlinkUrl of ["/tickets/5", "ftp://tack.example/5", "javascript:alert(1)", ""]) {
      const response = await api.post(importPath(board.boardId), {
        ...reference(5),
        laneId: board.laneIds[0],
        postBacklinkComment: true,
        backlinkUrl,
      });
      assertError(response, 400, "backlinkUrl must be an absolute http or https url");
    }
    assert.equal(gh.requests.length, before.requests);
    assert.equal(await ticketCount(api, board.boardId), before.tickets);
  });
});

describe("search finds tracked references (docs/api.md, 'Search')", () => {
  test("gh#, github#, gl#, rm#, remote# find imported tickets; ext# does not", async () => {
    const searchBoard = await createBoard(api, "Search");
    gh.addIssue({ owner: "octo", repo: "find", number: 12, title: "Find on github" });
    gl.addIssue({ projectPath: "team/find", iid: 12, title: "Find on gitlab" });
    rm.addIssue({ id: 12, project: { id: 4, name: "Finder" }, subject: "Find on redmine" });
    const ghTicket = await importIssue(api, searchBoard, {
      provider: "github",
      url: `${gh.instanceUrl}/octo/find/issues/12`,
    });
    const glTicket = await importIssue(api, searchBoard, {
      provider: "gitlab",
      url: `${gl.instanceUrl}/team/find/-/issues/12`,
    });
    const rmTicket = await importIssue(api, searchBoard, {
      provider: "redmine",
      url: `${rm.instanceUrl}/issues/12`,
    });
    const plain = await api.post(`/api/boards/${searchBoard.boardId}/tickets`, {
      laneId: searchBoard.laneIds[0],
      title: "Has an external reference",
    });
    assert.equal(plain.status, 201, plain.text);
    const reference = await api.put(`/api/tickets/${plain.body.id}/external-references/source`, {
      provider: "github",
      instanceUrl: "https://github.com",
      projectKey: "elsewhere/repo",
      issueKey: "12",
      displayRef: "elsewhere/repo#12",
      url: "https://github.com/elsewhere/repo/issues/12",
    });
    assert.equal(reference.status, 200, reference.text);

    const search = async (q: string) => {
      const response = await api.get(
        `/api/boards/${searchBoard.boardId}/tickets?q=${encodeURIComponent(q)}`,
      );
      assert.equal(response.status, 200, response.text);
      return response.body.tickets.map((ticket: { id: number }) => ticket.id).sort();
    };
    const sorted = (...ids: number[]) => ids.sort();
    assert.deepEqual(await search("gh#12"), sorted(ghTicket.id, plain.body.id));
    assert.deepEqual(await search("GitHub#12"), sorted(ghTicket.id, plain.body.id));
    assert.deepEqual(await search("gl#12"), [glTicket.id]);
    assert.deepEqual(await search("gitlab#12"), [glTicket.id]);
    assert.deepEqual(await search("rm#12"), [rmTicket.id]);
    assert.deepEqual(await search("redmine#12"), [rmTicket.id]);
    assert.deepEqual(await search("remote#12"), sorted(ghTicket.id, glTicket.id, rmTicket.id));
    assert.deepEqual(await search("ext#12"), [plain.body.id]);
    assert.deepEqual(await search("gh#13"), []);
    // Plain text matches the tracked link's fields: project path, display ref, url.
    assert.deepEqual(await search("team/find"), [glTicket.id]);
    assert.deepEqual(await search("Finder #12"), [rmTicket.id]);
  });
});
