#!/usr/bin/env -S node --max-semi-space-size=16 --no-allocation-site-pretenuring
// The node options here and in package.json's "start" script are the same (test/trust/process.test.ts
// keeps them equal). 16 MiB semi-spaces, V8's default, stated here because 64 was tried: a board
// import spent a third less time collecting garbage, but the young generation alone could take
// 192 MiB, and a 20,000-ticket import peaked at ~880 instead of ~640 MiB (docs/performance.md).
// No allocation-site pretenuring: once a board list was kept, V8 allocated an export's
// short-lived objects in the old generation, where they piled up until the next mark-compact,
// which comes later the bigger the kept lists: a 100,000-ticket export added ~270 MiB of RSS,
// ~20 MiB without (docs/performance.md, "The huge board").
import { Command, Option } from "commander";
import { addBackupScheduleOptions, backupCommands } from "./backup/backup-commands.js";
import { type BackupFlags, resolveBackupSchedule } from "./backup/backup-schedule.js";
import { registerAnnotationCommands } from "./cli/annotations.js";
import { registerBoardCommands } from "./cli/boards.js";
import { EXIT } from "./cli/exit-codes.js";
import { registerInsightsCommand } from "./cli/insights.js";
import { registerLoopCommands } from "./cli/loop.js";
import { registerMcpCommand } from "./cli/mcp.js";
import { registerRawCommands } from "./cli/raw.js";
import { registerRemoteCommands } from "./cli/remote.js";
import { registerTemplateCommands } from "./cli/templates.js";
import { registerTicketCommands } from "./cli/tickets.js";
import { registerTokenCommands } from "./cli/tokens.js";
import { registerTrashCommands } from "./cli/trash.js";
import { registerWorkCommands } from "./cli/work.js";
import { resolveServeConfig, type ServeFlags } from "./config.js";
import { packageInfo } from "./package-info.js";
import { StartupError } from "./storage/database.js";

const program = new Command()
  .name("tack")
  .description("A local kanban service for one developer and their AI agents.")
  .version(packageInfo.version)
  // Usage mistakes exit with 2 (commander's default is 1, which tack's client commands use for
  // "the server refused"); help and --version exit with 0. Subcommands inherit this.
  .exitOverride((error) => process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage));

const serve = program
  .command("serve")
  .description("Serve the HTTP API (and the web UI) on a loopback address.")
  .addOption(new Option("--host <host>", "address to listen on").env("HOST").default("127.0.0.1"))
  .addOption(
    new Option("--port <port>", "port to listen on (0 picks a free one)")
      .env("PORT")
      .default("3000"),
  )
  .addOption(
    new Option("--db <file>", "SQLite database file (its folder is created)")
      .env("TACK_DB_FILE")
      .default("data/tack.sqlite"),
  )
  .addOption(
    new Option(
      "--allowed-host <host...>",
      "extra host names requests may address besides loopback (comma-separated in the env)",
    ).env("TACK_ALLOWED_HOSTS"),
  )
  .addOption(
    new Option(
      "--allow-remote",
      "allow listening on a non-loopback address (needs a usable token: tack token create)",
    ),
  )
  .addOption(
    new Option(
      "--require-token",
      "require an access token from every request, loopback ones too (env: TACK_REQUIRE_TOKEN=1)",
    ),
  )
  .addOption(
    new Option("--tls-cert <file>", "serve https with this PEM certificate (with --tls-key)").env(
      "TACK_TLS_CERT",
    ),
  )
  .addOption(
    new Option("--tls-key <file>", "the PEM private key of --tls-cert").env("TACK_TLS_KEY"),
  )
  .addOption(
    new Option(
      "--log-level <level>",
      "fatal, error, warn, info (logs every request), debug, trace or silent",
    )
      .env("TACK_LOG_LEVEL")
      .default("warn"),
  )
  .addOption(
    new Option(
      "--trash-days <days>",
      "days deleted objects stay restorable in the trash (0 erases at once)",
    )
      .env("TACK_TRASH_DAYS")
      .default("30"),
  )
  .addOption(
    new Option(
      "--skip-check",
      "start without checking the database file for damage first (docs/operations.md)",
    ),
  )
  .action(async (flags: ServeFlags & BackupFlags & { skipCheck?: boolean }) => {
    try {
      const { config, warnings } = resolveServeConfig({
        ...flags,
        // Read here, not through commander's .env(), which turns a boolean on for any value, 0 too.
        requireToken: flags.requireToken ?? process.env.TACK_REQUIRE_TOKEN,
        allowedHost:
          typeof flags.allowedHost === "string" ? [flags.allowedHost] : flags.allowedHost,
      });
      for (const warning of warnings) console.error(warning);
      const backupSchedule = resolveBackupSchedule(flags);
      // Loaded here so `tack --help` does not pay for the whole server.
      const { startServer } = await import("./server.js");
      const server = await startServer(
        {
          ...config,
          skipCheck: flags.skipCheck === true,
          backupDir: backupSchedule?.dir ?? flags.backupDir,
        },
        process.env,
        { releaseStartupMemory: true },
      );
      const { startRollingBackups } = await import("./backup/rolling-backups.js");
      const backups = backupSchedule && startRollingBackups(backupSchedule, config.dbFile);
      const shutdown = async () => {
        await backups?.stop();
        await server.close();
        process.exit(0);
      };
      process.once("SIGINT", shutdown);
      process.once("SIGTERM", shutdown);
      // Printed only once the handlers are in place: a supervisor may signal as soon as it reads it.
      console.log(
        `tack ${packageInfo.version} listening on ${server.url} (database ${config.dbFile})`,
      );
    } catch (error) {
      fail(error);
    }
  });

// Backups (src/backup/): the rolling-backup options of serve, `tack backup`, `tack restore` and
// `tack doctor`.
addBackupScheduleOptions(serve);
for (const command of backupCommands()) program.addCommand(command);
// Access tokens for remote access (src/cli/tokens.ts): they act on the database file, like backup.
registerTokenCommands(program);

function fail(error: unknown): never {
  if (error instanceof StartupError) {
    console.error(`tack: ${error.message}`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`tack: unexpected error: ${message.split("\n")[0]}`);
  }
  process.exit(1);
}

// The client commands (src/cli/): each group talks to a running tack over HTTP only. Help lists
// them in this order; add a group by adding its register function here.
const commandGroups: Array<(program: Command) => void> = [
  registerWorkCommands,
  registerBoardCommands,
  registerInsightsCommand,
  registerTicketCommands,
  registerLoopCommands,
  registerTemplateCommands,
  registerAnnotationCommands,
  registerRemoteCommands,
  registerTrashCommands,
  registerRawCommands,
  registerMcpCommand,
];
for (const register of commandGroups) register(program);
program.addHelpText(
  "after",
  `
Examples:
  $ tack serve
  $ tack prime
  $ tack next --json
  $ tack ticket create "Fix login" --priority 3
  $ tack release 42 --done

Exit codes: 0 ok, 1 the server refused (its message on stderr), 2 usage, 3 not found
(also: nothing ready for \`tack next\`), 4 conflict (claimed by someone else, or the ticket
changed since --if-version), 5 server unreachable, 6 no answer when \`tack ask --wait\` ended.
Details: docs/agents.md.`,
);

program.parseAsync().catch(fail);
