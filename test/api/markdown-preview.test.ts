import assert from "node:assert/strict";
import { test } from "node:test";
import { assertError, createBoard, createTicket, snapshot } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";

const api = await startTestServer();
const body = [
  "First line\nsecond line with <kbd>Ctrl</kbd> and #12",
  "```ts\nconst answer: number = 42;\n```",
  "<details><summary>More</summary>\n\nhidden <script>alert(1)</script>\n</details>",
].join("\n\n");

test("the preview is exactly the bodyHtml a saved ticket and comment get", async () => {
  const shell = await createBoard(api, "preview");
  const preview = await api.post("/api/markdown/preview", { markdown: body });
  assert.equal(preview.status, 200);
  assert.deepEqual(Object.keys(preview.body), ["html"]);
  const ticket = await createTicket(api, shell.board.id, {
    laneId: shell.lanes[0]?.id as number,
    title: "t",
    bodyMarkdown: body,
  });
  const stored = (await api.get(`/api/tickets/${ticket.id}`)).body;
  assert.equal(preview.body.html, stored.bodyHtml);
  const comment = await api.post(`/api/tickets/${ticket.id}/comments`, { bodyMarkdown: body });
  assert.equal(preview.body.html, comment.body.bodyHtml);
  assert.match(preview.body.html, /<code class="hljs language-ts">/);
  assert.doesNotMatch(preview.body.html, /<script/);
});

test("a preview writes nothing, and bad input is a 400", async () => {
  const before = await snapshot(api);
  assert.equal((await api.post("/api/markdown/preview", { markdown: "# x" })).status, 200);
  assertError(await api.post("/api/markdown/preview", {}), 400, /markdown/);
  assertError(await api.post("/api/markdown/preview", { markdown: 5 }), 400, /markdown/);
  assertError(await api.post("/api/markdown/preview", { markdown: "x".repeat(200_001) }), 400);
  assert.deepEqual(await snapshot(api), before);
});
