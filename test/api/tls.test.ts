import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { startServer } from "../../src/server.js";
import { StartupError } from "../../src/storage/database.js";
import { tokensOf } from "../helpers/tokens.js";

// `--tls-cert`/`--tls-key` (docs/api.md, "Access tokens"): https on the same port, with a
// self-signed certificate the test makes with the openssl command line.

const folder = mkdtempSync(join(tmpdir(), "tack-tls-"));
after(() => rmSync(folder, { recursive: true, force: true }));
const certFile = join(folder, "cert.pem");
const keyFile = join(folder, "key.pem");
execFileSync(
  "openssl",
  [
    ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
    ...["-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", "/CN=localhost"],
    ...["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
  ],
  { stdio: "ignore" },
);
const ca = readFileSync(certFile);

function get(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
    (resolve, reject) => {
      const outgoing = request(
        url,
        { ca, method: options.method ?? "GET", headers: options.headers },
        (response) => {
          let text = "";
          response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
          );
        },
      );
      outgoing.on("error", reject);
      outgoing.end(options.body);
    },
  );
}

test("https with --tls-cert/--tls-key: tokens, a Secure session cookie, no plain http", async () => {
  const dbFile = join(folder, "tack.sqlite");
  const tokens = tokensOf(dbFile);
  const { token } = tokens.create({ name: "phone", readOnly: false });
  tokens.close();
  const server = await startServer(
    {
      host: "127.0.0.1",
      port: 0,
      dbFile,
      allowedHosts: [],
      logLevel: "silent",
      requireToken: true,
      tls: { certFile, keyFile },
    },
    {},
  );
  after(() => server.close());
  assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);

  assert.equal((await get(`${server.url}/api/boards`)).status, 401);
  const boards = await get(`${server.url}/api/boards`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(boards.status, 200, boards.text);

  const signIn = await get(`${server.url}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
  });
  assert.equal(signIn.status, 204);
  const cookie = String(signIn.headers["set-cookie"]);
  assert.match(cookie, /; Secure/);
  assert.match(cookie, /; HttpOnly/);
  assert.match(cookie, /; SameSite=Strict/);

  // The same port speaks TLS only: a plain request gets no answer from tack.
  await assert.rejects(fetch(server.url.replace("https:", "http:") + "/api/health"));
});

test("an unreadable certificate stops start-up with a one-line message", async () => {
  await assert.rejects(
    startServer(
      {
        host: "127.0.0.1",
        port: 0,
        dbFile: join(folder, "other.sqlite"),
        allowedHosts: [],
        logLevel: "silent",
        tls: { certFile: join(folder, "missing.pem"), keyFile },
      },
      {},
    ),
    (error: unknown) =>
      error instanceof StartupError &&
      /^cannot read --tls-cert .*missing\.pem: ENOENT$/.test(error.message),
  );
});
