import assert from "node:assert/strict";
import { test } from "node:test";
import { Command } from "commander";
import { registerAnnotationCommands } from "../../src/cli/annotations.js";
import { registerBoardCommands } from "../../src/cli/boards.js";
import { registerLoopCommands } from "../../src/cli/loop.js";
import { registerMcpCommand } from "../../src/cli/mcp.js";
import { registerRawCommands } from "../../src/cli/raw.js";
import { registerRemoteCommands } from "../../src/cli/remote.js";
import { registerTemplateCommands } from "../../src/cli/templates.js";
import { registerTicketCommands } from "../../src/cli/tickets.js";
import { registerWorkCommands } from "../../src/cli/work.js";
import { runCli } from "../helpers/cli.js";

function helpOf(command: Command): string {
  let text = "";
  command.configureOutput({ writeOut: (chunk) => (text += chunk) });
  command.outputHelp();
  return text;
}

function leaves(command: Command, path: string[] = []): Array<[string, Command]> {
  if (command.commands.length === 0) return [[path.join(" "), command]];
  return command.commands.flatMap((child) => leaves(child, [...path, child.name()]));
}

test("every client command's --help has examples that start with `tack <its name>`", () => {
  const program = new Command("tack");
  for (const register of [
    registerWorkCommands,
    registerBoardCommands,
    registerTicketCommands,
    registerLoopCommands,
    registerTemplateCommands,
    registerAnnotationCommands,
    registerRemoteCommands,
    registerRawCommands,
    registerMcpCommand,
  ]) {
    register(program);
  }
  const commands = leaves(program);
  assert.ok(commands.length >= 45, `only ${commands.length} commands`);
  for (const [name, command] of commands) {
    const help = helpOf(command);
    assert.match(help, /\nExamples:\n {2}\$ /, `no examples for tack ${name}`);
    // The examples run to the first blank line; a section after them (mcp's setup lines) is not one.
    const examples =
      help
        .slice(help.indexOf("Examples:"))
        .split("\n\n")[0]
        ?.split("\n")
        .slice(1)
        .filter(Boolean) ?? [];
    for (const example of examples) {
      // `tack board list` examples start with `tack board list`; aliases name their own command.
      assert.ok(example.includes(`tack ${name.split(" ")[0]}`), `tack ${name}: ${example}`);
    }
    for (const option of ["--url", "--token", "--actor", "--json", "--quiet"]) {
      assert.ok(help.includes(option), `tack ${name} lacks ${option}`);
    }
  }
});

test("tack --help lists the client commands and the exit codes", async () => {
  const exit = await runCli(["--help"]);
  assert.equal(exit.code, 0);
  for (const name of [
    "serve",
    "prime",
    "ready",
    "next",
    "ticket",
    "ask",
    "inbox",
    "answer",
    "check",
    "template",
    "mcp",
    "Exit codes",
    "6 no answer",
  ]) {
    assert.ok(exit.stdout.includes(name), `missing ${name}`);
  }
});
