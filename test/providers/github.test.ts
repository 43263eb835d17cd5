import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createGitHubProvider } from "../../src/providers/github.js";
import { locateRemoteIssue } from "../../src/providers/issue-locator.js";
import type { RemoteIssueTarget } from "../../src/providers/types.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github.js";
import { expectRemoteError } from "./remote-assertions.js";

const TOKEN = "ghp_fakeWriteToken0001";
const READ_ONLY = "ghp_fakeReadToken0002";
const SECRETS = [TOKEN, READ_ONLY];

describe("github adapter against the fake (Enterprise layout)", () => {
  let gh: FakeGitHub;
  const github = createGitHubProvider({ timeoutMs: 2000 });
  const issue = (projectKey: string, issueKey: string): RemoteIssueTarget =>
    locateRemoteIssue({ provider: "github", instanceUrl: gh.instanceUrl, projectKey, issueKey });

  before(async () => {
    gh = await startFakeGitHub({ token: TOKEN, readOnlyToken: READ_ONLY });
    gh.addIssue({
      owner: "Octo-Org",
      repo: "Hello.World",
      number: 42,
      title: "Printer on fire",
      body: "Steps:\n1. print",
      updatedAt: "2024-05-06T07:08:09Z",
    });
    gh.addIssue({
      owner: "octo",
      repo: "hello",
      number: 2,
      title: "No body",
      body: null,
      state: "closed",
    });
    gh.addIssue({
      owner: "octo",
      repo: "hello",
      number: 3,
      title: "Add feature",
      pullRequest: true,
    });
  });
  after(() => gh.close());

  test("fetchIssue maps the issue and takes the canonical repository name from the answer", async () => {
    const result = await github.fetchIssue(issue("octo-org/hello.world", "42"), TOKEN);
    assert.deepEqual(result, {
      provider: "github",
      instanceUrl: gh.instanceUrl,
      resourceType: "issue",
      projectKey: "Octo-Org/Hello.World",
      issueKey: "42",
      displayRef: "Octo-Org/Hello.World#42",
      url: `${gh.instanceUrl}/Octo-Org/Hello.World/issues/42`,
      title: "Printer on fire",
      bodyMarkdown: "Steps:\n1. print",
      state: "open",
      remoteUpdatedAt: "2024-05-06T07:08:09.000Z",
    });
  });

  test("requests go to /api/v3 with GitHub's auth, media type and version headers", async () => {
    await github.fetchIssue(issue("octo/hello", "2"), TOKEN);
    const request = gh.requests.at(-1);
    assert.equal(request?.method, "GET");
    assert.equal(request?.path, "/api/v3/repos/octo/hello/issues/2");
    assert.equal(request?.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(request?.headers.accept, "application/vnd.github+json");
    assert.equal(request?.headers["x-github-api-version"], "2022-11-28");
    assert.ok(request?.headers["user-agent"]);
  });

  test("a null body becomes empty Markdown and a closed state is kept", async () => {
    const result = await github.fetchIssue(issue("octo/hello", "2"), TOKEN);
    assert.equal(result.bodyMarkdown, "");
    assert.equal(result.state, "closed");
  });

  test("a pull request number is fetched as an issue; its url is the pull request page", async () => {
    const result = await github.fetchIssue(issue("octo/hello", "3"), TOKEN);
    assert.equal(result.title, "Add feature");
    assert.equal(result.displayRef, "octo/hello#3");
    assert.equal(result.url, `${gh.instanceUrl}/octo/hello/pull/3`);
  });

  test("a transferred issue is followed and reported under its new identity", async () => {
    gh.addIssue({ owner: "octo", repo: "old", number: 9, title: "Moving" });
    gh.transferIssue(
      { owner: "octo", repo: "old", number: 9 },
      { owner: "octo", repo: "new", number: 1 },
    );
    const result = await github.fetchIssue(issue("octo/old", "9"), TOKEN);
    assert.equal(result.projectKey, "octo/new");
    assert.equal(result.issueKey, "1");
    assert.equal(result.displayRef, "octo/new#1");
  });

  test("postComment posts the body and returns the comment id and time", async () => {
    const before = gh.comments.length;
    const result = await github.postComment(
      issue("octo/hello", "2"),
      TOKEN,
      "Imported into tack as Board#5.",
    );
    const comment = gh.comments[before];
    assert.equal(gh.comments.length, before + 1);
    assert.equal(comment?.body, "Imported into tack as Board#5.");
    assert.equal(result.remoteCommentId, String(comment?.id));
    assert.equal(result.postedAt, new Date(comment?.createdAt ?? "").toISOString());
    const request = gh.requests.at(-1);
    assert.equal(request?.path, "/api/v3/repos/octo/hello/issues/2/comments");
    assert.deepEqual(JSON.parse(request?.body ?? ""), { body: "Imported into tack as Board#5." });
  });

  test("a pull request takes comments like an issue", async () => {
    const result = await github.postComment(issue("octo/hello", "3"), TOKEN, "Tracked in tack.");
    assert.ok(result.remoteCommentId);
  });

  test("an unknown token is auth_failed, naming the instance but not the token", async () => {
    const error = await expectRemoteError(
      github.fetchIssue(issue("octo/hello", "2"), "ghp_wrong"),
      "auth_failed",
      [...SECRETS, "ghp_wrong"],
    );
    assert.equal(error.message, `github rejected the credential for ${gh.instanceUrl}`);
    assert.equal(error.httpStatus, 401);
  });

  test("a read-only token may read but commenting is permission_failed", async () => {
    await github.fetchIssue(issue("octo/hello", "2"), READ_ONLY);
    const count = gh.comments.length;
    const error = await expectRemoteError(
      github.postComment(issue("octo/hello", "2"), READ_ONLY, "hi"),
      "permission_failed",
      SECRETS,
    );
    assert.equal(
      error.message,
      "the github credential is not allowed to comment on github issue octo/hello#2",
    );
    assert.equal(gh.comments.length, count);
  });

  test("a missing issue or repository is not_found", async () => {
    const error = await expectRemoteError(
      github.fetchIssue(issue("octo/hello", "999"), TOKEN),
      "not_found",
      SECRETS,
    );
    assert.equal(
      error.message,
      "github issue octo/hello#999 was not found or is not visible to the credential",
    );
    await expectRemoteError(
      github.fetchIssue(issue("nobody/nothing", "1"), TOKEN),
      "not_found",
      SECRETS,
    );
  });

  test("an exhausted rate limit (403 with x-ratelimit-remaining 0) is rate_limited", async () => {
    gh.exhaustRateLimit();
    try {
      const error = await expectRemoteError(
        github.fetchIssue(issue("octo/hello", "2"), TOKEN),
        "rate_limited",
        SECRETS,
      );
      assert.equal(error.message, "github rate limit reached; try again later");
    } finally {
      gh.resetRateLimit();
    }
  });

  test("checkCredential accepts a valid token and rejects an unknown one", async () => {
    await github.checkCredential(gh.instanceUrl, TOKEN);
    assert.equal(gh.requests.at(-1)?.path, "/api/v3/");
    await expectRemoteError(github.checkCredential(gh.instanceUrl, "nope"), "auth_failed", SECRETS);
  });
});
