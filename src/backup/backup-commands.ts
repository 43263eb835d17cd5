import { Command, Option } from "commander";
import { DEFAULT_BACKUP_KEEP } from "./backup-schedule.js";

/**
 * The CLI side of backups: `tack backup`, `tack restore`, `tack doctor` (checks of the file), and
 * the rolling-backup options of `tack serve`. The commands open the SQLite file themselves (read-only for a backup) rather than
 * asking a running server: SQLite's snapshot isolation makes that consistent while a server
 * writes, it works whether or not a server runs, and tack needs no endpoint that writes files
 * where a request says.
 */

/** The same --db option as `tack serve`, so every command finds the same database. */
function dbOption(): Option {
  return new Option("--db <file>", "SQLite database file")
    .env("TACK_DB_FILE")
    .default("data/tack.sqlite");
}

export function backupCommands(): Command[] {
  const backup = new Command("backup")
    .description(
      "Write a consistent copy of the database to <file>, also while a server is running.",
    )
    .argument("<file>", "where to write the backup (replaced if it exists)")
    .addOption(dbOption())
    .action(async (file: string, flags: { db: string }) => {
      const { backupDatabase } = await import("../storage/backup.js");
      await report(() => {
        const summary = backupDatabase(flags.db, file);
        return `backed up ${flags.db} to ${summary.file} (${summary.bytes} bytes, schema version ${summary.schemaVersion})`;
      });
    });

  const restore = new Command("restore")
    .description("Put the backup <file> in place as the database. Refuses while a server uses it.")
    .argument("<file>", "a backup written by `tack backup` or `tack serve --backup-dir`")
    .addOption(dbOption())
    .addOption(new Option("--force", "replace an existing database"))
    .action(async (file: string, flags: { db: string; force?: boolean }) => {
      const { restoreDatabase } = await import("../storage/backup.js");
      await report(() => {
        const summary = restoreDatabase(file, flags.db, { force: flags.force === true });
        return `restored ${file} to ${summary.file} (schema version ${summary.schemaVersion})`;
      });
    });

  const doctor = new Command("doctor")
    .description(
      "Check the database file (integrity, schema, log size, free space, newest backup); exit 1 when a check fails. Read-only, also while a server runs.",
    )
    .addOption(dbOption())
    .addOption(new Option("--backup-dir <dir>", "folder of rolling backups").env("TACK_BACKUP_DIR"))
    .addOption(
      new Option(
        "--backup-every <interval>",
        "their interval: a newest backup older than twice it fails",
      ).env("TACK_BACKUP_EVERY"),
    )
    .action(async (flags: { db: string; backupDir?: string; backupEvery?: string }) => {
      const { doctorChecks, formatChecks } = await import("./doctor-checks.js");
      const checks = doctorChecks(flags);
      console.log(formatChecks(checks));
      const failed = checks.filter((check) => !check.ok).length;
      if (failed > 0) {
        console.error(`tack: ${failed} check${failed === 1 ? "" : "s"} failed`);
        process.exit(1);
      }
    });

  return [backup, restore, doctor];
}

/** Adds --backup-dir, --backup-every and --backup-keep to `tack serve`. */
export function addBackupScheduleOptions(serve: Command): Command {
  return serve
    .addOption(
      new Option("--backup-dir <dir>", "folder for rolling backups (off by default)").env(
        "TACK_BACKUP_DIR",
      ),
    )
    .addOption(
      new Option("--backup-every <interval>", "time between rolling backups, e.g. 30m, 6h, 1d").env(
        "TACK_BACKUP_EVERY",
      ),
    )
    .addOption(
      new Option("--backup-keep <count>", "rolling backups kept (the newest)")
        .env("TACK_BACKUP_KEEP")
        .default(String(DEFAULT_BACKUP_KEEP)),
    );
}

async function report(run: () => string): Promise<void> {
  const { BackupError } = await import("../storage/backup.js");
  try {
    console.log(run());
  } catch (error) {
    const message =
      error instanceof BackupError ? error.message : `unexpected error: ${String(error)}`;
    console.error(`tack: ${message.split("\n")[0]}`);
    process.exit(1);
  }
}
