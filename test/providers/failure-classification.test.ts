// The same failure table for every provider (docs/api.md, "Remote tracking"), driven through the
// registry against each fake: the status an answer maps to, and that no message ever carries a
// token or an upstream body.

import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, describe, test } from "node:test";
import { MAX_RESPONSE_BYTES } from "../../src/providers/http.js";
import { locateRemoteIssue } from "../../src/providers/issue-locator.js";
import { getProvider } from "../../src/providers/providers.js";
import type {
  RemoteIssueTarget,
  RemoteProvider,
  RemoteProviderId,
} from "../../src/providers/types.js";
import type { FailNextOptions, FakeServerControls } from "../fakes/fake-http-server.js";
import { startFakeGitHub } from "../fakes/github.js";
import { startFakeGitLab } from "../fakes/gitlab.js";
import { startFakeRedmine } from "../fakes/redmine.js";
import { expectRemoteError } from "./remote-assertions.js";

const TOKEN = "tok_ClassifiedSecret_42";
// Generous for ordinary answers on a loaded machine; the timeout test uses its own short one.
const TIMEOUT_MS = 5000;
const SHORT_TIMEOUT_MS = 250;

interface FakeUnderTest extends FakeServerControls {
  instanceUrl: string;
  failNext(status: number, options?: FailNextOptions): void;
}

interface Case {
  id: RemoteProviderId;
  start(): Promise<{ fake: FakeUnderTest; target: () => RemoteIssueTarget }>;
}

const cases: Case[] = [
  {
    id: "github",
    async start() {
      const fake = await startFakeGitHub({ token: TOKEN });
      fake.addIssue({ owner: "octo", repo: "hello", number: 1, title: "T" });
      const target = () =>
        locateRemoteIssue({ provider: "github", url: `${fake.instanceUrl}/octo/hello/issues/1` });
      return { fake, target };
    },
  },
  {
    id: "gitlab",
    async start() {
      const fake = await startFakeGitLab({ token: TOKEN });
      fake.addIssue({ projectPath: "group/app", iid: 1, title: "T" });
      const target = () =>
        locateRemoteIssue({ provider: "gitlab", url: `${fake.instanceUrl}/group/app/-/issues/1` });
      return { fake, target };
    },
  },
  {
    id: "redmine",
    async start() {
      const fake = await startFakeRedmine({ token: TOKEN });
      fake.addIssue({ id: 1, project: { id: 1, name: "P" }, subject: "T" });
      const target = () =>
        locateRemoteIssue({ provider: "redmine", url: `${fake.instanceUrl}/issues/1` });
      return { fake, target };
    },
  },
];

for (const { id, start } of cases) {
  describe(`${id}: failure classification`, () => {
    let fake: FakeUnderTest;
    let target: () => RemoteIssueTarget;
    const provider: RemoteProvider = getProvider(id, { timeoutMs: TIMEOUT_MS });
    const impatient: RemoteProvider = getProvider(id, { timeoutMs: SHORT_TIMEOUT_MS });
    const fetchIt = () => provider.fetchIssue(target(), TOKEN);
    const postIt = () => provider.postComment(target(), TOKEN, "hello");

    before(async () => {
      ({ fake, target } = await start());
    });
    after(() => fake.close());

    test("the registry returns this provider", () => {
      assert.equal(provider.id, id);
    });

    test("the fake answers normally between failures", async () => {
      assert.equal((await fetchIt()).title, "T");
    });

    const statusTable = [
      [401, "auth_failed"],
      [403, "permission_failed"],
      [404, "not_found"],
      [429, "rate_limited"],
      [500, "error"],
      [502, "error"],
      [422, "error"],
    ] as const;
    for (const [httpStatus, status] of statusTable) {
      test(`http ${httpStatus} is ${status} for reads and comments`, async () => {
        fake.failNext(httpStatus);
        const error = await expectRemoteError(fetchIt(), status, [TOKEN]);
        assert.equal(error.httpStatus, httpStatus);
        fake.failNext(httpStatus);
        await expectRemoteError(postIt(), status, [TOKEN]);
      });
    }

    test("403 with exhausted rate-limit headers is rate_limited", async () => {
      fake.failNext(403, { headers: { "x-ratelimit-remaining": "0" } });
      await expectRemoteError(fetchIt(), "rate_limited", [TOKEN]);
      fake.failNext(403, { headers: { "RateLimit-Remaining": "0" } });
      await expectRemoteError(fetchIt(), "rate_limited", [TOKEN]);
      fake.failNext(403, { headers: { "Retry-After": "30" } });
      await expectRemoteError(fetchIt(), "rate_limited", [TOKEN]);
    });

    test("403 with quota left is still permission_failed", async () => {
      fake.failNext(403, { headers: { "x-ratelimit-remaining": "4999" } });
      await expectRemoteError(fetchIt(), "permission_failed", [TOKEN]);
    });

    test("upstream bodies never reach the message, even when they echo the token", async () => {
      fake.interceptNext({ status: 500, body: { message: `invalid token ${TOKEN}` } });
      const error = await expectRemoteError(fetchIt(), "error", [TOKEN, "invalid token"]);
      assert.equal(error.message, `${id} answered with http status 500`);
    });

    test("an unparsable 200 answer is error", async () => {
      fake.interceptNext({ status: 200, body: "<html>maintenance</html>" });
      const error = await expectRemoteError(fetchIt(), "error", [TOKEN, "maintenance"]);
      assert.equal(error.message, `${id} returned a response tack could not read`);
    });

    test("an answer beyond the size limit is error, and the next call is unaffected", async () => {
      // Valid JSON, one string field larger than the limit: only the size can refuse it.
      const huge = `{"title":"${"x".repeat(MAX_RESPONSE_BYTES)}"}`;
      fake.interceptNext({ status: 200, body: huge });
      const error = await expectRemoteError(fetchIt(), "error", [TOKEN]);
      assert.equal(error.message, `${id} sent an answer larger than 16 MiB`);
      assert.equal((await fetchIt()).title, "T", "the next call is answered normally");
    });

    test("a JSON answer without the expected fields is error", async () => {
      fake.interceptNext({ status: 200, body: { unexpected: true } });
      await expectRemoteError(fetchIt(), "error", [TOKEN]);
    });

    test("a slow answer times out as error", async () => {
      fake.setDelay(SHORT_TIMEOUT_MS * 8);
      try {
        const error = await expectRemoteError(impatient.fetchIssue(target(), TOKEN), "error", [
          TOKEN,
        ]);
        assert.equal(error.message, `${id} did not answer within 0.25 s`);
      } finally {
        fake.setDelay(0);
      }
    });

    test("a token that is not a valid header value fails without quoting it", async () => {
      const bad = `${TOKEN}\nX-Injected: 1`;
      await expectRemoteError(provider.fetchIssue(target(), bad), "error", [TOKEN]);
    });
  });
}

describe("network failures", () => {
  let closedPortUrl: string;

  before(async () => {
    // Reserve a port, then free it: nothing listens there afterwards.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    assert.ok(address !== null && typeof address === "object");
    closedPortUrl = `http://127.0.0.1:${address.port}`;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  for (const id of ["github", "gitlab", "redmine"] as const) {
    test(`${id}: an unreachable instance is error`, async () => {
      const target: RemoteIssueTarget = {
        provider: id,
        instanceUrl: closedPortUrl,
        resourceType: "issue",
        projectKey: "a/b",
        issueKey: "1",
      };
      const error = await expectRemoteError(getProvider(id).fetchIssue(target, TOKEN), "error", [
        TOKEN,
      ]);
      assert.equal(error.message, `could not reach ${id} at ${closedPortUrl}`);
      assert.equal(error.httpStatus, null);
    });
  }
});
