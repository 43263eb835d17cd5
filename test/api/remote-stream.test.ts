// Remote operations on the board stream (docs/api.md, "The board change stream"): one board_updated
// per request that changed something, after its last commit, even when the request commits twice
// (push claims `pushing` before calling the provider; an import posts its backlink after
// committing).

import assert from "node:assert/strict";
import { after, test } from "node:test";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github.js";
import { startTestServer } from "../helpers/server.js";
import { SseClient, sleep } from "../helpers/sse-client.js";
import { addComment, createBoard, credentialsEnv, importIssue, TOKENS } from "./remote-fixtures.js";

const gh: FakeGitHub = await startFakeGitHub({ token: TOKENS.github });
const api = await startTestServer({
  env: credentialsEnv({ [`github:${gh.instanceUrl}`]: TOKENS.github }),
});
const board = await createBoard(api, "Streamed");
const client = await SseClient.open(`${api.url}/api/boards/${board.boardId}/events`);
after(async () => {
  client.close();
  await gh.close();
});
await client.waitUntil(() => client.comments.includes("connected"));

/** Runs a request and checks that exactly `count` more messages follow it. */
async function expectMessages(count: number, run: () => Promise<unknown>): Promise<void> {
  const before = client.messages.length;
  await run();
  await client.waitForMessages(before + count);
  await sleep(80);
  assert.equal(client.messages.length, before + count);
  for (const message of client.messages.slice(before)) {
    assert.deepEqual([message.data.boardId, message.data.event], [board.boardId, "board_updated"]);
  }
}

test("import, refresh and push each announce once; refused requests not at all", async () => {
  gh.addIssue({ owner: "octo", repo: "live", number: 1, title: "Watched" });
  gh.addIssue({ owner: "octo", repo: "live", number: 2, title: "Watched with backlink" });
  let ticket: { id: number } = { id: 0 };
  await expectMessages(1, async () => {
    ticket = await importIssue(api, board, {
      provider: "github",
      url: `${gh.instanceUrl}/octo/live/issues/1`,
    });
  });
  await expectMessages(1, () =>
    importIssue(api, board, {
      provider: "github",
      url: `${gh.instanceUrl}/octo/live/issues/2`,
      postBacklinkComment: true,
    }),
  );
  await expectMessages(1, () => api.post(`/api/tickets/${ticket.id}/remote-refresh`));

  let commentId = 0;
  await expectMessages(1, async () => {
    commentId = (await addComment(api, ticket.id, "live")).id;
  });
  await expectMessages(1, () => api.post(`/api/comments/${commentId}/push-remote`));
  // Refused before anything was written: a duplicate import, a second push.
  await expectMessages(0, () =>
    api.post(`/api/boards/${board.boardId}/remote-import`, {
      provider: "github",
      url: `${gh.instanceUrl}/octo/live/issues/1`,
      laneId: board.laneIds[0],
    }),
  );
  await expectMessages(0, () => api.post(`/api/comments/${commentId}/push-remote`));
});
