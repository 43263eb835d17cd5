import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { locateRemoteIssue } from "../../src/providers/issue-locator.js";
import { createRedmineProvider } from "../../src/providers/redmine.js";
import type { RemoteIssueTarget } from "../../src/providers/types.js";
import { type FakeRedmine, startFakeRedmine } from "../fakes/redmine.js";
import { expectRemoteError } from "./remote-assertions.js";

const TOKEN = "0123456789abcdef0123456789abcdef01234567";
const READ_ONLY = "fedcba9876543210fedcba9876543210fedcba98";
const SECRETS = [TOKEN, READ_ONLY];

describe("redmine adapter against the fake (instance under /redmine)", () => {
  let rm: FakeRedmine;
  const redmine = createRedmineProvider({ timeoutMs: 2000 });
  const issue = (id: number): RemoteIssueTarget =>
    locateRemoteIssue({ provider: "redmine", url: `${rm.instanceUrl}/issues/${id}` });

  before(async () => {
    rm = await startFakeRedmine({ token: TOKEN, readOnlyToken: READ_ONLY });
    rm.addIssue({
      id: 42,
      project: { id: 3, name: "Tack Demo" },
      subject: "Printer on fire",
      description: "h1. Steps",
      status: { id: 2, name: "In Progress" },
      updatedOn: "2024-03-04T05:06:07Z",
    });
    rm.addIssue({
      id: 43,
      project: { id: 3, name: "Tack Demo" },
      subject: "No text",
      description: null,
    });
  });
  after(() => rm.close());

  test("the url locates the instance with its sub-path", () => {
    assert.equal(issue(42).instanceUrl, rm.instanceUrl);
    assert.ok(rm.instanceUrl.endsWith("/redmine"));
  });

  test("fetchIssue maps subject, status name, project and web url", async () => {
    const result = await redmine.fetchIssue(issue(42), TOKEN);
    assert.deepEqual(result, {
      provider: "redmine",
      instanceUrl: rm.instanceUrl,
      resourceType: "issue",
      projectKey: "3",
      issueKey: "42",
      displayRef: "Tack Demo #42",
      url: `${rm.instanceUrl}/issues/42`,
      title: "Printer on fire",
      bodyMarkdown: "h1. Steps",
      state: "In Progress",
      remoteUpdatedAt: "2024-03-04T05:06:07.000Z",
    });
    const request = rm.requests.at(-1);
    assert.equal(request?.path, "/redmine/issues/42.json");
    assert.equal(request?.headers["x-redmine-api-key"], TOKEN);
  });

  test("a null description becomes empty Markdown", async () => {
    assert.equal((await redmine.fetchIssue(issue(43), TOKEN)).bodyMarkdown, "");
  });

  test("postComment writes a note and identifies its journal as the comment id", async () => {
    const start = rm.requests.length;
    const result = await redmine.postComment(issue(42), TOKEN, "Imported into tack as Demo#9.");
    const note = rm.notes.at(-1);
    assert.equal(note?.notes, "Imported into tack as Demo#9.");
    assert.equal(note?.userId, rm.user.id);
    assert.equal(result.remoteCommentId, String(note?.journalId));
    assert.match(result.postedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const calls = rm.requests.slice(start).map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(calls, [
      "GET /redmine/users/current.json",
      "PUT /redmine/issues/42.json",
      "GET /redmine/issues/42.json?include=journals",
    ]);
    assert.deepEqual(JSON.parse(rm.requests[start + 1]?.body ?? ""), {
      issue: { notes: "Imported into tack as Demo#9." },
    });
  });

  test("the comment id is the newest matching journal of the key's own user", async () => {
    // Someone else wrote the same text earlier; the adapter's own earlier note also matches.
    rm.addJournal(43, { userId: 99, userName: "Other Person", notes: "Same words" });
    const first = await redmine.postComment(issue(43), TOKEN, "Same words");
    const second = await redmine.postComment(issue(43), TOKEN, "Same words\n");
    assert.equal(first.remoteCommentId, String(rm.notes.at(-2)?.journalId));
    assert.equal(second.remoteCommentId, String(rm.notes.at(-1)?.journalId));
    assert.notEqual(first.remoteCommentId, second.remoteCommentId);
  });

  test("another user's identical newer note is not taken for ours", async () => {
    const intruderId = 99_999;
    rm.interceptNext(
      {
        status: 200,
        body: {
          issue: {
            id: 42,
            journals: [
              {
                id: 1,
                user: { id: rm.user.id, name: "Tack Bot" },
                notes: "Race",
                created_on: "2024-01-01T00:00:00Z",
              },
              {
                id: intruderId,
                user: { id: 99, name: "Other" },
                notes: "Race",
                created_on: "2024-01-01T00:00:01Z",
              },
            ],
          },
        },
      },
      { when: (request) => request.path.includes("include=journals") },
    );
    const result = await redmine.postComment(issue(42), TOKEN, "Race");
    assert.equal(result.remoteCommentId, "1");
    assert.equal(result.postedAt, "2024-01-01T00:00:00.000Z");
  });

  test("when the journals cannot be re-read the note still counts as posted, without an id", async () => {
    rm.failNext(500, { when: (request) => request.path.includes("include=journals") });
    const count = rm.notes.length;
    const result = await redmine.postComment(issue(42), TOKEN, "Posted anyway");
    assert.equal(rm.notes.length, count + 1);
    assert.equal(result.remoteCommentId, null);
  });

  test("an unknown key is auth_failed before anything is written", async () => {
    const count = rm.notes.length;
    const error = await expectRemoteError(
      redmine.postComment(issue(42), "bad-key", "x"),
      "auth_failed",
      [...SECRETS, "bad-key"],
    );
    assert.equal(error.message, `redmine rejected the credential for ${rm.instanceUrl}`);
    assert.equal(rm.notes.length, count);
    await expectRemoteError(redmine.fetchIssue(issue(42), "bad-key"), "auth_failed", SECRETS);
  });

  test("a user without edit permission gets permission_failed on the note", async () => {
    await redmine.fetchIssue(issue(42), READ_ONLY);
    const count = rm.notes.length;
    const error = await expectRemoteError(
      redmine.postComment(issue(42), READ_ONLY, "x"),
      "permission_failed",
      SECRETS,
    );
    assert.equal(
      error.message,
      "the redmine credential is not allowed to comment on redmine issue #42",
    );
    assert.equal(rm.notes.length, count);
  });

  test("an unknown issue is not_found for reads and comments", async () => {
    await expectRemoteError(redmine.fetchIssue(issue(4040), TOKEN), "not_found", SECRETS);
    await expectRemoteError(redmine.postComment(issue(4040), TOKEN, "x"), "not_found", SECRETS);
  });

  test("the user lookup answer carries the api key, which never reaches an error", async () => {
    // users/current.json echoes api_key; make the next step fail and check the message.
    rm.failNext(502, { when: (request) => request.method === "PUT" });
    const error = await expectRemoteError(
      redmine.postComment(issue(42), TOKEN, "x"),
      "error",
      SECRETS,
    );
    assert.equal(error.message, "redmine answered with http status 502");
  });

  test("checkCredential reads users/current.json", async () => {
    await redmine.checkCredential(rm.instanceUrl, TOKEN);
    assert.equal(rm.requests.at(-1)?.path, "/redmine/users/current.json");
    await expectRemoteError(
      redmine.checkCredential(rm.instanceUrl, "nope"),
      "auth_failed",
      SECRETS,
    );
  });
});

test("redmine at the host root works the same way", async () => {
  const rm = await startFakeRedmine({ token: TOKEN, basePath: "" });
  try {
    rm.addIssue({ id: 1, project: { id: 1, name: "Root" }, subject: "Hello" });
    const target = locateRemoteIssue({ provider: "redmine", url: `${rm.instanceUrl}/issues/1` });
    assert.equal(target.instanceUrl, rm.origin);
    const result = await createRedmineProvider().fetchIssue(target, TOKEN);
    assert.equal(result.displayRef, "Root #1");
    assert.equal(rm.requests.at(-1)?.path, "/issues/1.json");
  } finally {
    await rm.close();
  }
});
