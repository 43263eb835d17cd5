import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CLI_ENTRY, cleanEnv, ROOT, runCli, waitForExit } from "../helpers/cli.js";
import { startTestServer } from "../helpers/server.js";

/** The default tools' names, in their listed order, as tools.snapshot.json pins them. */
const DEFAULT_TOOLS = (
  JSON.parse(readFileSync(new URL("./tools.snapshot.json", import.meta.url), "utf8")) as Array<{
    name: string;
  }>
).map((tool) => tool.name);

// `tack mcp` as an MCP client starts it: a child process speaking newline-delimited JSON-RPC on
// stdin/stdout, nothing else on stdout, and gone once its input closes.

const api = await startTestServer();
await api.post("/api/boards", { name: "Stdio board" });

test("tack mcp answers over stdio and exits with 0 when stdin closes", async () => {
  const child = spawn(process.execPath, [...CLI_ENTRY, "mcp"], {
    cwd: ROOT,
    env: cleanEnv({ TACK_URL: api.url, TACK_ACTOR: "stdio-agent" }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = waitForExit(child);
  let buffer = "";
  const replies = new Map<number, any>();
  const waiting = new Map<number, (reply: any) => void>();
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    buffer += text;
    for (let newline = buffer.indexOf("\n"); newline !== -1; newline = buffer.indexOf("\n")) {
      const message = JSON.parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      replies.set(message.id, message);
      waiting.get(message.id)?.(message);
    }
  });
  const request = (id: number, method: string, params: object) => {
    const reply = new Promise<any>((resolve) => {
      if (replies.has(id)) resolve(replies.get(id));
      else waiting.set(id, resolve);
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return reply;
  };

  const initialized = await request(1, "initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "stdio-test", version: "1.0.0" },
  });
  assert.equal(initialized.result.serverInfo.name, "tack");
  assert.match(initialized.result.instructions, /^# Working with tack/);
  assert.match(initialized.result.instructions, /you are "stdio-agent"/);
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);

  const listed = await request(2, "tools/list", {});
  assert.deepEqual(
    listed.result.tools.map((tool: { name: string }) => tool.name),
    DEFAULT_TOOLS,
  );
  const searched = await request(3, "tools/call", { name: "search_tickets", arguments: {} });
  assert.deepEqual(searched.result.structuredContent, {
    total: 0,
    offset: 0,
    hasMore: false,
    tickets: [],
  });

  child.stdin.end();
  const exit = await exited;
  assert.equal(exit.code, 0, exit.stderr);
  assert.equal(buffer, "", "stdout carried only whole JSON-RPC messages");
});

test("tack mcp answers what it received before stdin closed, and -32700 for a line that is not JSON", async () => {
  const child = spawn(process.execPath, [...CLI_ENTRY, "mcp"], {
    cwd: ROOT,
    env: cleanEnv({ TACK_URL: api.url, TACK_ACTOR: "stdio-agent" }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = waitForExit(child);
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    output += text;
  });
  // As `printf '...' | tack mcp` sends it: everything at once, then end of input.
  const lines = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "printf", version: "1" },
      },
    },
    "this line is not JSON",
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "ready", arguments: {} } },
  ];
  child.stdin.end(
    `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`,
  );
  const exit = await exited;
  assert.equal(exit.code, 0, exit.stderr);
  const replies = output
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  const parseError = replies.find((reply) => reply.id === null);
  assert.equal(parseError?.error.code, -32700);
  assert.match(parseError?.error.message, /^Parse error/);
  assert.equal(replies.find((reply) => reply.id === 1)?.result.serverInfo.name, "tack");
  assert.equal(
    replies.find((reply) => reply.id === 1)?.result.capabilities.tools.listChanged,
    false,
  );
  assert.equal(replies.find((reply) => reply.id === 2)?.result.tools.length, DEFAULT_TOOLS.length);
  assert.equal(replies.find((reply) => reply.id === 3)?.result.structuredContent.total, 0);
  assert.equal(replies.length, 4);
});

test("tack mcp --help shows the one-line setups, the same as docs/agents.md", async () => {
  const help = await runCli(["mcp", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  const docs = readFileSync(join(ROOT, "docs/agents.md"), "utf8");
  const lines = help.stdout
    .split("\n")
    .map((line) => /\$ (\S+ (?:mcp add|--add-mcp) .*)$/.exec(line)?.[1])
    .filter((line): line is string => line !== undefined);
  assert.equal(lines.length, 8, "HTTP and stdio for Claude Code, Codex, Gemini CLI, VS Code");
  for (const line of lines) assert.ok(docs.includes(`\`${line}\``), `docs/agents.md has ${line}`);
});
