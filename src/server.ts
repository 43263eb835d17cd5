import { readFileSync } from "node:fs";
import { refuseDamagedDatabase } from "./backup/startup-check.js";
import type { ServeConfig } from "./config.js";
import { renderMarkdown } from "./domain/markdown.js";
import { createServices, type Services } from "./domain/services.js";
import { checklistOf } from "./domain/tickets/checklists.js";
import { BoardEventBus } from "./events/board-events.js";
import { buildApp } from "./http/app.js";
import { diskFullReports } from "./http/disk-full.js";
import type { ServerTimeouts } from "./http/request-limits.js";
import type { TicketAnswerOptions } from "./http/ticket-answers.js";
import type { TackApp } from "./http/types.js";
import { packageInfo } from "./package-info.js";
import { CredentialConfigError, loadCredentials } from "./providers/credentials.js";
import { getProvider } from "./providers/providers.js";
import { REMOTE_PROVIDER_IDS } from "./providers/types.js";
import { releaseStartupMemory } from "./startup-memory.js";
import { type Db, isDatabaseUsable, openDatabase, StartupError } from "./storage/database.js";
import { isDiskFull } from "./storage/disk-space.js";
import { groupCommit, type SyncFile } from "./storage/group-commit.js";
import { walCheckpointsOffThread } from "./storage/wal-checkpoints.js";

export interface RunningServer {
  app: TackApp;
  db: Db;
  services: Services;
  url: string;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Where log lines go (default stdout); tests capture them to prove no token is ever logged. */
  logStream?: NodeJS.WritableStream;
  /** Limits against slow clients; tests shorten them (defaults in http/request-limits.ts). */
  timeouts?: ServerTimeouts;
  /** How the write-ahead log is flushed (default fs.fdatasync); tests hold or fail it. */
  syncFile?: SyncFile;
  /** How tickets are answered (http/ticket-answers.ts: the reference mode, for tests). */
  answers?: TicketAnswerOptions;
  /**
   * One memory-reducing collection before listening (startup-memory.ts): `tack serve` asks for
   * it; in-process test servers do not, as it would collect the whole test runner's heap.
   */
  releaseStartupMemory?: boolean;
}

/** Opens the database, builds the app and listens. Failures are StartupErrors with one-line messages. */
export async function startServer(
  config: ServeConfig,
  env: NodeJS.ProcessEnv = process.env,
  options: ServerOptions = {},
): Promise<RunningServer> {
  const credentials = loadCredentialsOrFail(env);
  const timeoutMs = remoteTimeoutOrFail(env);
  const tls = config.tls && readTlsFiles(config.tls);
  // Before anything opens the file for writing (docs/operations.md, "A damaged file").
  if (!config.skipCheck) refuseDamagedDatabase(config.dbFile, config.backupDir);
  const db = openDatabase(config.dbFile, { renderMarkdown, countChecklist: checklistOf });
  const checkpoints = walCheckpointsOffThread(db, config.dbFile);
  const commits = groupCommit(db, config.dbFile, options.syncFile);
  const diskFull = diskFullReports(config.dbFile);
  const bus = new BoardEventBus();
  const services = createServices(
    db,
    bus,
    { credentials, provider: (id) => getProvider(id, { timeoutMs }) },
    () => {
      checkpoints.committed();
      diskFull.committed();
    },
    config.trashDays,
  );
  if (config.allowRemote && !services.accessTokens.hasUsable()) {
    await checkpoints.stop();
    await commits.close();
    db.close();
    throw new StartupError(
      "refusing to start with --allow-remote: no usable access token exists in this database; create one with `tack token create --name <name>`",
    );
  }
  const app = await buildApp({
    services,
    requireToken: config.requireToken === true,
    ...(tls ? { tls } : {}),
    allowedHosts: config.allowedHosts,
    info: {
      name: "tack",
      version: packageInfo.version,
      databaseUsable: () => isDatabaseUsable(db),
      remoteProviders: () =>
        REMOTE_PROVIDER_IDS.map((id) => ({ id, hasCredential: credentials.hasCredential(id) })),
    },
    timeouts: options.timeouts,
    afterDurable: commits.afterDurable,
    diskFull,
    answers: options.answers,
    logger:
      config.logLevel === "silent"
        ? false
        : {
            level: config.logLevel,
            // Should any log line ever carry request headers, credentials in them are masked.
            redact: { paths: REDACTED_HEADERS, censor: "[redacted]" },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
  });

  try {
    if (options.releaseStartupMemory) {
      await app.ready();
      await releaseStartupMemory();
    }
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    await commits.close();
    db.close();
    throw new StartupError(listenFailure(error, config));
  }

  // Tickets the search index has not caught up with (written since, migrated, imported) are
  // indexed in small background steps, searches scanning them meanwhile.
  services.searchIndex.watch();
  void services.searchIndex.schedule();
  // Trash entries past their time are erased unasked (docs/api.md, "The trash"); deletes and trash
  // reads also erase them on the way, so this only matters for a server nobody writes to.
  // A failure (a full disk) leaves the entries for the next check or the next delete.
  const purgeExpiredTrash = () => {
    try {
      services.trash.purgeExpired();
    } catch (error) {
      // A full disk is reported by the writes it refuses (http/disk-full.ts), once.
      if (!isDiskFull(error)) app.log.warn({ err: error }, "expired trash entries not erased");
    }
  };
  purgeExpiredTrash();
  const trashExpiry = setInterval(purgeExpiredTrash, TRASH_EXPIRY_CHECK_MS);
  trashExpiry.unref();

  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const hostForUrl =
    config.host.includes(":") && !config.host.startsWith("[") ? `[${config.host}]` : config.host;
  let closing: Promise<void> | undefined;
  return {
    app,
    db,
    services,
    url: `${tls ? "https" : "http"}://${hostForUrl}:${port}`,
    close() {
      closing ??= (async () => {
        clearInterval(trashExpiry);
        await app.close();
        await services.searchIndex.stop();
        await checkpoints.stop();
        await commits.close();
        db.close();
      })();
      return closing;
    },
  };
}

/** How often a running server looks for expired trash entries (a cheap indexed read). */
const TRASH_EXPIRY_CHECK_MS = 60_000;

/** Authorization-like request headers, wherever a log line would include them. */
const REDACTED_HEADERS = [
  "authorization",
  "cookie",
  "proxy-authorization",
  "set-cookie",
  "private-token",
  "x-api-key",
  "x-redmine-api-key",
].flatMap((name) => [`req.headers["${name}"]`, `headers["${name}"]`]);

/** The PEM files of `--tls-cert` and `--tls-key`, read once at start. */
function readTlsFiles(files: { certFile: string; keyFile: string }) {
  const read = (file: string, flag: string) => {
    try {
      return readFileSync(file);
    } catch (error) {
      const code = (error as { code?: string }).code ?? "unreadable";
      throw new StartupError(`cannot read ${flag} ${file}: ${code}`);
    }
  };
  return { cert: read(files.certFile, "--tls-cert"), key: read(files.keyFile, "--tls-key") };
}

function loadCredentialsOrFail(env: NodeJS.ProcessEnv) {
  try {
    return loadCredentials(env);
  } catch (error) {
    // Its message names the bad key and never a token.
    if (error instanceof CredentialConfigError) throw new StartupError(error.message);
    throw error;
  }
}

/** TACK_REMOTE_TIMEOUT_MS: per-request timeout of provider calls (default 10 s). */
function remoteTimeoutOrFail(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.TACK_REMOTE_TIMEOUT_MS?.trim();
  if (!raw) return undefined;
  const ms = Number(raw);
  if (!/^\d+$/.test(raw) || ms < 1 || ms > 600_000) {
    throw new StartupError("TACK_REMOTE_TIMEOUT_MS must be a whole number from 1 to 600000");
  }
  return ms;
}

function listenFailure(error: unknown, config: ServeConfig): string {
  const code = (error as { code?: string }).code;
  const where = `${config.host}:${config.port}`;
  if (code === "EADDRINUSE") return `cannot listen on ${where}: address already in use`;
  if (code === "EACCES") return `cannot listen on ${where}: permission denied`;
  if (code === "EADDRNOTAVAIL") return `cannot listen on ${where}: address not available`;
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return `cannot listen on ${where}: ${message}`;
}
