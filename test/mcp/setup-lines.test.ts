import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Command } from "commander";
import { MCP_SETUP_LINES, registerMcpCommand } from "../../src/cli/mcp.js";

// The one-line setups of docs/agents.md and `tack mcp --help` are one table: they cannot drift.
// Hosts that take JSON (VS Code's --add-mcp, Cursor's mcp.json) get JSON of the shape they read.

const docs = readFileSync(new URL("../../docs/agents.md", import.meta.url), "utf8");

function docsTable(): string[][] {
  const section = docs.slice(docs.indexOf("### Setup in one line"));
  // The first table of the section: from its header row to the first line that is not a row.
  const table = section.slice(section.indexOf("\n| host")).trimStart().split("\n\n")[0] ?? "";
  return table
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| host") && !line.includes("---"))
    .map((line) =>
      line
        .slice(2, -2)
        .split(" | ")
        .map((cell) => cell.replaceAll("`", "")),
    );
}

test("docs/agents.md's setup table and tack mcp --help carry the same lines", () => {
  const rows = docsTable();
  assert.deepEqual(
    rows,
    MCP_SETUP_LINES.map(({ host, http, stdio }) => [host, http, stdio]),
  );
  const program = new Command("tack");
  registerMcpCommand(program);
  let help = "";
  const mcp = program.commands.find((command) => command.name() === "mcp") as Command;
  mcp.configureOutput({ writeOut: (chunk) => (help += chunk) });
  mcp.outputHelp();
  for (const { http, stdio } of MCP_SETUP_LINES) {
    assert.ok(help.includes(http) && help.includes(stdio), `--help lacks ${http} / ${stdio}`);
  }
});

test("the JSON lines are the shapes VS Code and Cursor read", () => {
  const json = (line: string) => JSON.parse(/(\{.*\})/.exec(line)?.[1] ?? "");
  const byHost = new Map(MCP_SETUP_LINES.map((row) => [row.host, row]));
  const vscode = byHost.get("VS Code");
  assert.deepEqual(json(vscode?.http ?? ""), {
    name: "tack",
    type: "http",
    url: "http://127.0.0.1:3000/mcp",
  });
  assert.deepEqual(json(vscode?.stdio ?? ""), {
    name: "tack",
    type: "stdio",
    command: "tack",
    args: ["mcp"],
  });
  const cursor = byHost.get("Cursor");
  assert.deepEqual(json(cursor?.http ?? "").mcpServers.tack, { url: "http://127.0.0.1:3000/mcp" });
  assert.deepEqual(json(cursor?.stdio ?? "").mcpServers.tack, { command: "tack", args: ["mcp"] });
});
