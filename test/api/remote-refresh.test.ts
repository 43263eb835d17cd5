import assert from "node:assert/strict";
import { after, test } from "node:test";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github.js";
import { type FakeRedmine, startFakeRedmine } from "../fakes/redmine.js";
import { assertError } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import {
  actionsOf,
  activityOf,
  createBoard,
  credentialsEnv,
  importIssue,
  TOKENS,
} from "./remote-fixtures.js";

const gh: FakeGitHub = await startFakeGitHub({ token: TOKENS.github });
const rm: FakeRedmine = await startFakeRedmine({ token: TOKENS.redmine });
after(() => Promise.all([gh.close(), rm.close()]));
const api = await startTestServer({
  env: credentialsEnv({
    [`github:${gh.instanceUrl}`]: TOKENS.github,
    [`redmine:${rm.instanceUrl}`]: TOKENS.redmine,
  }),
});
const board = await createBoard(api, "Work");
const refresh = (ticketId: number) => api.post(`/api/tickets/${ticketId}/remote-refresh`);

test("refresh updates title, snapshot and state but never the local body", async () => {
  gh.addIssue({ owner: "octo", repo: "hello", number: 1, title: "Old title", body: "old body" });
  const ticket = await importIssue(api, board, {
    provider: "github",
    url: `${gh.instanceUrl}/octo/hello/issues/1`,
  });
  const edited = await api.patch(`/api/tickets/${ticket.id}`, { bodyMarkdown: "my **notes**" });
  assert.equal(edited.status, 200, edited.text);

  // The issue changes remotely (the fake replaces it under the same number).
  gh.addIssue({
    owner: "octo",
    repo: "hello",
    number: 1,
    title: "New title",
    body: "new *remote* body",
    state: "closed",
    updatedAt: "2025-01-02T03:04:05Z",
  });
  const response = await refresh(ticket.id);
  assert.equal(response.status, 200, response.text);
  const refreshed = response.body;
  assert.equal(refreshed.title, "New title");
  assert.equal(refreshed.bodyMarkdown, "my **notes**");
  assert.equal(refreshed.bodyHtml, edited.body.bodyHtml);
  assert.equal(refreshed.remote.title, "New title");
  assert.equal(refreshed.remote.bodyMarkdown, "new *remote* body");
  assert.match(refreshed.remote.bodyHtml, /<em>remote<\/em>/);
  assert.equal(refreshed.remote.state, "closed");
  assert.equal(refreshed.remote.remoteUpdatedAt, "2025-01-02T03:04:05.000Z");
  assert.equal(refreshed.remote.createdAt, ticket.remote.createdAt);
  assert.ok(refreshed.remote.lastSyncedAt > ticket.remote.lastSyncedAt);
  assert.deepEqual((await api.get(`/api/tickets/${ticket.id}`)).body, refreshed);

  const entry = (await activityOf(api, ticket.id)).find(
    (item) => item.action === "remote_refreshed",
  );
  assert.deepEqual(entry?.details.before, { title: "Old title", state: "open" });
  assert.deepEqual(entry?.details.after, { title: "New title", state: "closed" });

  // The list and its search follow the new title.
  const found = await api.get(`/api/boards/${board.boardId}/tickets?q=new%20title`);
  assert.deepEqual(
    found.body.tickets.map((summary: { id: number }) => summary.id),
    [ticket.id],
  );
});

test("a tracked ticket's title is read-only; other fields stay editable", async () => {
  gh.addIssue({ owner: "octo", repo: "hello", number: 2, title: "Remote owns this" });
  const ticket = await importIssue(api, board, {
    provider: "github",
    url: `${gh.instanceUrl}/octo/hello/issues/2`,
  });
  assertError(
    await api.patch(`/api/tickets/${ticket.id}`, { title: "Mine now", priority: 4 }),
    400,
    "title is read-only on a ticket tracking a remote issue",
  );
  const unchanged = await api.get(`/api/tickets/${ticket.id}`);
  assert.equal(unchanged.body.title, "Remote owns this");
  assert.equal(unchanged.body.priority, ticket.priority);
  // Sending the current title changes nothing, so it is not refused.
  const same = await api.patch(`/api/tickets/${ticket.id}`, {
    title: "Remote owns this",
    priority: 4,
  });
  assert.equal(same.status, 200, same.text);
  assert.equal(same.body.priority, 4);
});

test("refresh of an untracked ticket is 400; of an unknown ticket 404", async () => {
  const local = await api.post(`/api/boards/${board.boardId}/tickets`, {
    laneId: board.laneIds[0],
    title: "Local only",
  });
  assertError(await refresh(local.body.id), 400, "ticket is not tracked by a remote issue");
  assertError(await refresh(999_999), 404, "ticket not found");
});

test("a provider failure is 400 with a safe message, recorded as remote_refresh_failed", async () => {
  gh.addIssue({ owner: "octo", repo: "hello", number: 3, title: "Stable" });
  const ticket = await importIssue(api, board, {
    provider: "github",
    url: `${gh.instanceUrl}/octo/hello/issues/3`,
  });
  gh.failNext(403);
  assertError(
    await refresh(ticket.id),
    400,
    "the github credential is not allowed to read github issue octo/hello#3",
  );
  const entry = (await activityOf(api, ticket.id)).find(
    (item) => item.action === "remote_refresh_failed",
  );
  assert.equal(entry?.details.status, "permission_failed");
  const current = (await api.get(`/api/tickets/${ticket.id}`)).body;
  assert.deepEqual(current.remote, ticket.remote);
  assert.equal(current.title, "Stable");
});

test("a transferred issue is a different issue: 400, the link is left alone", async () => {
  gh.addIssue({ owner: "octo", repo: "hello", number: 4, title: "Will move" });
  const ticket = await importIssue(api, board, {
    provider: "github",
    url: `${gh.instanceUrl}/octo/hello/issues/4`,
  });
  gh.transferIssue(
    { owner: "octo", repo: "hello", number: 4 },
    { owner: "octo", repo: "elsewhere", number: 1 },
  );
  assertError(await refresh(ticket.id), 400, "remote refresh returned a different issue");
  assert.deepEqual((await api.get(`/api/tickets/${ticket.id}`)).body.remote, ticket.remote);
  assert.ok((await actionsOf(api, ticket.id)).includes("remote_refresh_failed"));
});

test("redmine refresh keeps the identity (project id) and updates the status name", async () => {
  rm.addIssue({ id: 7, project: { id: 3, name: "Demo" }, subject: "Queue", description: "d" });
  const ticket = await importIssue(api, board, {
    provider: "redmine",
    url: `${rm.instanceUrl}/issues/7`,
  });
  rm.addIssue({
    id: 7,
    project: { id: 3, name: "Demo renamed" },
    subject: "Queue (renamed)",
    description: "d2",
    status: { id: 5, name: "Closed", isClosed: true },
  });
  const response = await refresh(ticket.id);
  assert.equal(response.status, 200, response.text);
  assert.equal(response.body.title, "Queue (renamed)");
  assert.equal(response.body.remote.displayRef, "Demo renamed #7");
  assert.equal(response.body.remote.state, "Closed");
  assert.equal(response.body.bodyMarkdown, "d");
});
