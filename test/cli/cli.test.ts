import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { CLI_ENTRY, cleanEnv, ROOT, waitForExit } from "../helpers/cli.js";
import { startTestServer } from "../helpers/server.js";
import { tack, tackJson } from "./tack-process.js";

// The command line as a script sees it: a child process against a real server, stdout and
// stderr piped. Each test makes its own board, so the tests can run side by side.

const api = await startTestServer();
const url = api.url;
const folder = mkdtempSync(join(tmpdir(), "tack-cli-"));
after(() => rmSync(folder, { recursive: true, force: true }));

async function newBoard(name: string, lanes = ["todo", "doing", "done"]) {
  const response = await api.post("/api/boards", { name, laneNames: lanes });
  type Lane = { id: number; name: string };
  return response.body as { board: { id: number }; lanes: [Lane, Lane, Lane] };
}

async function newTicket(boardId: number, laneId: number, title: string, extra: object = {}) {
  return (await api.post(`/api/boards/${boardId}/tickets`, { laneId, title, ...extra })).body as {
    id: number;
  };
}

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("output modes", { concurrency: true }, () => {
  test("ticket list prints a table; --json the API's JSON exactly; -q ids only", async () => {
    const { board, lanes } = await newBoard("Output");
    const first = await newTicket(board.id, lanes[0].id, "Fix login", { priority: 3 });
    const second = await newTicket(board.id, lanes[1].id, "Write docs");
    const args = ["ticket", "list", "--board", String(board.id)];

    const table = await tack(url, args);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.trimEnd().split("\n");
    assert.match(lines[0] ?? "", /^ID\s+PRI\s+LANE\s+TITLE/);
    assert.match(lines[1] ?? "", new RegExp(`^${first.id}\\s+high\\s+todo\\s+Fix login`));
    assert.match(lines[2] ?? "", new RegExp(`^${second.id}\\s+medium\\s+doing\\s+Write docs`));

    const json = await tack(url, [...args, "--json"]);
    const fromApi = await api.get(`/api/boards/${board.id}/tickets`);
    assert.deepEqual(JSON.parse(json.stdout), fromApi.body);

    const quiet = await tack(url, [...args, "-q"]);
    assert.equal(quiet.stdout, `${first.id}\n${second.id}\n`);
  });

  test("ticket show --json equals GET /api/tickets/{id}; the text names lane and body", async () => {
    const { board, lanes } = await newBoard("Show");
    const ticket = await newTicket(board.id, lanes[0].id, "Show me", {
      bodyMarkdown: "Body *here*",
    });
    const shown = await tackJson(url, ["ticket", "show", String(ticket.id)]);
    assert.deepEqual(shown, (await api.get(`/api/tickets/${ticket.id}`)).body);
    const text = await tack(url, ["ticket", "show", String(ticket.id)]);
    assert.match(text.stdout, /^#\d+ Show me\nlane todo · priority medium · open/);
    assert.ok(text.stdout.includes("Body *here*"));
  });

  test("boards, lanes and tags list and create", async () => {
    const created = await tackJson(url, [
      "board",
      "create",
      "Made by CLI",
      "--lanes",
      "inbox, later",
    ]);
    assert.deepEqual(
      created.lanes.map((lane: { name: string }) => lane.name),
      ["inbox", "later"],
    );
    const boardId = String(created.board.id);
    const lane = await tackJson(url, ["lane", "create", "review", "--board", boardId]);
    assert.equal(lane.name, "review");
    const renamed = await tackJson(url, ["lane", "rename", String(lane.id), "shipped"]);
    assert.equal(renamed.name, "shipped");
    const ids = [lane.id, ...created.lanes.map((one: { id: number }) => one.id)].map(String);
    const reordered = await tackJson(url, ["lane", "reorder", ...ids, "--board", boardId]);
    assert.deepEqual(
      reordered.lanes.map((one: { name: string }) => one.name),
      ["shipped", "inbox", "later"],
    );
    const tag = await tackJson(url, [
      "tag",
      "create",
      "backend",
      "--color",
      "#2563eb",
      "--board",
      boardId,
    ]);
    assert.equal(tag.color, "#2563eb");
    const tags = await tack(url, ["tag", "list", "--board", boardId]);
    assert.match(tags.stdout, /backend\s+#2563eb/);
    const laneIds = await tack(url, ["lane", "list", "--board", boardId, "-q"]);
    assert.equal(laneIds.stdout, `${ids.join("\n")}\n`);
    const shown = await tack(url, ["board", "show", boardId]);
    assert.match(shown.stdout, /^board \d+ "Made by CLI"\n\nLANE\s+NAME\s+OPEN\s+TOTAL\n/);
    assert.match(shown.stdout, /tags: backend \(\d+\)/);
    const boards = await tack(url, ["boards", "-q"]);
    assert.ok(boards.stdout.split("\n").includes(boardId));
  });
});

describe("exit codes", { concurrency: true }, () => {
  test("0 ok, 3 not found, 2 usage, 1 refused, 4 conflict, 5 unreachable; errors on stderr", async () => {
    const { board } = await newBoard("Exit codes");
    const ok = await tack(url, ["boards"]);
    assert.equal(ok.code, 0);

    const notFound = await tack(url, ["ticket", "show", "999999"]);
    assert.equal(notFound.code, 3);
    assert.equal(notFound.stdout, "");
    assert.match(notFound.stderr, /^tack: ticket not found\nhint: /);

    for (const args of [
      ["ticket", "show", "abc"],
      ["ticket", "bogus"],
      ["boards", "--bogus"],
    ]) {
      const usage = await tack(url, args);
      assert.equal(usage.code, 2, `${args.join(" ")}: ${usage.stderr}`);
    }

    const refused = await tack(url, ["ticket", "create", "   ", "--board", String(board.id)]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^tack: title must not be empty\nhint: /);

    await tack(url, ["tag", "create", "dup", "--board", String(board.id)]);
    const conflict = await tack(url, ["tag", "create", "DUP", "--board", String(board.id)]);
    assert.equal(conflict.code, 4, conflict.stderr);

    const port = await closedPort();
    const unreachable = await tack(`http://127.0.0.1:${port}`, ["boards"]);
    assert.equal(unreachable.code, 5);
    assert.match(unreachable.stderr, /cannot reach tack at http:\/\/127\.0\.0\.1:\d+/);
  });

  test("with several boards and no --board the command says which exist (exit 1)", async () => {
    await newBoard("One of many");
    await newBoard("Another");
    const exit = await tack(url, ["ticket", "list"]);
    assert.equal(exit.code, 1);
    assert.match(exit.stderr, /several boards exist: .*\(One of many\)/);
    assert.match(exit.stderr, /--board/);
  });
});

describe("bodies", { concurrency: true }, () => {
  test("ticket create reads the body from stdin with --body-file -", async () => {
    const { board } = await newBoard("Stdin body");
    const created = await tackJson(
      url,
      ["ticket", "create", "From stdin", "--board", String(board.id), "--body-file", "-"],
      "## Steps\n1. open\n",
    );
    assert.equal(created.bodyMarkdown, "## Steps\n1. open\n");
  });

  test("ticket edit --editor opens $EDITOR on the current body and saves what it wrote", async () => {
    const { board, lanes } = await newBoard("Editor body");
    const ticket = await newTicket(board.id, lanes[0].id, "Edit me", { bodyMarkdown: "old" });
    const replacement = join(folder, "replacement.md");
    writeFileSync(replacement, "written in the editor\n");
    const exit = await tack(url, ["ticket", "edit", String(ticket.id), "--editor", "--json"], {
      env: { EDITOR: `cp ${replacement}` },
    });
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(JSON.parse(exit.stdout).bodyMarkdown, "written in the editor\n");
  });
});

describe("tickets, relations, comments, events", { concurrency: true }, () => {
  test("create with lane, tags and blockers by name; move, resolve, reopen, link, unlink, delete", async () => {
    const { board, lanes } = await newBoard("Lifecycle");
    await api.post(`/api/boards/${board.id}/tags`, { name: "Backend" });
    const blocker = await newTicket(board.id, lanes[0].id, "Blocker");
    const b = String(board.id);
    const created = await tackJson(url, [
      "ticket",
      "create",
      "Main",
      "--board",
      b,
      "--lane",
      "doing",
      "--priority",
      "4",
      "--tag",
      "backend",
      "--blocked-by",
      String(blocker.id),
    ]);
    assert.equal(created.laneId, lanes[1].id);
    assert.equal(created.priority, 4);
    assert.deepEqual(
      created.tags.map((tag: { name: string }) => tag.name),
      ["Backend"],
    );
    assert.deepEqual(created.blockerIds, [blocker.id]);
    const id = String(created.id);

    const moved = await tackJson(url, ["ticket", "move", id, "done"]);
    assert.equal(moved.laneId, lanes[2].id);
    assert.equal((await tackJson(url, ["ticket", "resolve", id])).isResolved, true);
    assert.equal((await tackJson(url, ["ticket", "reopen", id])).isResolved, false);

    const linked = await tackJson(url, ["ticket", "link", String(blocker.id), "--parent", id]);
    assert.equal(linked.parentTicketId, created.id);
    const unblocked = await tackJson(url, [
      "ticket",
      "unlink",
      id,
      "--blocked-by",
      String(blocker.id),
    ]);
    assert.deepEqual(unblocked.blockerIds, []);
    const blocks = await tackJson(url, ["ticket", "link", id, "--blocks", String(blocker.id)]);
    assert.deepEqual(
      blocks.blockedBy.map((other: { id: number }) => other.id),
      [blocker.id],
    );

    const cycle = await tack(url, ["ticket", "link", String(blocker.id), "--blocks", id]);
    assert.equal(cycle.code, 1);
    assert.match(cycle.stderr, /cycle/);

    assert.equal((await tackJson(url, ["ticket", "archive", id])).isArchived, true);
    assert.equal((await tackJson(url, ["ticket", "restore", id])).isArchived, false);

    const deleted = await tack(url, ["ticket", "delete", id]);
    assert.equal(deleted.code, 0);
    assert.equal((await api.get(`/api/tickets/${id}`)).status, 404);
  });

  test("comment add/list/edit and event log/list", async () => {
    const { board, lanes } = await newBoard("Notes");
    const ticket = await newTicket(board.id, lanes[0].id, "Notes");
    const t = String(ticket.id);
    const comment = await tackJson(url, ["comment", "add", t, "First finding"]);
    assert.equal(comment.bodyMarkdown, "First finding");
    const edited = await tackJson(url, ["comment", "edit", String(comment.id), "Better finding"]);
    assert.equal(edited.bodyMarkdown, "Better finding");
    const listed = await tack(url, ["comment", "list", t, "-q"]);
    assert.equal(listed.stdout, `${comment.id}\n`);

    const event = await tackJson(url, [
      "event",
      "log",
      t,
      "--kind",
      "test_result",
      "--title",
      "unit tests pass",
      "--data",
      '{"passed":212}',
    ]);
    assert.equal(event.source, "tester");
    assert.deepEqual(event.data, { passed: 212 });
    const events = await tackJson(url, ["event", "list", t]);
    assert.equal(events.events[0].id, event.id);

    const badData = await tack(url, [
      "event",
      "log",
      t,
      "--kind",
      "k",
      "--title",
      "t",
      "--data",
      "[1]",
    ]);
    assert.equal(badData.code, 2);
  });
});

describe("board export and import, api, watch, prime", { concurrency: true }, () => {
  test("export to a file and import it back; no progress bar when stderr is a pipe", async () => {
    const { board, lanes } = await newBoard("Round trip");
    for (let index = 0; index < 30; index++) await newTicket(board.id, lanes[0].id, `T${index}`);
    const file = join(folder, "round-trip.json");
    const exported = await tack(url, ["board", "export", String(board.id), "-o", file]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(JSON.parse(readFileSync(file, "utf8")).format, "tack.board");

    const imported = await tack(url, ["board", "import", file]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /^imported board \d+ "Round trip": 3 lanes, 30 tickets\n$/);
    assert.equal(imported.stderr, "", "nothing on stderr: no bar, no escape codes");
  });

  test("on a terminal, board import draws a progress bar on stderr", {
    skip: !existsSync("/usr/bin/script"),
  }, async () => {
    const { board, lanes } = await newBoard("Bar");
    await newTicket(board.id, lanes[0].id, "One");
    const file = join(folder, "bar.json");
    writeFileSync(file, (await api.get(`/api/boards/${board.id}/export`)).text);
    // util-linux `script` runs the command on a pseudo-terminal and copies what it printed.
    const child = spawn(
      "/usr/bin/script",
      ["-qec", `"${process.execPath}" ${CLI_ENTRY.join(" ")} board import "${file}"`, "/dev/null"],
      {
        cwd: ROOT,
        env: cleanEnv({ TACK_URL: url }),
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    child.stdin.end();
    const exit = await waitForExit(child);
    assert.equal(exit.code, 0, exit.stderr);
    assert.match(exit.stdout, /100% \| \d+\/\d+ bytes/);
    assert.match(exit.stdout, /imported board \d+ "Bar"/);
  });

  test("tack api sends any request; its exit code follows the status", async () => {
    const meta = await tack(url, ["api", "GET", "/api/meta"]);
    assert.equal(meta.code, 0);
    assert.equal(meta.stderr, "");
    assert.equal(JSON.parse(meta.stdout).name, "tack");
    const created = await tack(url, ["api", "POST", "/api/boards", "--data", '{"name":"Via api"}']);
    assert.equal(JSON.parse(created.stdout).board.name, "Via api");
    const missing = await tack(url, ["api", "GET", "/api/tickets/999999"]);
    assert.equal(missing.code, 3);
    assert.deepEqual(JSON.parse(missing.stdout), { error: "ticket not found" });
  });

  test("tack api: a refusal's body on stdout, its sentence and status on stderr", async () => {
    const invalid = await tack(url, ["api", "GET", "/api/tickets/abc"]);
    assert.equal(invalid.code, 1);
    assert.deepEqual(JSON.parse(invalid.stdout), {
      error: "ticketId must be a positive integer",
    });
    assert.match(invalid.stderr, /^tack: ticketId must be a positive integer \(HTTP 400\)\nhint: /);
    const { board, lanes } = await newBoard("Busy lane");
    await newTicket(board.id, lanes[0].id, "Keeps the lane busy");
    const conflict = await tack(url, ["api", "DELETE", `/api/lanes/${lanes[0].id}`]);
    assert.equal(conflict.code, 4);
    assert.match(conflict.stderr, /^tack: .+ \(HTTP 409\)\nhint: /);
    // The one body without `error`: a failed remote diagnostic quotes its `message`.
    const diagnostic = await tack(url, ["api", "POST", "/api/remote-diagnostics", "--data", "{}"]);
    assert.equal(diagnostic.code, 1);
    assert.equal(JSON.parse(diagnostic.stdout).status, "unsupported_provider");
    assert.match(diagnostic.stderr, /^tack: provider is required \(HTTP 400\)\n/);
  });

  test("tack watch prints one JSON line per change", async () => {
    const { board, lanes } = await newBoard("Watched");
    const child = spawn(process.execPath, [...CLI_ENTRY, "watch", "--board", String(board.id)], {
      cwd: ROOT,
      env: cleanEnv({ TACK_URL: url }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let output = "";
      child.stdout.setEncoding("utf8");
      const line = new Promise<string>((resolve) => {
        child.stdout.on("data", (text: string) => {
          output += text;
          if (output.includes("\n")) resolve(output.split("\n")[0] as string);
        });
      });
      // Changes until the stream (connected some time after spawn) reports one.
      let change = 0;
      const timer = setInterval(() => {
        void newTicket(board.id, lanes[0].id, `change ${change++}`);
      }, 300);
      const first = JSON.parse(await line);
      clearInterval(timer);
      assert.equal(first.boardId, board.id);
      assert.equal(first.event, "board_updated");
    } finally {
      child.kill();
    }
  });

  test("tack prime prints the workflow and the live board", async () => {
    const { board, lanes } = await newBoard("Primed");
    await newTicket(board.id, lanes[0].id, "Something to do");
    const exit = await tack(url, ["prime", "--board", String(board.id)]);
    assert.equal(exit.code, 0, exit.stderr);
    assert.match(exit.stdout, /^# Working with tack/);
    assert.ok(exit.stdout.includes(`### Board ${board.id} "Primed": 1 open of 1 tickets`));
    assert.ok(exit.stdout.includes(`you are "tester"`));
  });
});
