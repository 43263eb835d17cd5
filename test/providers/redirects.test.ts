import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { createGitLabProvider } from "../../src/providers/gitlab.js";
import { locateRemoteIssue } from "../../src/providers/issue-locator.js";
import { type FakeGitLab, startFakeGitLab } from "../fakes/gitlab.js";
import { expectRemoteError } from "./remote-assertions.js";

const TOKEN = "glpat-redirectSecret01";

describe("redirects from a provider", () => {
  let gl: FakeGitLab;
  let elsewhere: ReturnType<typeof createServer>;
  let elsewhereUrl: string;
  const seenElsewhere: IncomingHttpHeaders[] = [];
  const gitlab = createGitLabProvider({ timeoutMs: 5000 });

  before(async () => {
    gl = await startFakeGitLab({ token: TOKEN });
    gl.addIssue({ projectPath: "team/app", iid: 3, title: "Moved", description: "" });
    elsewhere = createServer((req, res) => {
      seenElsewhere.push(req.headers);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    // Another port is another origin, just as another host would be.
    elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  });
  after(async () => {
    await gl.close();
    await new Promise((resolve) => elsewhere.close(resolve));
  });

  const target = () =>
    locateRemoteIssue({ provider: "gitlab", url: `${gl.instanceUrl}/team/app/-/issues/3` });

  test("a redirect to another origin is refused and the token never leaves", async () => {
    gl.interceptNext({ status: 302, headers: { location: `${elsewhereUrl}/steal` }, body: "" });
    await expectRemoteError(gitlab.fetchIssue(target(), TOKEN), "error", [TOKEN]);
    assert.equal(seenElsewhere.length, 0, "the other origin was never contacted");
  });

  test("a redirect within the instance's origin is followed", async () => {
    gl.interceptNext({
      status: 301,
      headers: { location: `${gl.instanceUrl}/api/v4/projects/team%2Fapp/issues/3` },
      body: "",
    });
    const issue = await gitlab.fetchIssue(target(), TOKEN);
    assert.equal(issue.title, "Moved");
  });
});
