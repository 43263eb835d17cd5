import { isLoopbackName } from "./http/local-guard.js";
import { StartupError } from "./storage/database.js";

export interface ServeConfig {
  host: string;
  port: number;
  dbFile: string;
  /** Host names, besides loopback ones, that requests may address (the `Host` header). */
  allowedHosts: string[];
  logLevel: string;
}

export interface ServeFlags {
  host: string;
  port: string;
  db: string;
  allowedHost?: string[];
  allowRemote?: boolean;
  logLevel: string;
}

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
  const host = flags.host.trim();
  const allowedHosts = (flags.allowedHost ?? [])
    .flatMap((entry) => entry.split(","))
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "");
  const bareHost = host.replace(/^\[|\]$/g, "");
  if (!isLoopbackName(bareHost)) {
    if (!flags.allowRemote) {
      throw new StartupError(
        `refusing to listen on non-loopback address ${host}: tack has no login; pass --allow-remote to do it anyway`,
      );
    }
    warnings.push(
      `warning: listening on ${host}, reachable from other machines; tack has no authentication. ` +
        "Requests must still address a loopback name or one given with --allowed-host.",
    );
    // A specific address the user chose to bind is a legitimate Host for requests.
    if (bareHost !== "0.0.0.0" && bareHost !== "::") allowedHosts.push(bareHost.toLowerCase());
  }
  return {
    config: { host, port, dbFile: flags.db, allowedHosts, logLevel: flags.logLevel },
    warnings,
  };
}
