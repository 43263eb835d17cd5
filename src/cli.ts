#!/usr/bin/env -S node --max-semi-space-size=16
// The node options here and in package.json's "start" script are the same (test/process.test.ts
// keeps them equal). 16 MiB semi-spaces, V8's default, stated here because 64 was tried: a board
// import spent a third less time collecting garbage, but the young generation alone could take
// 192 MiB, and a 20,000-ticket import peaked at ~880 instead of ~640 MiB (docs/performance.md).
import { Command, Option } from "commander";
import { resolveServeConfig, type ServeFlags } from "./config.js";
import { packageInfo } from "./package-info.js";
import { StartupError } from "./storage/database.js";

const program = new Command()
  .name("tack")
  .description("A local kanban service for one developer and their AI agents.")
  .version(packageInfo.version);

program
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
    new Option("--allow-remote", "allow listening on a non-loopback address (no authentication!)"),
  )
  .addOption(
    new Option(
      "--log-level <level>",
      "fatal, error, warn, info (logs every request), debug, trace or silent",
    )
      .env("TACK_LOG_LEVEL")
      .default("warn"),
  )
  .action(async (flags: ServeFlags) => {
    try {
      const { config, warnings } = resolveServeConfig({
        ...flags,
        allowedHost:
          typeof flags.allowedHost === "string" ? [flags.allowedHost] : flags.allowedHost,
      });
      for (const warning of warnings) console.error(warning);
      // Loaded here so `tack --help` does not pay for the whole server.
      const { startServer } = await import("./server.js");
      const server = await startServer(config);
      const shutdown = async () => {
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

function fail(error: unknown): never {
  if (error instanceof StartupError) {
    console.error(`tack: ${error.message}`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`tack: unexpected error: ${message.split("\n")[0]}`);
  }
  process.exit(1);
}

program.parseAsync().catch(fail);
