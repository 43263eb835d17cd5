import { type Command, Option } from "commander";
import { clientCommand, handler } from "./command-kit.js";
import { UsageError } from "./exit-codes.js";

// One line per agent host, over HTTP (`tack serve` answers MCP at /mcp) and over stdio (this
// command). The same table is in docs/agents.md.
const MCP_URL = "http://127.0.0.1:3000/mcp";
const SETUP_LINES = `
Setup in one line (HTTP: tack serve answers MCP at ${MCP_URL}; stdio: this command):
  Claude Code  $ claude mcp add --transport http tack ${MCP_URL}
               $ claude mcp add tack -- tack mcp
  Codex        $ codex mcp add tack --url ${MCP_URL}
               $ codex mcp add tack -- tack mcp
  Gemini CLI   $ gemini mcp add --transport http tack ${MCP_URL}
               $ gemini mcp add tack tack mcp
  VS Code      $ code --add-mcp '{"name":"tack","type":"http","url":"${MCP_URL}"}'
               $ code --add-mcp '{"name":"tack","command":"tack","args":["mcp"]}'
  Cursor       ~/.cursor/mcp.json: {"mcpServers":{"tack":{"url":"${MCP_URL}"}}}
               ~/.cursor/mcp.json: {"mcpServers":{"tack":{"command":"tack","args":["mcp"]}}}
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
