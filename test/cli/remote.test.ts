import assert from "node:assert/strict";
import { after, test } from "node:test";
import { credentialsEnv, TOKENS } from "../api/remote-fixtures.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github.js";
import { startTestServer } from "../helpers/server.js";
import { call, connectMcp, ok } from "../mcp/mcp-connection.js";
import { tack, tackJson } from "./tack-process.js";

// Remote tracking from the command line and the MCP `remote` toolset, against the fake GitHub
// (an Enterprise-style instance on loopback, so the provider is named with --provider).

const gh: FakeGitHub = await startFakeGitHub({ token: TOKENS.github });
after(() => gh.close());
const api = await startTestServer({
  env: credentialsEnv({ [`github:${gh.instanceUrl}`]: TOKENS.github }),
});
const { board } = (await api.post("/api/boards", { name: "Tracked" })).body;
gh.addIssue({ owner: "octo", repo: "hello", number: 7, title: "Crash on start", body: "Steps" });
gh.addIssue({ owner: "octo", repo: "hello", number: 8, title: "Second issue" });
const issue7 = `${gh.instanceUrl}/octo/hello/issues/7`;

test("remote providers, diagnose, preview, import, refresh and push from the command line", async () => {
  const providers = await tack(api.url, ["remote", "providers"]);
  assert.match(providers.stdout, /github\s+configured/);

  const diagnosed = await tack(api.url, ["remote", "diagnose", issue7, "--provider", "github"]);
  assert.equal(diagnosed.code, 0, diagnosed.stderr);
  assert.match(diagnosed.stdout, /^github: reachable/);

  const preview = await tackJson(api.url, ["remote", "preview", issue7, "--provider", "github"]);
  assert.deepEqual(
    [preview.displayRef, preview.title, preview.duplicate],
    ["octo/hello#7", "Crash on start", false],
  );

  const imported = await tackJson(api.url, [
    "remote",
    "import",
    issue7,
    "--provider",
    "github",
    "--lane",
    "doing",
  ]);
  assert.equal(imported.remote.displayRef, "octo/hello#7");
  assert.equal(imported.boardId, board.id);
  const again = await tack(api.url, ["remote", "import", issue7, "--provider", "github"]);
  assert.equal(again.code, 4, "one ticket per issue: 409");

  const refreshed = await tack(api.url, ["remote", "refresh", String(imported.id)]);
  assert.equal(refreshed.code, 0, refreshed.stderr);

  const comment = (
    await api.post(`/api/tickets/${imported.id}/comments`, { bodyMarkdown: "Fixed in 1.2" })
  ).body;
  const pushed = await tackJson(api.url, ["remote", "push", String(comment.id)]);
  assert.equal(pushed.sync.status, "pushed");
  assert.equal(gh.comments.at(-1)?.body, "Fixed in 1.2");
});

test("the MCP remote toolset previews and imports; it is marked open-world", async () => {
  const client = await connectMcp(api.url, "agent", { toolsets: ["remote"] });
  const preview = await ok(client, "remote", {
    action: "preview",
    url: `${gh.instanceUrl}/octo/hello/issues/8`,
    provider: "github",
  });
  assert.equal(preview.title, "Second issue");
  const imported = await ok(client, "remote", {
    action: "import",
    url: `${gh.instanceUrl}/octo/hello/issues/8`,
    provider: "github",
  });
  assert.equal(imported.remote.displayRef, "octo/hello#8");
  const missing = await call(client, "remote", { action: "import" });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /url is required for import/);
  await client.close();
});
