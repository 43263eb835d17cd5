import { isLoopbackName } from "./http/local-guard.js";
import { StartupError } from "./storage/database.js";

export interface ServeConfig {
  host: string;
  port: number;
  dbFile: string;
  /** Host names, besides loopback ones, that requests may address (the `Host` header). */
  allowedHosts: string[];
  logLevel: string;
  /** `--require-token`: every request needs an access token, loopback included. */
  requireToken?: boolean;
  /** `--allow-remote` was given: refuse to start while no usable token exists. */
  allowRemote?: boolean;
  /** `--tls-cert` and `--tls-key`: PEM files; https on the same port. */
  tls?: { certFile: string; keyFile: string };
  /**
   * Days a deleted object stays in the trash (docs/api.md, "The trash"); 0 erases at once. Default
   * 30.
   */
  trashDays?: number;
  /** `--skip-check`: start without checking the database file first (docs/operations.md). */
  skipCheck?: boolean;
  /** Where rolling backups are (`--backup-dir`): a refused start names the newest. */
  backupDir?: string;
}

export interface ServeFlags {
  host: string;
  port: string;
  db: string;
  allowedHost?: string[];
  allowRemote?: boolean;
  requireToken?: boolean | string;
  tlsCert?: string;
  tlsKey?: string;
  logLevel: string;
  trashDays?: string;
}

/** The longest trash period accepted (100 years: "keep everything"). */
const TRASH_DAYS_MAX = 36_500;

const LOG_LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

/** Checks the serve flags (already merged with their environment variables by the CLI). */
export function resolveServeConfig(flags: ServeFlags): { config: ServeConfig; warnings: string[] } {
  const warnings: string[] = [];
  const port = Number(flags.port);
  if (!/^\d+$/.test(flags.port) || port > 65535) {
    throw new StartupError(`invalid port ${flags.port}: expected an integer from 0 to 65535`);
  }
  if (!LOG_LEVELS.has(flags.logLevel)) {
    throw new StartupError(
      `invalid log level ${flags.logLevel}: expected one of ${[...LOG_LEVELS].join(", ")}`,
    );
  }
  const trashDays = Number(flags.trashDays ?? "30");
  if (!/^\d+$/.test(flags.trashDays ?? "30") || trashDays > TRASH_DAYS_MAX) {
    throw new StartupError(
      `invalid trash days ${flags.trashDays}: expected an integer from 0 to ${TRASH_DAYS_MAX}`,
    );
  }
  const host = flags.host.trim();
  const allowedHosts = (flags.allowedHost ?? [])
    .flatMap((entry) => entry.split(","))
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "");
  const bareHost = host.replace(/^\[|\]$/g, "");
  if (!isLoopbackName(bareHost)) {
    if (!flags.allowRemote) {
      throw new StartupError(
        `refusing to listen on non-loopback address ${host}: pass --allow-remote (requests from other machines then need an access token, see tack token create)`,
      );
    }
    warnings.push(
      `warning: listening on ${host}, reachable from other machines; their requests need an access token. ` +
        "Requests must still address a loopback name or one given with --allowed-host.",
    );
    if (!flags.tlsCert) {
      warnings.push(
        "warning: without --tls-cert/--tls-key (or an https proxy in front) tokens cross the network in clear.",
      );
    }
    // A specific address the user chose to bind is a legitimate Host for requests.
    if (bareHost !== "0.0.0.0" && bareHost !== "::") allowedHosts.push(bareHost.toLowerCase());
  }
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined)) {
    throw new StartupError("--tls-cert and --tls-key go together: give both or neither");
  }
  return {
    config: {
      host,
      port,
      dbFile: flags.db,
      allowedHosts,
      logLevel: flags.logLevel,
      requireToken: isOn(flags.requireToken),
      allowRemote: flags.allowRemote === true,
      ...(flags.tlsCert && flags.tlsKey
        ? { tls: { certFile: flags.tlsCert, keyFile: flags.tlsKey } }
        : {}),
      trashDays,
    },
    warnings,
  };
}

/** `--require-token`, or TACK_REQUIRE_TOKEN=1 / true. */
function isOn(value: boolean | string | undefined): boolean {
  if (typeof value === "string") return value === "1" || value.toLowerCase() === "true";
  return value === true;
}
