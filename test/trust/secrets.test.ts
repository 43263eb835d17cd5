import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { startServer } from "../../src/server.js";
import { ALL_TOKENS, credentialsEnv, TOKENS } from "../api/remote-fixtures.js";
import { capturedLog } from "../helpers/log-capture.js";
import { tokensOf } from "../helpers/tokens.js";

/**
 * Credentials a client sends in authorization-like headers, and the configured provider tokens,
 * never reach a log line, at info level (which logs every request) or at trace, nor an answer.
 * test/api/remote-secrets.test.ts drives the remote flows (import, refresh, push, diagnostics,
 * export) against the fake providers with the same check.
 */

const folder = mkdtempSync(join(tmpdir(), "tack-secrets-trust-"));
after(() => rmSync(folder, { recursive: true, force: true }));
const CLIENT_SECRET = "clientSecretHeaderValue0099";

for (const logLevel of ["info", "trace"]) {
  test(`at ${logLevel} level, no log line or answer carries a token or an authorization header`, async () => {
    const log = capturedLog();
    const server = await startServer(
      {
        host: "127.0.0.1",
        port: 0,
        dbFile: join(folder, `${logLevel}.sqlite`),
        allowedHosts: [],
        logLevel,
      },
      credentialsEnv({ "github:*": TOKENS.github, "redmine:*": TOKENS.redmine }),
      { logStream: log.stream },
    );
    const answers: string[] = [];
    try {
      const headers = {
        authorization: `Bearer ${CLIENT_SECRET}`,
        cookie: `session=${CLIENT_SECRET}`,
        "private-token": CLIENT_SECRET,
        "x-api-key": CLIENT_SECRET,
        "x-redmine-api-key": CLIENT_SECRET,
      };
      const requests: [string, string, unknown?][] = [
        ["GET", "/api/boards"],
        ["POST", "/api/boards", { name: "b" }],
        ["POST", "/api/boards", { name: 5 }],
        ["GET", "/api/nowhere"],
        ["GET", "/api/meta"],
        ["GET", "/api/remote-diagnostics"],
        ["POST", "/api/remote-diagnostics", { provider: "github" }],
        ["GET", "/api/boards/1/export"],
        [
          "POST",
          "/api/boards/1/remote-import",
          { url: "https://github.com/o/r/issues/1", laneId: 1 },
        ],
      ];
      for (const [method, path, body] of requests) {
        const response = await fetch(server.url + path, {
          method,
          headers: {
            ...headers,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        answers.push(
          `${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`,
        );
      }
    } finally {
      await server.close();
    }
    const logs = log.text();
    assert.ok(logs.includes("/api/boards"), "requests are logged at this level");
    for (const secret of [...ALL_TOKENS, CLIENT_SECRET]) {
      assert.ok(!logs.includes(secret), `${secret} in the log`);
      for (const answer of answers) assert.ok(!answer.includes(secret), `${secret} in ${answer}`);
    }
  });
}

test("access tokens and session cookies never reach a log line (trace level), an answer or an error", async () => {
  const log = capturedLog();
  const dbFile = join(folder, "access.sqlite");
  const tokens = tokensOf(dbFile);
  const { token } = tokens.create({ name: "agent", readOnly: false });
  const { token: reader } = tokens.create({ name: "viewer", readOnly: true });
  const { token: revoked } = tokens.create({ name: "old", readOnly: false });
  tokens.revoke("old");
  tokens.close();
  const server = await startServer(
    {
      host: "127.0.0.1",
      port: 0,
      dbFile,
      allowedHosts: [],
      logLevel: "trace",
      requireToken: true,
    },
    {},
    { logStream: log.stream },
  );
  const answers: string[] = [];
  let session = "";
  try {
    const send = async (
      method: string,
      path: string,
      headers: Record<string, string>,
      body?: unknown,
    ) => {
      const response = await fetch(server.url + path, {
        method,
        headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      const cookie = response.headers.get("set-cookie");
      if (cookie?.startsWith("tack_session=") && !cookie.startsWith("tack_session=;")) {
        session = cookie.slice("tack_session=".length).split(";")[0] as string;
      }
      answers.push(`${response.status} ${JSON.stringify([...response.headers])} ${text}`);
    };
    for (const secret of [token, reader, revoked, `${token}x`]) {
      await send("GET", "/api/boards", { authorization: `Bearer ${secret}` });
      await send("POST", "/api/boards", { authorization: `Bearer ${secret}` }, { name: "b" });
      await send("POST", "/api/boards", { authorization: `Bearer ${secret}` }, { name: 5 });
      await send("GET", "/api/nowhere", { authorization: `Bearer ${secret}` });
      await send("POST", "/api/session", {}, { token: secret });
      await send("POST", "/api/session", {}, { token: secret, extra: true });
    }
    assert.ok(session !== "", "a session was made");
    await send("GET", "/api/boards", { cookie: `tack_session=${session}` });
    await send("GET", "/api/session", { cookie: `tack_session=${session}` });
    await send("DELETE", "/api/session", { cookie: `tack_session=${session}` });
    await send("GET", "/api/boards", { cookie: `tack_session=${session}` });
  } finally {
    await server.close();
  }
  const logs = log.text();
  assert.ok(logs.includes("/api/session"), "requests are logged at this level");
  for (const secret of [token, reader, revoked, session]) {
    assert.ok(!logs.includes(secret), "a token or session in the log");
    for (const answer of answers) {
      // The session's own Set-Cookie is the one place its value goes, once.
      const withoutSetCookie = answer.replace(/"set-cookie","[^"]*"/g, "");
      assert.ok(!withoutSetCookie.includes(secret), `a token or session in ${answer}`);
      assert.ok(!answer.includes(token) && !answer.includes(reader), `a token in ${answer}`);
    }
  }
});
