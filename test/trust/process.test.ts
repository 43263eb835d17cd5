import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, get, request } from "node:http";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import Database from "better-sqlite3";
import { type Exit, runCli, startCli } from "../helpers/cli.js";
import { rawRequest } from "../helpers/raw-http.js";

/**
 * The real `tack` process: options, start line, environment, signals, startup failures. Each
 * spawn costs about a second, so scenarios are combined and independent ones run concurrently.
 */

const folder = mkdtempSync(join(tmpdir(), "tack-process-"));
after(() => rmSync(folder, { recursive: true, force: true }));

/** A startup failure: exit code 1 and exactly one line on stderr, no stack trace. */
function assertOneLineFailure(exit: Exit, message: RegExp): void {
  assert.equal(exit.code, 1, `exit code ${exit.code}; stderr: ${exit.stderr}`);
  const lines = exit.stderr.split("\n").filter((line) => line !== "");
  assert.equal(lines.length, 1, `stderr should be one line, got:\n${exit.stderr}`);
  assert.match(lines[0] as string, /^tack: /);
  assert.match(lines[0] as string, message);
  assert.doesNotMatch(exit.stderr, /\n\s+at |Error:/);
  assert.equal(exit.stdout, "");
}

/** A keep-alive request whose socket stays open afterwards. */
function keepAliveGet(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${url}/api/health`, { agent }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    }).on("error", reject);
  });
}

async function postJson(url: string, path: string, body: unknown) {
  const response = await fetch(url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

test("the tack command and npm start run node with the same options", () => {
  // A heavy import relies on them (docs/performance.md); one must not drift from the other.
  const shebang = readFileSync("src/cli.ts", "utf8").split("\n")[0] ?? "";
  const start = JSON.parse(readFileSync("package.json", "utf8")).scripts.start as string;
  const fromShebang = /^#!\/usr\/bin\/env -S node (.*)$/.exec(shebang)?.[1];
  const fromStart = /^node (.*) dist\/cli\.js serve$/.exec(start)?.[1];
  assert.ok(fromShebang, `unexpected shebang: ${shebang}`);
  assert.equal(fromShebang, fromStart);
  assert.match(fromStart ?? "", /--max-semi-space-size=\d+/);
  // Without it, a big board's export piles its garbage into the old generation once a board list
  // is kept (docs/performance.md, "The huge board").
  assert.match(fromStart ?? "", /--no-allocation-site-pretenuring/);
});

describe("help", { concurrency: true }, () => {
  test("tack --help lists the serve command and the global options", async () => {
    const exit = await runCli(["--help"]);
    assert.equal(exit.code, 0, exit.stderr);
    for (const text of ["Usage: tack", "serve", "--version", "--help"]) {
      assert.ok(exit.stdout.includes(text), `missing ${text} in:\n${exit.stdout}`);
    }
  });

  test("tack serve --help lists every option and its environment variable", async () => {
    const exit = await runCli(["serve", "--help"]);
    assert.equal(exit.code, 0, exit.stderr);
    // Commander wraps descriptions at the terminal width.
    const help = exit.stdout.replace(/\s+/g, " ");
    for (const text of [
      "--host",
      "--port",
      "--db",
      "--allowed-host",
      "--allow-remote",
      "--log-level",
      "env: HOST",
      "env: PORT",
      "env: TACK_DB_FILE",
      "env: TACK_ALLOWED_HOSTS",
    ]) {
      assert.ok(help.includes(text), `missing ${text} in:\n${exit.stdout}`);
    }
  });
});

describe("serving", () => {
  const dbFile = join(folder, "nested", "deeper", "tack.sqlite");
  let boardId = 0;

  test("env HOST, PORT, TACK_DB_FILE and TACK_ALLOWED_HOSTS are used; one start line; SIGTERM exits 0 with a keep-alive connection open", async () => {
    assert.equal(existsSync(join(folder, "nested")), false);
    const tack = await startCli([], {
      HOST: "localhost",
      PORT: "0",
      TACK_DB_FILE: dbFile,
      TACK_ALLOWED_HOSTS: "tack.internal, other.internal",
    });
    assert.match(tack.startLine, /^tack \S+ listening on http:\/\/localhost:\d+ /);
    const port = Number(new URL(tack.url).port);
    assert.ok(port > 0 && port !== 3000, `port ${port} should come from PORT=0`);
    assert.ok(tack.startLine.includes(dbFile));
    assert.ok(existsSync(dbFile), "the database folder and file are created");
    for (const [host, status] of [
      ["tack.internal", 200],
      ["other.internal", 200],
      ["evil.example", 403],
    ] as const) {
      const response = await rawRequest(tack.url, {
        path: "/api/health",
        headers: { host: `${host}:${port}` },
      });
      assert.equal(response.status, status, host);
    }

    const created = await postJson(tack.url, "/api/boards", {
      name: "persisted",
      laneNames: ["x"],
    });
    assert.equal(created.status, 201);
    boardId = created.body.board.id;

    const agent = new Agent({ keepAlive: true });
    assert.equal(await keepAliveGet(tack.url, agent), 200);
    assert.equal(agent.freeSockets[Object.keys(agent.freeSockets)[0] ?? ""]?.length, 1);

    const exit = await tack.stop("SIGTERM");
    agent.destroy();
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(exit.stderr, "");
    assert.equal(exit.stdout, `${tack.startLine}\n`, "nothing but the start line on stdout");
  });

  test("flags win over env; data survives a restart; SIGINT exits 0 with connections open", async () => {
    assert.ok(boardId > 0, "runs after the previous test");
    const elsewhere = join(folder, "elsewhere", "ignored.sqlite");
    const tack = await startCli(["--host", "127.0.0.1", "--port", "0", "--db", dbFile], {
      // Each of these would fail or differ if it were used instead of the flag.
      HOST: "0.0.0.0",
      PORT: "not-a-port",
      TACK_DB_FILE: elsewhere,
    });
    assert.match(tack.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(existsSync(elsewhere), false);

    const shell = await fetch(`${tack.url}/api/boards/${boardId}`);
    assert.equal(shell.status, 200);
    const body = await shell.json();
    assert.equal(body.board.name, "persisted");
    assert.deepEqual(
      body.lanes.map((lane: { name: string }) => lane.name),
      ["x"],
    );

    const agent = new Agent({ keepAlive: true });
    assert.equal(await keepAliveGet(tack.url, agent), 200);
    // An open event stream must not hold the process either.
    const stream = await new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
      request(`${tack.url}/api/boards/${boardId}/events`, resolve).on("error", reject).end();
    });
    assert.equal(stream.statusCode, 200);
    stream.resume();
    stream.on("error", () => {});

    const exit = await tack.stop("SIGINT");
    agent.destroy();
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(exit.stderr, "");
  });
});

test("a write that was answered survives the process being killed at once (SIGKILL)", async () => {
  const dbFile = join(folder, "killed", "tack.sqlite");
  const first = await startCli(["--port", "0", "--db", dbFile]);
  const created = await postJson(first.url, "/api/boards", { name: "acknowledged" });
  assert.equal(created.status, 201);
  const exit = await first.stop("SIGKILL");
  assert.equal(exit.signal, "SIGKILL", "killed, not shut down");

  const second = await startCli(["--port", "0", "--db", dbFile]);
  try {
    const shell = await fetch(`${second.url}/api/boards/${created.body.board.id}`);
    assert.equal(shell.status, 200);
    assert.equal((await shell.json()).board.name, "acknowledged");
  } finally {
    await second.stop();
  }
});

describe("remote binding", { concurrency: true }, () => {
  test("0.0.0.0 without --allow-remote is refused", async () => {
    const exit = await runCli(["serve", "--host", "0.0.0.0", "--port", "0"], {
      TACK_DB_FILE: join(folder, "refused.sqlite"),
    });
    assertOneLineFailure(exit, /non-loopback address 0\.0\.0\.0.*--allow-remote/);
    assert.equal(existsSync(join(folder, "refused.sqlite")), false, "nothing is created");
  });

  test("--allow-remote refuses to start while no usable token exists, naming tack token create", async () => {
    const exit = await runCli(["serve", "--host", "0.0.0.0", "--port", "0", "--allow-remote"], {
      TACK_DB_FILE: join(folder, "no-token.sqlite"),
    });
    assert.equal(exit.code, 1, exit.stderr);
    const lines = exit.stderr.trim().split("\n");
    assert.match(
      lines.at(-1) as string,
      /^tack: refusing to start with --allow-remote: .*`tack token create/,
    );
    assert.doesNotMatch(exit.stderr, /\n\s+at |Error:/);
    assert.equal(exit.stdout, "");
  });

  test("0.0.0.0 with --allow-remote and a token starts and prints warnings", async () => {
    const dbFile = join(folder, "remote.sqlite");
    const created = await runCli(["token", "create", "--name", "laptop"], { TACK_DB_FILE: dbFile });
    assert.equal(created.code, 0, created.stderr);
    const tack = await startCli(["--host", "0.0.0.0", "--port", "0", "--allow-remote"], {
      TACK_DB_FILE: dbFile,
    });
    assert.match(tack.url, /^http:\/\/0\.0\.0\.0:\d+$/);
    const exit = await tack.stop();
    assert.equal(exit.code, 0, `signal ${exit.signal}; stderr: ${exit.stderr}`);
    assert.match(
      exit.stderr,
      /^warning: .*0\.0\.0\.0.*need an access token.*--allowed-host.*\nwarning: without --tls-cert.*in clear\.\n$/,
    );
  });
});

test("TACK_REQUIRE_TOKEN=1 makes loopback requests present a token, like --require-token", async () => {
  const dbFile = join(folder, "required.sqlite");
  const created = await runCli(["token", "create", "--name", "ci"], { TACK_DB_FILE: dbFile });
  assert.equal(created.code, 0, created.stderr);
  const token = created.stdout.trim().split("\n").at(-1) as string;
  const tack = await startCli(["--port", "0"], { TACK_DB_FILE: dbFile, TACK_REQUIRE_TOKEN: "1" });
  try {
    const without = await fetch(`${tack.url}/api/boards`);
    assert.equal(without.status, 401);
    assert.match(without.headers.get("www-authenticate") ?? "", /^Bearer/);
    const withToken = await fetch(`${tack.url}/api/boards`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(withToken.status, 200);
  } finally {
    const exit = await tack.stop();
    assert.equal(exit.code, 0, exit.stderr);
  }
});

describe("startup failures", { concurrency: true }, () => {
  let occupied: Server | undefined;
  after(() => occupied?.close());

  test("a port already in use", async () => {
    occupied = createServer();
    await new Promise<void>((resolve) => occupied?.listen(0, "127.0.0.1", resolve));
    const address = occupied.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const exit = await runCli(["serve", "--port", String(port)], {
      TACK_DB_FILE: join(folder, "in-use.sqlite"),
    });
    assertOneLineFailure(exit, new RegExp(`127\\.0\\.0\\.1:${port}: address already in use$`));
  });

  test("a database path that cannot be written", async () => {
    // A regular file where a folder should be: fails even for root, unlike permissions.
    const blocker = join(folder, "blocker");
    writeFileSync(blocker, "a file, not a folder");
    const exit = await runCli([
      "serve",
      "--port",
      "0",
      "--db",
      join(blocker, "sub", "tack.sqlite"),
    ]);
    assertOneLineFailure(exit, /cannot open database .*blocker/);
  });

  test("a file that is not a database", async () => {
    const corrupt = join(folder, "corrupt.sqlite");
    writeFileSync(corrupt, "this is not a SQLite database, just text. ".repeat(200));
    const exit = await runCli(["serve", "--port", "0", "--db", corrupt]);
    assertOneLineFailure(
      exit,
      /corrupt\.sqlite failed its start-up check \(quick_check: file is not a database\)/,
    );
  });

  test("a database from a newer tack (user_version above the supported one)", async () => {
    const newer = join(folder, "newer.sqlite");
    const db = new Database(newer);
    db.pragma("user_version = 999");
    db.close();
    const exit = await runCli(["serve", "--port", "0", "--db", newer]);
    assertOneLineFailure(exit, /schema version 999 is newer than this tack supports/);
  });
});
