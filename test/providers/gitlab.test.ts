import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createGitLabProvider } from "../../src/providers/gitlab.js";
import { locateRemoteIssue } from "../../src/providers/issue-locator.js";
import type { RemoteIssueTarget } from "../../src/providers/types.js";
import { type FakeGitLab, startFakeGitLab } from "../fakes/gitlab.js";
import { expectRemoteError } from "./remote-assertions.js";

const TOKEN = "glpat-fakeWriteToken01";
const READ_ONLY = "glpat-fakeReadToken002";
const SECRETS = [TOKEN, READ_ONLY];

describe("gitlab adapter against the fake", () => {
  let gl: FakeGitLab;
  const gitlab = createGitLabProvider({ timeoutMs: 2000 });
  const byUrl = (path: string): RemoteIssueTarget =>
    locateRemoteIssue({ provider: "gitlab", url: `${gl.instanceUrl}/${path}` });

  before(async () => {
    gl = await startFakeGitLab({ token: TOKEN, readOnlyToken: READ_ONLY });
    gl.addIssue({
      projectPath: "Group/Sub/App",
      iid: 7,
      title: "Crash on start",
      description: "Trace:\n```\nboom\n```",
      updatedAt: "2024-02-03T04:05:06.789Z",
    });
    gl.addIssue({
      projectPath: "Group/Sub/App",
      iid: 8,
      title: "Write docs",
      type: "task",
      state: "closed",
      description: null,
    });
  });
  after(() => gl.close());

  test("fetchIssue maps the issue; displayRef and projectKey come from references.full", async () => {
    const result = await gitlab.fetchIssue(byUrl("group/sub/app/-/issues/7"), TOKEN);
    assert.deepEqual(result, {
      provider: "gitlab",
      instanceUrl: gl.instanceUrl,
      resourceType: "issue",
      projectKey: "Group/Sub/App",
      issueKey: "7",
      displayRef: "Group/Sub/App#7",
      url: `${gl.instanceUrl}/Group/Sub/App/-/issues/7`,
      title: "Crash on start",
      bodyMarkdown: "Trace:\n```\nboom\n```",
      state: "opened",
      remoteUpdatedAt: "2024-02-03T04:05:06.789Z",
    });
  });

  test("the project path is URL-encoded and the token goes in PRIVATE-TOKEN only", async () => {
    await gitlab.fetchIssue(byUrl("group/sub/app/-/issues/7"), TOKEN);
    const request = gl.requests.at(-1);
    assert.equal(request?.path, "/api/v4/projects/group%2Fsub%2Fapp/issues/7");
    assert.equal(request?.headers["private-token"], TOKEN);
    assert.equal(request?.headers.authorization, undefined);
  });

  test("a work item url is fetched through the issues API", async () => {
    const result = await gitlab.fetchIssue(byUrl("group/sub/app/-/work_items/8"), TOKEN);
    assert.equal(result.title, "Write docs");
    assert.equal(result.state, "closed");
    assert.equal(result.bodyMarkdown, "");
    assert.equal(result.url, `${gl.instanceUrl}/Group/Sub/App/-/work_items/8`);
    assert.equal(gl.requests.at(-1)?.path, "/api/v4/projects/group%2Fsub%2Fapp/issues/8");
  });

  test("postComment creates a note and returns its id and time", async () => {
    const result = await gitlab.postComment(
      byUrl("group/sub/app/-/issues/7"),
      TOKEN,
      "Imported into tack as B#1.",
    );
    const note = gl.notes.at(-1);
    assert.equal(note?.body, "Imported into tack as B#1.");
    assert.equal(result.remoteCommentId, String(note?.id));
    assert.equal(result.postedAt, note?.createdAt);
    const request = gl.requests.at(-1);
    assert.equal(request?.method, "POST");
    assert.equal(request?.path, "/api/v4/projects/group%2Fsub%2Fapp/issues/7/notes");
    assert.deepEqual(JSON.parse(request?.body ?? ""), { body: "Imported into tack as B#1." });
  });

  test("an unknown token is auth_failed", async () => {
    const error = await expectRemoteError(
      gitlab.fetchIssue(byUrl("group/sub/app/-/issues/7"), "glpat-wrong"),
      "auth_failed",
      [...SECRETS, "glpat-wrong"],
    );
    assert.equal(error.message, `gitlab rejected the credential for ${gl.instanceUrl}`);
  });

  test("a read_api token commenting is permission_failed (insufficient_scope)", async () => {
    const count = gl.notes.length;
    await expectRemoteError(
      gitlab.postComment(byUrl("group/sub/app/-/issues/7"), READ_ONLY, "hi"),
      "permission_failed",
      SECRETS,
    );
    assert.equal(gl.notes.length, count);
  });

  test("an unknown project or issue is not_found", async () => {
    await expectRemoteError(
      gitlab.fetchIssue(byUrl("group/other/-/issues/7"), TOKEN),
      "not_found",
      SECRETS,
    );
    const error = await expectRemoteError(
      gitlab.fetchIssue(byUrl("group/sub/app/-/issues/70"), TOKEN),
      "not_found",
      SECRETS,
    );
    assert.equal(
      error.message,
      "gitlab issue group/sub/app#70 was not found or is not visible to the credential",
    );
  });

  test("429 Retry later is rate_limited", async () => {
    gl.exhaustRateLimit();
    try {
      await expectRemoteError(
        gitlab.fetchIssue(byUrl("group/sub/app/-/issues/7"), TOKEN),
        "rate_limited",
        SECRETS,
      );
    } finally {
      gl.resetRateLimit();
    }
  });

  test("checkCredential reads /api/v4/user", async () => {
    await gitlab.checkCredential(gl.instanceUrl, TOKEN);
    assert.equal(gl.requests.at(-1)?.path, "/api/v4/user");
    await expectRemoteError(gitlab.checkCredential(gl.instanceUrl, "bad"), "auth_failed", SECRETS);
  });
});
