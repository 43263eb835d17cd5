import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { inspect } from "node:util";
import {
  CredentialConfigError,
  type CredentialEnv,
  type CredentialStore,
  loadCredentials,
} from "../../src/providers/credentials.js";

const SECRET = "ghp_SuperSecret123";
const noFile = (): string => {
  throw new Error("no file expected");
};

function load(env: CredentialEnv, readFile: (path: string) => string = noFile): CredentialStore {
  return loadCredentials(env, readFile);
}

/** Loading must fail with CredentialConfigError, the expected text, and no secret in it. */
function assertConfigError(env: CredentialEnv, expected: RegExp, secrets: string[] = [SECRET]) {
  let caught: unknown;
  try {
    load(env, () => env.FILE_CONTENT ?? "");
  } catch (error) {
    caught = error;
  }
  assert.ok(
    caught instanceof CredentialConfigError,
    `expected CredentialConfigError, got ${caught}`,
  );
  assert.match(caught.message, expected);
  for (const secret of secrets) assert.ok(!caught.message.includes(secret), caught.message);
}

describe("credential sources", () => {
  test("TACK_REMOTE_CREDENTIALS accepts token strings and token objects", () => {
    const store = load({
      TACK_REMOTE_CREDENTIALS: JSON.stringify({
        "github:https://github.com": "gh-token",
        "gitlab:https://gitlab.example.com": { type: "token", token: "gl-token" },
      }),
    });
    assert.equal(store.forOperation("github", "https://github.com"), "gh-token");
    assert.equal(store.forOperation("gitlab", "https://gitlab.example.com"), "gl-token");
    assert.equal(store.forOperation("redmine", "https://redmine.example.com"), null);
  });

  test("GITHUB_TOKEN is the credential for github:https://github.com", () => {
    const store = load({ GITHUB_TOKEN: "from-env" });
    assert.equal(store.forDiagnostic("github", "https://github.com"), "from-env");
    assert.equal(store.forOperation("github", "https://ghe.example.com"), null);
    assert.deepEqual(store.scopes(), ["github:https://github.com"]);
  });

  test("TACK_REMOTE_CREDENTIALS_FILE is read as the same JSON", () => {
    const dir = mkdtempSync(join(tmpdir(), "tack-credentials-"));
    try {
      const path = join(dir, "credentials.json");
      writeFileSync(
        path,
        JSON.stringify({ "redmine:https://tracker.example.com/redmine": "rm-key" }),
      );
      const store = loadCredentials({ TACK_REMOTE_CREDENTIALS_FILE: path });
      assert.equal(store.forOperation("redmine", "https://tracker.example.com/redmine"), "rm-key");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("precedence: TACK_REMOTE_CREDENTIALS, then the file, then GITHUB_TOKEN", () => {
    const store = load(
      {
        TACK_REMOTE_CREDENTIALS: JSON.stringify({ "github:https://github.com": "inline" }),
        TACK_REMOTE_CREDENTIALS_FILE: "/creds.json",
        GITHUB_TOKEN: "env",
      },
      () => JSON.stringify({ "github:https://github.com": "file", "gitlab:*": "file-gitlab" }),
    );
    assert.equal(store.forOperation("github", "https://github.com"), "inline");
    assert.equal(store.forOperation("gitlab", "https://gitlab.com"), "file-gitlab");
    assert.equal(
      load({ TACK_REMOTE_CREDENTIALS_FILE: "/c" }, () => '{"github:*":"file"}').forOperation(
        "github",
        "https://github.com",
      ),
      "file",
    );
  });

  test("empty variables count as unset", () => {
    const store = load({
      TACK_REMOTE_CREDENTIALS: "  ",
      TACK_REMOTE_CREDENTIALS_FILE: "",
      GITHUB_TOKEN: "",
    });
    assert.deepEqual(store.scopes(), []);
    assert.equal(store.hasCredential("github"), false);
  });
});

describe("credential scopes", () => {
  const store = load({
    TACK_REMOTE_CREDENTIALS: JSON.stringify({
      "github:HTTPS://GHE.Example.com:443/": "ghe",
      "github:*": "gh-wildcard",
      "gitlab:https://gitlab.example.com:8443": "gl-port",
      "redmine:https://Tracker.example.com/redmine/": "rm-sub",
      "redmine:https://tracker.example.com": "rm-root",
    }),
  });

  test("exact scopes compare normalised origins (case, default port, trailing slash)", () => {
    assert.equal(store.forOperation("github", "https://ghe.example.com"), "ghe");
    assert.equal(store.forDiagnostic("github", "https://GHE.example.com:443"), "ghe");
    assert.equal(store.forOperation("gitlab", "https://gitlab.example.com:8443/"), "gl-port");
    assert.equal(store.forOperation("gitlab", "https://gitlab.example.com"), null);
  });

  test("the provider wildcard serves operations but never diagnostics", () => {
    assert.equal(store.forOperation("github", "https://github.com"), "gh-wildcard");
    assert.equal(store.forDiagnostic("github", "https://github.com"), null);
    assert.equal(
      store.forOperation("github", "https://ghe.example.com"),
      "ghe",
      "exact scope wins",
    );
  });

  test("redmine scopes keep the sub-path", () => {
    assert.equal(store.forOperation("redmine", "https://tracker.example.com/redmine"), "rm-sub");
    assert.equal(store.forOperation("redmine", "https://TRACKER.example.com/redmine/"), "rm-sub");
    assert.equal(store.forOperation("redmine", "https://tracker.example.com"), "rm-root");
    assert.equal(store.forOperation("redmine", "https://tracker.example.com/other"), null);
    assert.equal(store.forDiagnostic("redmine", "https://tracker.example.com/redmine/x"), null);
  });

  test("hasCredential reports providers with any scope, wildcard included", () => {
    assert.equal(store.hasCredential("github"), true);
    assert.equal(store.hasCredential("redmine"), true);
    assert.equal(load({}).hasCredential("gitlab"), false);
  });

  test("an unparsable instance url finds nothing instead of throwing", () => {
    assert.equal(store.forOperation("gitlab", "not a url"), null);
    assert.equal(store.forOperation("github", "not a url"), "gh-wildcard");
  });
});

describe("invalid credential configuration", () => {
  const inline = (value: unknown): CredentialEnv => ({
    TACK_REMOTE_CREDENTIALS: JSON.stringify(value),
  });

  test("malformed JSON is reported without echoing the input", () => {
    assertConfigError(
      { TACK_REMOTE_CREDENTIALS: `{"github:*": "${SECRET}"` },
      /^TACK_REMOTE_CREDENTIALS is not valid JSON$/,
    );
  });

  test("the document must be an object", () => {
    assertConfigError(inline([SECRET]), /^TACK_REMOTE_CREDENTIALS must be a JSON object$/);
  });

  test("an unknown provider names the key", () => {
    assertConfigError(
      inline({ "jira:https://jira.example.com": SECRET }),
      /key "jira:https:\/\/jira\.example\.com\/" names an unknown provider/,
    );
  });

  test("bad instance urls name the key and the rule", () => {
    assertConfigError(
      inline({ "gitlab:ftp://x.example.com": SECRET }),
      /key number 1: instance url must use https/,
    );
    assertConfigError(
      inline({ "gitlab:http://gitlab.example.com": SECRET }),
      /key "gitlab:http:\/\/gitlab\.example\.com\/": instance url must use https/,
    );
    assertConfigError(
      inline({ "github:https://ghe.example.com/api/v3": SECRET }),
      /instance url must be an origin without a path for github/,
    );
    assertConfigError(
      inline({ "redmine:not a url": SECRET }),
      /key number 1: instance url is not a valid url/,
    );
    assertConfigError(
      inline({ "redmine:https://r.example.com/?key=abc": SECRET }),
      /instance url must not have a query or fragment/,
    );
  });

  test("http is accepted for loopback instances only", () => {
    const store = load(
      inline({ "gitlab:http://127.0.0.1:8080": "t", "redmine:http://localhost:3000/rm": "r" }),
    );
    assert.equal(store.forOperation("gitlab", "http://127.0.0.1:8080"), "t");
    assert.equal(store.forOperation("redmine", "http://localhost:3000/rm"), "r");
  });

  test("user info in a key url is rejected and not echoed", () => {
    assertConfigError(
      inline({ [`github:https://user:${SECRET}@ghe.example.com`]: "x" }),
      /key "github:https:\/\/ghe\.example\.com\/": instance url must not contain a user name or password/,
    );
  });

  test("keys that are not provider:scope are named by position, since they may be tokens", () => {
    assertConfigError(
      inline({ "github:*": "fine", [SECRET]: "github:*" }),
      /^TACK_REMOTE_CREDENTIALS: key number 2 must look like "<provider>:<instanceUrl>" or "<provider>:\*"$/,
    );
  });

  test("wrong value shapes name the key", () => {
    const shape =
      /value of key "github:\*" must be a token string or \{"type":"token","token":"\.\.\."\}/;
    assertConfigError(inline({ "github:*": 42 }), shape);
    assertConfigError(inline({ "github:*": { type: "basic", token: SECRET } }), shape);
    assertConfigError(inline({ "github:*": { type: "token" } }), shape);
    assertConfigError(inline({ "github:*": null }), shape);
  });

  test("tokens must be non-empty and free of whitespace", () => {
    assertConfigError(
      inline({ "github:*": "" }),
      /value of key "github:\*" must be a non-empty token/,
    );
    assertConfigError(
      inline({ "github:*": `${SECRET} x` }),
      /must be a non-empty token without whitespace/,
    );
    assertConfigError(
      { GITHUB_TOKEN: `${SECRET}\nsecond` },
      /^GITHUB_TOKEN must be a single token without whitespace$/,
    );
  });

  test("two keys naming the same scope are rejected", () => {
    assertConfigError(
      inline({
        "gitlab:https://gitlab.example.com": SECRET,
        "gitlab:https://GITLAB.example.com/": "x",
      }),
      /keys "gitlab:https:\/\/gitlab\.example\.com\/" and "gitlab:https:\/\/gitlab\.example\.com\/" name the same scope/,
    );
  });

  test("an unreadable file names the variable, the path and the error code", () => {
    assert.throws(
      () => loadCredentials({ TACK_REMOTE_CREDENTIALS_FILE: "/nonexistent/tack-credentials.json" }),
      (error: unknown) =>
        error instanceof CredentialConfigError &&
        error.message ===
          "TACK_REMOTE_CREDENTIALS_FILE: cannot read /nonexistent/tack-credentials.json (ENOENT)",
    );
  });

  test("problems inside the file name the file variable", () => {
    assertConfigError(
      {
        TACK_REMOTE_CREDENTIALS_FILE: "/c.json",
        FILE_CONTENT: JSON.stringify({ "bogus:*": SECRET }),
      },
      /^TACK_REMOTE_CREDENTIALS_FILE: key "bogus:\*" names an unknown provider/,
    );
  });
});

describe("credential store secrecy", () => {
  const store = load({
    TACK_REMOTE_CREDENTIALS: JSON.stringify({
      "gitlab:*": SECRET,
      "redmine:https://r.example.com/rm": `${SECRET}-2`,
    }),
  });

  test("tokens do not appear in JSON, inspect, String or enumeration", () => {
    const renderings = [
      JSON.stringify(store),
      JSON.stringify({ nested: { store } }),
      inspect(store),
      inspect(store, { showHidden: true, depth: Number.POSITIVE_INFINITY, customInspect: false }),
      inspect({ nested: store }, { depth: 10 }),
      String(store),
      `${store}`,
      JSON.stringify(Object.entries(store)),
      JSON.stringify(structuredClone(store)),
    ];
    for (const text of renderings) assert.ok(!text.includes(SECRET), `token leaked into: ${text}`);
  });

  test("the renderings show the configured scopes", () => {
    assert.deepEqual(JSON.parse(JSON.stringify(store)), {
      scopes: ["gitlab:*", "redmine:https://r.example.com/rm"],
    });
    assert.equal(String(store), "CredentialStore(gitlab:*, redmine:https://r.example.com/rm)");
  });
});
