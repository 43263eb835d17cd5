import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github.js";
import { type FakeGitLab, startFakeGitLab } from "../fakes/gitlab.js";
import { type FakeRedmine, startFakeRedmine } from "../fakes/redmine.js";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { sleep } from "../helpers/sse-client.js";
import {
  activityOf,
  addComment,
  createBoard,
  credentialsEnv,
  importIssue,
  TOKENS,
} from "./remote-fixtures.js";

const gh: FakeGitHub = await startFakeGitHub({ token: TOKENS.github });
// The gitlab credential may read but not write: pushes fail with permission_failed.
const gl: FakeGitLab = await startFakeGitLab({
  token: TOKENS.gitlab,
  readOnlyToken: TOKENS.gitlabReadOnly,
});
const rm: FakeRedmine = await startFakeRedmine({ token: TOKENS.redmine });
after(() => Promise.all([gh.close(), gl.close(), rm.close()]));
const api = await startTestServer({
  env: credentialsEnv({
    [`github:${gh.instanceUrl}`]: TOKENS.github,
    [`gitlab:${gl.instanceUrl}`]: TOKENS.gitlabReadOnly,
    [`redmine:${rm.instanceUrl}`]: TOKENS.redmine,
  }),
});
const board = await createBoard(api, "Work");

let issueNumber = 0;
/** A tracked github ticket with one new comment. */
async function trackedComment(body = "A finding") {
  issueNumber += 1;
  gh.addIssue({ owner: "octo", repo: "push", number: issueNumber, title: `Issue ${issueNumber}` });
  const ticket = await importIssue(api, board, {
    provider: "github",
    url: `${gh.instanceUrl}/octo/push/issues/${issueNumber}`,
  });
  const comment = await addComment(api, ticket.id, body);
  return { ticket, comment, number: issueNumber };
}

const push = (commentId: number) => api.post(`/api/comments/${commentId}/push-remote`);

async function syncOf(ticketId: number, commentId: number) {
  const response = await api.get(`/api/tickets/${ticketId}/comments`);
  assert.equal(response.status, 200, response.text);
  return response.body.comments.find((comment: { id: number }) => comment.id === commentId).sync;
}

const remoteCommentsOn = (number: number) =>
  gh.comments.filter((comment) => comment.repo === "push" && comment.number === number);

describe("push success", () => {
  test("a local comment is posted and becomes pushed with the provider's id and time", async () => {
    const { ticket, comment, number } = await trackedComment("Root cause: **DNS**");
    assert.equal(comment.sync.status, "local_only");
    const response = await push(comment.id);
    assert.equal(response.status, 200, response.text);
    const posted = remoteCommentsOn(number);
    assert.deepEqual(
      posted.map((item) => item.body),
      ["Root cause: **DNS**"],
    );
    const { sync } = response.body;
    assert.equal(sync.status, "pushed");
    assert.equal(sync.remoteCommentId, String(posted[0]?.id));
    assert.equal(sync.pushedAt, new Date(posted[0]?.createdAt ?? "").toISOString());
    assert.equal(sync.lastError, null);
    assert.deepEqual(await syncOf(ticket.id, comment.id), sync);

    const entry = (await activityOf(api, ticket.id)).find(
      (item) => item.action === "remote_comment_pushed",
    );
    assert.equal(entry?.details.commentId, comment.id);
    assert.equal(entry?.details.remoteCommentId, sync.remoteCommentId);
  });

  test("a pushed comment is 409 and is never posted twice", async () => {
    const { comment, number } = await trackedComment();
    assert.equal((await push(comment.id)).status, 200);
    assertError(await push(comment.id), 409, "comment is already pushed");
    assert.equal(remoteCommentsOn(number).length, 1);
  });

  test("redmine: the note is written and its journal id becomes remoteCommentId", async () => {
    rm.addIssue({ id: 30, project: { id: 1, name: "Ops" }, subject: "Disk full" });
    const ticket = await importIssue(api, board, {
      provider: "redmine",
      url: `${rm.instanceUrl}/issues/30`,
    });
    const comment = await addComment(api, ticket.id, "Cleaned /var/log");
    const response = await push(comment.id);
    assert.equal(response.status, 200, response.text);
    const note = rm.notes.find((item) => item.issueId === 30);
    assert.equal(note?.notes, "Cleaned /var/log");
    assert.equal(response.body.sync.remoteCommentId, String(note?.journalId));
  });
});

describe("push failure and retry", () => {
  test("a provider failure is 400 {error: lastError}, push_failed, and may be retried", async () => {
    const { ticket, comment, number } = await trackedComment("Try me twice");
    gh.failNext(502, { when: (request) => request.method === "POST" });
    const failed = await push(comment.id);
    assertError(failed, 400, "github answered with http status 502");
    const sync = await syncOf(ticket.id, comment.id);
    assert.equal(sync.status, "push_failed");
    assert.equal(sync.lastError, "github answered with http status 502");
    assert.equal(sync.remoteCommentId, null);
    assert.equal(sync.pushedAt, null);
    assert.equal(remoteCommentsOn(number).length, 0);
    const entry = (await activityOf(api, ticket.id)).find(
      (item) => item.action === "remote_comment_push_failed",
    );
    assert.equal(entry?.details.error, "github answered with http status 502");

    const retried = await push(comment.id);
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.body.sync.status, "pushed");
    assert.equal(retried.body.sync.lastError, null);
    assert.equal(remoteCommentsOn(number).length, 1);
  });

  test("a read-only credential gives permission_failed's sentence", async () => {
    gl.addIssue({ projectPath: "team/app", iid: 3, title: "Read only" });
    const ticket = await importIssue(api, board, {
      provider: "gitlab",
      url: `${gl.instanceUrl}/team/app/-/issues/3`,
    });
    const comment = await addComment(api, ticket.id, "Will not land");
    assertError(
      await push(comment.id),
      400,
      "the gitlab credential is not allowed to comment on gitlab issue team/app#3",
    );
    assert.equal((await syncOf(ticket.id, comment.id)).status, "push_failed");
    assert.equal(gl.notes.length, 0);
  });
});

describe("state machine guards", () => {
  test("404 for an unknown comment; 400 for a comment of an untracked ticket", async () => {
    assertError(await push(999_999), 404, "comment not found");
    const local = await api.post(`/api/boards/${board.boardId}/tickets`, {
      laneId: board.laneIds[0],
      title: "Not tracked",
    });
    const comment = await addComment(api, local.body.id, "stays here");
    assertError(await push(comment.id), 400, "ticket is not tracked by a remote issue");
    assert.equal((await syncOf(local.body.id, comment.id)).status, "local_only");
  });

  test("`pushing` is committed before the provider is called", async () => {
    const { ticket, comment } = await trackedComment();
    gh.setDelay(300);
    try {
      const pending = push(comment.id);
      // The provider has not answered yet, but another request already sees the claim.
      await sleep(100);
      assert.equal((await syncOf(ticket.id, comment.id)).status, "pushing");
      assertError(await push(comment.id), 409, "comment is already being pushed");
      assert.equal((await pending).status, 200);
    } finally {
      gh.setDelay(0);
    }
  });

  test("two concurrent pushes of one comment post it exactly once", async () => {
    const { comment, number } = await trackedComment("Only once please");
    gh.setDelay(50);
    try {
      const results = await Promise.all([push(comment.id), push(comment.id), push(comment.id)]);
      assert.deepEqual(results.map((result) => result.status).sort(), [200, 409, 409]);
    } finally {
      gh.setDelay(0);
    }
    assert.equal(remoteCommentsOn(number).length, 1);
  });

  // Time is moved by editing the comment's sync row in the database file: tack has no clock
  // seam, and 15 real minutes is too long for a test.
  test("`pushing` younger than 15 minutes is 409; older is a crashed attempt and may be retried", async () => {
    const { ticket, comment, number } = await trackedComment("Crashed once");
    const setPushing = (minutesAgo: number) =>
      api.server.db
        .prepare("UPDATE comments SET sync_status = 'pushing', sync_updated_at = ? WHERE id = ?")
        .run(new Date(Date.now() - minutesAgo * 60_000).toISOString(), comment.id);

    setPushing(14);
    assertError(await push(comment.id), 409, "comment is already being pushed");
    assert.equal(remoteCommentsOn(number).length, 0);

    setPushing(16);
    const response = await push(comment.id);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.sync.status, "pushed");
    assert.equal(remoteCommentsOn(number).length, 1);
    assert.equal((await syncOf(ticket.id, comment.id)).status, "pushed");
  });
});
