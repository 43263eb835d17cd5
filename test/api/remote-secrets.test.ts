// Tokens never leave tack except in the auth header sent to their own instance: not in a
// response body or header, not in an error, not in a log line, even at trace level and even
// when a provider echoes the token back (Redmine's /users/current.json does).

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, test } from "node:test";
import { startServer } from "../../src/server.js";
import { startFakeGitHub } from "../fakes/github.js";
import { startFakeGitLab } from "../fakes/gitlab.js";
import { startFakeRedmine } from "../fakes/redmine.js";
import { ALL_TOKENS, credentialsEnv, TOKENS } from "./remote-fixtures.js";

const WRONG_GITLAB_TOKEN = "glpat-tackRemoteTestWrong0008";
const SECRETS = [...ALL_TOKENS, WRONG_GITLAB_TOKEN];

const gh = await startFakeGitHub({ token: TOKENS.github });
// tack holds a gitlab token the instance does not accept: every gitlab call is auth_failed.
const gl = await startFakeGitLab({ token: TOKENS.gitlab });
const rm = await startFakeRedmine({ token: TOKENS.redmine });
gh.addIssue({ owner: "octo", repo: "secret", number: 1, title: "Quiet", body: "body" });
gl.addIssue({ projectPath: "team/app", iid: 1, title: "Unreachable" });
rm.addIssue({ id: 5, project: { id: 1, name: "Ops" }, subject: "Echoes keys" });

const logLines: string[] = [];
const logStream = new PassThrough();
logStream.setEncoding("utf8");
logStream.on("data", (chunk: string) => logLines.push(chunk));

const folder = mkdtempSync(join(tmpdir(), "tack-secrets-"));
const server = await startServer(
  {
    host: "127.0.0.1",
    port: 0,
    dbFile: join(folder, "tack.sqlite"),
    allowedHosts: [],
    logLevel: "trace",
  },
  credentialsEnv({
    [`github:${gh.instanceUrl}`]: TOKENS.github,
    [`gitlab:${gl.instanceUrl}`]: WRONG_GITLAB_TOKEN,
    [`redmine:${rm.instanceUrl}`]: TOKENS.redmine,
    "redmine:*": TOKENS.redmineReadOnly,
  }),
  { logStream },
);
after(async () => {
  await server.close();
  await Promise.all([gh.close(), gl.close(), rm.close()]);
  rmSync(folder, { recursive: true, force: true });
});

/** Every response of this file: status line, headers and body as text. */
const transcripts: string[] = [];
async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(server.url + path, {
    method,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  const text = await response.text();
  transcripts.push(`${response.status} ${JSON.stringify([...response.headers])} ${text}`);
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

test("no response, error or log line contains a configured token", async () => {
  const board = await call("POST", "/api/boards", { name: "Secrets" });
  const boardId = board.body.board.id;
  const laneId = board.body.lanes[0].id;
  const importBody = (reference: Record<string, unknown>) => ({ laneId, ...reference });
  const ghIssue = { provider: "github", url: `${gh.instanceUrl}/octo/secret/issues/1` };
  const rmIssue = { provider: "redmine", url: `${rm.instanceUrl}/issues/5` };
  const glIssue = { provider: "gitlab", url: `${gl.instanceUrl}/team/app/-/issues/1` };

  // Successful operations on github and redmine.
  assert.equal(
    (await call("POST", `/api/boards/${boardId}/remote-import/preview`, importBody(ghIssue)))
      .status,
    200,
  );
  const ghTicket = await call(
    "POST",
    `/api/boards/${boardId}/remote-import`,
    importBody({ ...ghIssue, postBacklinkComment: true }),
  );
  assert.equal(ghTicket.status, 201);
  const rmTicket = await call(
    "POST",
    `/api/boards/${boardId}/remote-import`,
    importBody({ ...rmIssue, postBacklinkComment: true }),
  );
  assert.equal(rmTicket.status, 201);
  assert.equal((await call("POST", `/api/tickets/${ghTicket.body.id}/remote-refresh`)).status, 200);
  for (const ticket of [ghTicket, rmTicket]) {
    const comment = await call("POST", `/api/tickets/${ticket.body.id}/comments`, {
      bodyMarkdown: "pushed",
    });
    assert.equal((await call("POST", `/api/comments/${comment.body.id}/push-remote`)).status, 200);
  }
  // Redmine's current-user answer, which holds the key, was read (push asks who it is).
  assert.ok(rm.requests.some((request) => request.path.endsWith("/users/current.json")));

  // Failures: a rejected token, a provider error, a failed push, a failed refresh.
  assert.equal(
    (await call("POST", `/api/boards/${boardId}/remote-import`, importBody(glIssue))).status,
    400,
  );
  gh.failNext(500);
  assert.equal((await call("POST", `/api/tickets/${ghTicket.body.id}/remote-refresh`)).status, 400);
  const failing = await call("POST", `/api/tickets/${ghTicket.body.id}/comments`, {
    bodyMarkdown: "fails",
  });
  gh.failNext(401);
  assert.equal((await call("POST", `/api/comments/${failing.body.id}/push-remote`)).status, 400);

  // Diagnostics of every kind, and everything that describes the configuration.
  for (const body of [
    ghIssue,
    rmIssue,
    glIssue,
    { provider: "redmine", instanceUrl: rm.instanceUrl },
  ]) {
    await call("POST", "/api/remote-diagnostics", body);
  }
  await call("POST", "/api/remote-diagnostics", {
    provider: "redmine",
    instanceUrl: `${rm.instanceUrl}/x`,
  });
  await call("GET", "/api/remote-diagnostics");
  await call("GET", "/api/meta");
  await call("GET", "/api/openapi.json");
  for (const ticket of [ghTicket, rmTicket]) {
    await call("GET", `/api/tickets/${ticket.body.id}`);
    await call("GET", `/api/tickets/${ticket.body.id}/activity`);
  }
  await call("GET", `/api/boards/${boardId}/tickets`);
  await call("GET", `/api/boards/${boardId}/export`);

  // The tokens did reach their instances (so they were in play), and only there.
  assert.ok(
    gh.requests.some((request) => request.headers.authorization === `Bearer ${TOKENS.github}`),
  );
  assert.ok(gl.requests.some((request) => request.headers["private-token"] === WRONG_GITLAB_TOKEN));

  const logs = logLines.join("");
  assert.ok(logs.length > 0 && logs.includes('"reqId"'), "the trace log captured requests");
  for (const secret of SECRETS) {
    assert.ok(!logs.includes(secret), `a token appears in the log: ${secret}`);
    for (const transcript of transcripts) {
      assert.ok(!transcript.includes(secret), `a token appears in a response: ${transcript}`);
    }
  }
});
