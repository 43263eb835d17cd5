// Credential scoping (docs/api.md, "Remote tracking"): exact scopes, the provider wildcard for
// operations but never for diagnostics, Redmine sub-path instances, and instances without any
// credential.

import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github.js";
import { type FakeRedmine, startFakeRedmine } from "../fakes/redmine.js";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import {
  addComment,
  assertErrorBody,
  createBoard,
  credentialsEnv,
  importIssue,
  TOKENS,
} from "./remote-fixtures.js";

const WILDCARD_TOKEN = "ghp_tackRemoteTestWildcard0007";

const configured: FakeGitHub = await startFakeGitHub({ token: TOKENS.github });
const stranger: FakeGitHub = await startFakeGitHub({ token: WILDCARD_TOKEN });
const rm: FakeRedmine = await startFakeRedmine({ token: TOKENS.redmine });
after(() => Promise.all([configured.close(), stranger.close(), rm.close()]));
for (const fake of [configured, stranger]) {
  fake.addIssue({ owner: "octo", repo: "hello", number: 1, title: "Scoped" });
  fake.addIssue({ owner: "octo", repo: "hello", number: 2, title: "Scoped two" });
}
rm.addIssue({ id: 1, project: { id: 2, name: "Ops" }, subject: "Sub-path issue" });
const rmOrigin = new URL(rm.instanceUrl).origin;

describe("exact scopes", async () => {
  const api = await startTestServer({
    env: credentialsEnv({ [`github:${configured.instanceUrl}`]: TOKENS.github }),
  });
  const board = await createBoard(api);

  test("an instance without a credential is refused and never contacted", async () => {
    const body = {
      provider: "github",
      url: `${stranger.instanceUrl}/octo/hello/issues/1`,
      laneId: board.laneIds[0],
    };
    const message = `no credential configured for github at ${stranger.instanceUrl}`;
    assertErrorBody(
      await api.post(`/api/boards/${board.boardId}/remote-import`, body),
      400,
      message,
    );
    assertErrorBody(
      await api.post(`/api/boards/${board.boardId}/remote-import/preview`, body),
      400,
      message,
    );
    const diagnostic = await api.post("/api/remote-diagnostics", body);
    assert.equal(diagnostic.status, 400);
    assert.equal(diagnostic.body.status, "missing_credential");
    assert.equal(stranger.requests.length, 0);
  });

  test("the default public instance needs its own credential too", async () => {
    assertError(
      await api.post(`/api/boards/${board.boardId}/remote-import`, {
        provider: "github",
        projectKey: "octo/hello",
        issueKey: "1",
        laneId: board.laneIds[0],
      }),
      400,
      "no credential configured for github at https://github.com",
    );
  });

  test("the configured instance gets its token", async () => {
    await importIssue(api, board, {
      provider: "github",
      url: `${configured.instanceUrl}/octo/hello/issues/1`,
    });
    assert.equal(configured.requests.at(-1)?.headers.authorization, `Bearer ${TOKENS.github}`);
  });
});

describe("the provider wildcard", async () => {
  const api = await startTestServer({
    env: credentialsEnv({
      "github:*": WILDCARD_TOKEN,
      [`github:${configured.instanceUrl}`]: TOKENS.github,
    }),
  });
  const board = await createBoard(api);

  test("serves import, preview, refresh and push for an instance without an exact credential", async () => {
    const reference = { provider: "github", url: `${stranger.instanceUrl}/octo/hello/issues/2` };
    const preview = await api.post(`/api/boards/${board.boardId}/remote-import/preview`, {
      ...reference,
      laneId: board.laneIds[0],
    });
    assert.equal(preview.status, 200, preview.text);
    const ticket = await importIssue(api, board, reference);
    assert.equal((await api.post(`/api/tickets/${ticket.id}/remote-refresh`)).status, 200);
    const comment = await addComment(api, ticket.id, "via the wildcard");
    assert.equal((await api.post(`/api/comments/${comment.id}/push-remote`)).status, 200);
    assert.ok(stranger.requests.length >= 4);
    for (const request of stranger.requests) {
      assert.equal(request.headers.authorization, `Bearer ${WILDCARD_TOKEN}`);
    }
  });

  test("an exact credential wins over the wildcard", async () => {
    await importIssue(api, board, {
      provider: "github",
      url: `${configured.instanceUrl}/octo/hello/issues/2`,
    });
    assert.equal(configured.requests.at(-1)?.headers.authorization, `Bearer ${TOKENS.github}`);
  });

  test("is never used by diagnostics", async () => {
    const before = stranger.requests.length;
    for (const body of [
      { provider: "github", url: `${stranger.instanceUrl}/octo/hello/issues/2` },
      { provider: "github", instanceUrl: stranger.instanceUrl },
    ]) {
      const response = await api.post("/api/remote-diagnostics", body);
      assert.equal(response.status, 400, response.text);
      assert.deepEqual(response.body, {
        provider: "github",
        hasCredential: false,
        status: "missing_credential",
        message: `no credential configured for github at ${stranger.instanceUrl} (a wildcard credential is never used for diagnostics)`,
      });
    }
    assert.equal(stranger.requests.length, before);
    // GET reports the provider as configured: the wildcard is a credential.
    const list = await api.get("/api/remote-diagnostics");
    assert.equal(list.body.providers[0].status, "configured");
  });
});

describe("redmine sub-path instances", async () => {
  test("a credential for another sub-path of the same origin does not serve this one", async () => {
    const api = await startTestServer({
      env: credentialsEnv({ [`redmine:${rmOrigin}/tracker`]: TOKENS.redmine }),
    });
    const board = await createBoard(api);
    const before = rm.requests.length;
    assertErrorBody(
      await api.post(`/api/boards/${board.boardId}/remote-import`, {
        provider: "redmine",
        url: `${rm.instanceUrl}/issues/1`,
        laneId: board.laneIds[0],
      }),
      400,
      `no credential configured for redmine at ${rm.instanceUrl}`,
    );
    assert.equal(rm.requests.length, before);
  });

  test("each sub-path gets its own credential", async () => {
    const api = await startTestServer({
      env: credentialsEnv({
        [`redmine:${rm.instanceUrl}/`]: TOKENS.redmine,
        [`redmine:${rmOrigin}/tracker`]: TOKENS.redmineReadOnly,
      }),
    });
    const board = await createBoard(api);
    const ticket = await importIssue(api, board, {
      provider: "redmine",
      url: `${rm.instanceUrl}/issues/1`,
    });
    assert.equal(ticket.remote.instanceUrl, rm.instanceUrl);
    assert.equal(rm.requests.at(-1)?.headers["x-redmine-api-key"], TOKENS.redmine);

    // The other sub-path's key goes to the other sub-path (the fake knows neither, so 401).
    const response = await api.post(`/api/boards/${board.boardId}/remote-import/preview`, {
      provider: "redmine",
      url: `${rmOrigin}/tracker/issues/1`,
      laneId: board.laneIds[0],
    });
    assertError(response, 400, `redmine rejected the credential for ${rmOrigin}/tracker`);
    const last = rm.requests.at(-1);
    assert.equal(last?.path, "/tracker/issues/1.json");
    assert.equal(last?.headers["x-redmine-api-key"], TOKENS.redmineReadOnly);
  });
});

describe("a tracked ticket whose credential is gone", async () => {
  // The same database served by a tack without credentials (as after removing a token).
  const withToken = await startTestServer({
    env: credentialsEnv({ [`github:${configured.instanceUrl}`]: TOKENS.github }),
  });
  const board = await createBoard(withToken);
  configured.addIssue({ owner: "octo", repo: "gone", number: 1, title: "Orphaned" });
  const ticket = await importIssue(withToken, board, {
    provider: "github",
    url: `${configured.instanceUrl}/octo/gone/issues/1`,
  });
  const comment = await addComment(withToken, ticket.id, "cannot leave");
  const without = await startTestServer({ dbFile: withToken.dbFile });

  test("refresh and push are 400 naming the instance; nothing changes", async () => {
    const before = configured.requests.length;
    const message = `no credential configured for github at ${configured.instanceUrl}`;
    assertErrorBody(await without.post(`/api/tickets/${ticket.id}/remote-refresh`), 400, message);
    assertErrorBody(await without.post(`/api/comments/${comment.id}/push-remote`), 400, message);
    const after = await without.get(`/api/tickets/${ticket.id}`);
    assert.equal(after.body.comments[0].sync.status, "local_only");
    assert.deepEqual(after.body.remote, ticket.remote);
    assert.equal(configured.requests.length, before);
  });
});
