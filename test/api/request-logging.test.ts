import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { startServer } from "../../src/server.js";
import { capturedLog } from "../helpers/log-capture.js";

/**
 * Per-request logging by level (http/request-logging.ts): at info and below every request is
 * logged with its `reqId` (a child logger per request); at warn (the default) requests share the
 * server's logger, and a failure's line still names its request. Writes fail here (a sync that
 * always errs), so each one logs a 5xx.
 */

const folder = mkdtempSync(join(tmpdir(), "tack-request-logging-"));
after(() => rmSync(folder, { recursive: true, force: true }));

async function linesAt(logLevel: string): Promise<Array<Record<string, unknown>>> {
  const log = capturedLog();
  const server = await startServer(
    {
      host: "127.0.0.1",
      port: 0,
      dbFile: join(folder, `${logLevel}.sqlite`),
      allowedHosts: [],
      logLevel,
    },
    {},
    {
      logStream: log.stream,
      syncFile: (_fd, done) => done(new Error("EIO: i/o error, fdatasync")),
    },
  );
  try {
    assert.equal((await fetch(`${server.url}/api/boards`)).status, 200);
    const write = await fetch(`${server.url}/api/boards`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "unsure" }),
    });
    assert.equal(write.status, 500);
  } finally {
    await server.close();
  }
  const raw = log
    .text()
    .split("\n")
    .filter((line) => line !== "");
  // A line names its request at most once (a child's binding and the line's own field would be
  // two `reqId` keys).
  for (const line of raw) assert.ok(line.split('"reqId"').length <= 2, line);
  return raw.map((line) => JSON.parse(line) as Record<string, unknown>);
}

test("at warn, requests write no lines of their own, and a 5xx's line names its request once", async () => {
  const lines = await linesAt("warn");
  assert.equal(lines.filter((line) => line.msg === "incoming request").length, 0);
  const failures = lines.filter((line) => line.msg === "request failed");
  assert.equal(failures.length, 1, JSON.stringify(lines));
  assert.match(String(failures[0]?.reqId), /^req-/);
});

test("at info, every request is logged with its reqId, and a 5xx's line carries it too", async () => {
  const lines = await linesAt("info");
  const incoming = lines.filter((line) => line.msg === "incoming request");
  const completed = lines.filter((line) => line.msg === "request completed");
  assert.equal(incoming.length, 2);
  assert.equal(completed.length, 2);
  for (const line of [...incoming, ...completed]) assert.match(String(line.reqId), /^req-/);
  const failure = lines.find((line) => line.msg === "request failed");
  assert.equal(failure?.reqId, incoming[1]?.reqId);
});
