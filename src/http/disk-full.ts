import type { FastifyBaseLogger } from "fastify";
import { databaseFolder, formatBytes, freeBytes } from "../storage/disk-space.js";

/**
 * What a full disk looks like from outside (docs/api.md, "Errors"; docs/operations.md, "A full
 * disk"): every write that cannot be stored answers 507 naming the folder and its free space,
 * reads go on, and the log says so once when writes start failing and once when one succeeds
 * again, not once per request (a client retrying in a loop would fill the log, on the same disk).
 */
export interface DiskFullReports {
  /** The answer's sentence: where, and how much is free now. */
  message(): string;
  /** A write failed for lack of space: logs the first of a run of failures. */
  failed(log: FastifyBaseLogger, error: unknown): void;
  /**
   * An I/O error of SQLite's that a full disk explains: the log's index (`-shm`) failing to grow
   * is SQLITE_IOERR_SHMSIZE, not SQLITE_FULL. Asks the disk only for such errors.
   */
  explains(error: unknown): boolean;
  /** Called after every commit: a commit after failures ends the run with a line. */
  committed(): void;
}

/** Free space below which a failed write is put down to the disk being full. */
const NEARLY_FULL_BYTES = 1024 * 1024;

export function diskFullReports(dbFile: string): DiskFullReports {
  const folder = databaseFolder(dbFile);
  /** The logger of the first failure of the current run; undefined while writes succeed. */
  let failing: FastifyBaseLogger | undefined;
  let failures = 0;

  const describeFree = () => {
    const free = freeBytes(folder);
    return free === undefined ? "free space unknown" : `${formatBytes(free)} free`;
  };

  return {
    message() {
      return `the disk is full: tack could not write its database in ${folder} (${describeFree()}); free some space and retry`;
    },
    failed(log, error) {
      failures++;
      if (failing) return;
      failing = log;
      log.error(
        { err: error },
        `disk full: writes to ${folder} fail (${describeFree()}); they answer 507 until space is freed`,
      );
    },
    explains(error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== "string" || !code.startsWith("SQLITE_IOERR")) return false;
      const free = freeBytes(folder);
      return free !== undefined && free < NEARLY_FULL_BYTES;
    },
    committed() {
      if (!failing) return;
      failing.warn(`disk space again: writes to ${folder} succeed (${failures} refused with 507)`);
      failing = undefined;
      failures = 0;
    },
  };
}
