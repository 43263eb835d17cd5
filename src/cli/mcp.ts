import { type Command, Option } from "commander";
import { clientCommand, handler } from "./command-kit.js";
import { UsageError } from "./exit-codes.js";

export function registerMcpCommand(program: Command): void {
  clientCommand(
    program,
    "mcp",
    "Serve tack's tools to an AI agent over MCP (stdio); a client of the running tack server.",
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
