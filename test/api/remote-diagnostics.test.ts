import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github.js";
import { type FakeGitLab, startFakeGitLab } from "../fakes/gitlab.js";
import { type FakeRedmine, startFakeRedmine } from "../fakes/redmine.js";
import { assertError } from "../helpers/factories.js";
import type { ApiResponse } from "../helpers/server.js";
import { startTestServer } from "../helpers/server.js";
import { ALL_TOKENS, credentialsEnv, TOKENS } from "./remote-fixtures.js";

const TIMEOUT_MS = 400;

const gh: FakeGitHub = await startFakeGitHub({ token: TOKENS.github });
const gl: FakeGitLab = await startFakeGitLab({ token: TOKENS.gitlab });
const rm: FakeRedmine = await startFakeRedmine({ token: TOKENS.redmine });
after(() => Promise.all([gh.close(), gl.close(), rm.close()]));
gh.addIssue({ owner: "octo", repo: "hello", number: 1, title: "Reachable" });
gl.addIssue({ projectPath: "group/app", iid: 2, title: "Reachable too" });
rm.addIssue({ id: 3, project: { id: 9, name: "Ops" }, subject: "Reachable three" });

const api = await startTestServer({
  env: credentialsEnv(
    {
      [`github:${gh.instanceUrl}`]: TOKENS.github,
      [`gitlab:${gl.instanceUrl}`]: TOKENS.gitlab,
      [`redmine:${rm.instanceUrl}`]: TOKENS.redmine,
    },
    { TACK_REMOTE_TIMEOUT_MS: String(TIMEOUT_MS) },
  ),
});
const bare = await startTestServer();

/** Every diagnostic response of this file, checked for tokens at the end. */
const seen: ApiResponse[] = [];
async function diagnose(body: unknown, server = api) {
  const response = await server.post("/api/remote-diagnostics", body);
  seen.push(response);
  return response;
}

/** A 400 carrying a RemoteDiagnosticResult (not the error shape). */
function assertFailed(response: ApiResponse, expected: Record<string, unknown>) {
  assert.equal(response.status, 400, response.text);
  assert.equal(response.body.error, undefined);
  for (const [key, value] of Object.entries(expected)) {
    assert.deepEqual(response.body[key], value, `${key} in ${response.text}`);
  }
}

describe("GET /api/remote-diagnostics", () => {
  test("lists each provider with configured or missing_credential", async () => {
    const configured = await api.get("/api/remote-diagnostics");
    assert.equal(configured.status, 200);
    assert.deepEqual(configured.body, {
      providers: [
        { id: "github", hasCredential: true, status: "configured" },
        { id: "gitlab", hasCredential: true, status: "configured" },
        { id: "redmine", hasCredential: true, status: "configured" },
      ],
    });
    const none = await bare.get("/api/remote-diagnostics");
    assert.deepEqual(
      none.body.providers.map((provider: { status: string }) => provider.status),
      ["missing_credential", "missing_credential", "missing_credential"],
    );
  });
});

describe("POST /api/remote-diagnostics: reachable", () => {
  test("an issue reference resolves the issue with the exact-scope credential", async () => {
    const response = await diagnose({
      provider: "github",
      url: `${gh.instanceUrl}/octo/hello/issues/1`,
    });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, {
      provider: "github",
      hasCredential: true,
      status: "reachable",
      displayRef: "octo/hello#1",
      url: `${gh.instanceUrl}/octo/hello/issues/1`,
      message: "octo/hello#1 is reachable with the configured credential",
    });
    for (const [body, displayRef] of [
      [
        { provider: "gitlab", instanceUrl: gl.instanceUrl, projectKey: "group/app", issueKey: "2" },
        "group/app#2",
      ],
      [{ provider: "redmine", url: `${rm.instanceUrl}/issues/3` }, "Ops #3"],
    ] as const) {
      const other = await diagnose(body);
      assert.equal(other.status, 200, other.text);
      assert.equal(other.body.displayRef, displayRef);
    }
  });

  test("without an issue the credential is checked against the instance", async () => {
    const checks = [
      { provider: "github", instanceUrl: gh.instanceUrl, fake: gh, path: "/api/v3/" },
      { provider: "gitlab", instanceUrl: gl.instanceUrl, fake: gl, path: "/api/v4/user" },
      {
        provider: "redmine",
        instanceUrl: `${rm.instanceUrl}/`,
        fake: rm,
        path: "/redmine/users/current.json",
      },
    ];
    for (const { provider, instanceUrl, fake, path } of checks) {
      const response = await diagnose({ provider, instanceUrl });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.status, "reachable");
      assert.equal(response.body.hasCredential, true);
      assert.equal(fake.requests.at(-1)?.path, path);
    }
  });
});

describe("POST /api/remote-diagnostics: failures are 400 with a result", () => {
  const issue = { provider: "github", url: `${gh.instanceUrl}/octo/hello/issues/1` };

  test("auth_failed, permission_failed, not_found", async () => {
    gh.failNext(401);
    assertFailed(await diagnose(issue), {
      provider: "github",
      hasCredential: true,
      status: "auth_failed",
      message: `github rejected the credential for ${gh.instanceUrl}`,
    });
    gh.failNext(403);
    assertFailed(await diagnose(issue), { status: "permission_failed" });
    assertFailed(
      await diagnose({ provider: "gitlab", url: `${gl.instanceUrl}/group/app/-/issues/99` }),
      {
        status: "not_found",
        message: "gitlab issue group/app#99 was not found or is not visible to the credential",
      },
    );
  });

  test("rate_limited: GitHub's 403 with an exhausted quota, GitLab's 429", async () => {
    gh.exhaustRateLimit();
    gl.exhaustRateLimit();
    try {
      assertFailed(await diagnose(issue), { status: "rate_limited" });
      assertFailed(await diagnose({ provider: "gitlab", instanceUrl: gl.instanceUrl }), {
        status: "rate_limited",
        message: "gitlab rate limit reached; try again later",
      });
    } finally {
      gh.resetRateLimit();
      gl.resetRateLimit();
    }
  });

  test("error: a 500, and a provider slower than TACK_REMOTE_TIMEOUT_MS", async () => {
    rm.failNext(500);
    assertFailed(await diagnose({ provider: "redmine", url: `${rm.instanceUrl}/issues/3` }), {
      status: "error",
      message: "redmine answered with http status 500",
    });
    gh.setDelay(TIMEOUT_MS * 3);
    try {
      assertFailed(await diagnose(issue), {
        status: "error",
        message: `github did not answer within ${TIMEOUT_MS / 1000} s`,
      });
    } finally {
      gh.setDelay(0);
    }
  });

  test("missing_credential: an instance without an exact credential is never contacted", async () => {
    const stranger = await startFakeGitHub({ token: TOKENS.github });
    try {
      stranger.addIssue({ owner: "octo", repo: "hello", number: 1, title: "Unconfigured" });
      assertFailed(
        await diagnose({ provider: "github", url: `${stranger.instanceUrl}/octo/hello/issues/1` }),
        {
          provider: "github",
          hasCredential: false,
          status: "missing_credential",
          message: `no credential configured for github at ${stranger.instanceUrl}`,
        },
      );
      assert.equal(stranger.requests.length, 0);
    } finally {
      await stranger.close();
    }
    // The public instance is the default when no instanceUrl is given.
    assertFailed(await diagnose({ provider: "gitlab" }), {
      status: "missing_credential",
      message: "no credential configured for gitlab at https://gitlab.com",
    });
    assertFailed(await diagnose({ provider: "redmine", instanceUrl: rm.instanceUrl }, bare), {
      hasCredential: false,
      status: "missing_credential",
    });
    // With no credential for the provider at all, that is the answer, whatever else is missing.
    for (const provider of ["redmine", "github", "gitlab"]) {
      assertFailed(await diagnose({ provider }, bare), {
        provider,
        hasCredential: false,
        status: "missing_credential",
      });
    }
    assertFailed(await diagnose({ provider: "redmine" }, bare), {
      message: "no credential configured for redmine",
    });
  });

  test("unsupported_provider", async () => {
    assertFailed(await diagnose({ provider: "jira", url: "https://jira.example/browse/X-1" }), {
      provider: "jira",
      hasCredential: false,
      status: "unsupported_provider",
      message: "provider must be one of github, gitlab, redmine",
    });
  });

  test("a reference that cannot be used is status error naming the field", async () => {
    assertFailed(await diagnose({ provider: "github", url: "https://github.com/octo" }), {
      status: "error",
      message: "url is not a github issue url",
    });
    assertFailed(await diagnose({ provider: "redmine" }), {
      status: "error",
      message: "instanceUrl or url is required for redmine",
    });
    assertFailed(await diagnose({ provider: "gitlab", instanceUrl: "http://gitlab.example" }), {
      status: "error",
      message: "instanceUrl must use https",
    });
  });

  test("a request that cannot be read is a result too: no string provider, a malformed field", async () => {
    const noProvider = { provider: "", hasCredential: false, status: "unsupported_provider" };
    assertFailed(await diagnose({}), { ...noProvider, message: "provider is required" });
    assertFailed(await diagnose({ provider: 42 }), {
      ...noProvider,
      message: "provider must be a string",
    });
    assertFailed(
      await diagnose({ provider: null, url: "https://github.com/octo/hello/issues/1" }),
      {
        ...noProvider,
        message: "provider must be a string",
      },
    );
    assertFailed(await diagnose({ provider: "github", issueKey: 5 }), {
      provider: "github",
      hasCredential: false,
      status: "error",
      message: "issueKey must be a string",
    });
    assertFailed(await diagnose([{ provider: "github" }]), {
      ...noProvider,
      message: "request body must be a JSON object",
    });
    assertFailed(await diagnose('{"provider": "github",'), {
      ...noProvider,
      message: "request body is not valid JSON",
    });
  });

  test("statuses other than 400 keep the error shape", async () => {
    const tooLarge = { provider: "github", url: "x".repeat(1024 * 1024) };
    assertError(await diagnose(tooLarge), 413, "request body is too large");
  });

  test("no result ever contains a token", () => {
    assert.ok(seen.length > 15);
    for (const response of seen) {
      for (const token of ALL_TOKENS) assert.ok(!response.text.includes(token), response.text);
    }
  });
});
