import { type Command, Option } from "commander";
import { clientCommand, handler } from "./command-kit.js";
import { UsageError } from "./exit-codes.js";

// One line per agent host, over HTTP (`tack serve` answers MCP at /mcp) and over stdio (this
// command). docs/agents.md has the same table; test/mcp/setup-lines.test.ts keeps the two equal.
const MCP_URL = "http://127.0.0.1:3000/mcp";
const CURSOR_FILE = "~/.cursor/mcp.json:";

/** How each host adds tack: a shell command, or (Cursor) a file and its content. */
export const MCP_SETUP_LINES: ReadonlyArray<{ host: string; http: string; stdio: string }> = [
  {
    host: "Claude Code",
    http: `claude mcp add --transport http tack ${MCP_URL}`,
    stdio: "claude mcp add tack -- tack mcp",
  },
  {
    host: "Codex",
    http: `codex mcp add tack --url ${MCP_URL}`,
    stdio: "codex mcp add tack -- tack mcp",
  },
  {
    host: "Gemini CLI",
    http: `gemini mcp add --transport http tack ${MCP_URL}`,
    stdio: "gemini mcp add tack tack mcp",
  },
  {
    host: "VS Code",
    http: `code --add-mcp '{"name":"tack","type":"http","url":"${MCP_URL}"}'`,
    stdio: `code --add-mcp '{"name":"tack","type":"stdio","command":"tack","args":["mcp"]}'`,
  },
  {
    host: "Cursor",
    http: `${CURSOR_FILE} {"mcpServers":{"tack":{"url":"${MCP_URL}"}}}`,
    stdio: `${CURSOR_FILE} {"mcpServers":{"tack":{"command":"tack","args":["mcp"]}}}`,
  },
];

const prompt = (line: string) => (line.startsWith(CURSOR_FILE) ? line : `$ ${line}`);
const SETUP_LINES = `
Setup in one line (HTTP: tack serve answers MCP at ${MCP_URL}; stdio: this command):
${MCP_SETUP_LINES.map(
  ({ host, http, stdio }) =>
    `  ${host.padEnd(12)} ${prompt(http)}\n  ${"".padEnd(12)} ${prompt(stdio)}`,
).join("\n")}
Over HTTP the URL takes ?actor=<name>&toolsets=remote,admin&read_only=true&board=<id>; the actor
defaults to the host's own name. More: docs/agents.md.`;

export function registerMcpCommand(program: Command): void {
  clientCommand(
    program,
    "mcp",
    "Serve tack's tools to an AI agent over MCP (stdio); a client of the running tack server. tack serve also answers MCP over HTTP at /mcp.",
    [
      "tack mcp",
      "tack mcp --toolsets remote,admin --actor claude-1",
      "tack mcp --read-only --board 2",
    ],
    { board: true },
  )
    .addOption(
      new Option("--toolsets <names>", "extra tool groups: remote, admin (comma-separated)").env(
        "TACK_MCP_TOOLSETS",
      ),
    )
    .option("--read-only", "only tools that read")
    .addHelpText("after", SETUP_LINES)
    .action(
      handler(async ({ client, board, flags }) => {
        const { TOOLSETS, serveMcpStdio } = await import("../mcp/mcp-server.js");
        const toolsets = String(flags.toolsets ?? "")
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean);
        for (const name of toolsets) {
          if (!(TOOLSETS as readonly string[]).includes(name)) {
            throw new UsageError(`unknown toolset "${name}": use ${TOOLSETS.join(", ")}`);
          }
        }
        await serveMcpStdio({
          client,
          boardId: board,
          toolsets: toolsets as (typeof TOOLSETS)[number][],
          readOnly: flags.readOnly === true,
        });
      }),
    );
}
