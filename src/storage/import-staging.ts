import { closeSync, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Db } from "./db.js";

/**
 * Scratch files of a board import (domain/transfer/board-import.ts, docs/decisions.md, "A board
 * import streams into scratch files"): records of text appended one after another and read back
 * by number, in any order. A 100,000-ticket document is ~200 MB of JSON and its checked,
 * rendered plan twice that, so they wait on disk, not in memory.
 *
 * Each file is unlinked the moment it is opened: it has no name, so a process killed mid-import
 * leaves nothing behind, and its space comes back when it is closed. It lives beside the
 * database (the disk the operator sized for tack), not in the temporary folder, which may be
 * memory (tmpfs). Writes go through a buffer and reach the file before any read.
 */
export function importStagingStore(db: Db) {
  const folder = db.memory ? tmpdir() : dirname(db.name);
  let opened = 0;
  return {
    open(): StagingFile {
      opened += 1;
      const path = join(folder, `.tack-import-${process.pid}-${opened}-${Date.now()}`);
      const fd = openSync(path, "wx+", 0o600);
      unlinkSync(path);
      return new StagingFile(fd);
    },
  };
}

export type ImportStagingStore = ReturnType<typeof importStagingStore>;

/** Bytes gathered before a write to the file. */
const BUFFER_BYTES = 1024 * 1024;

export class StagingFile {
  private readonly starts: number[] = [];
  private readonly lengths: number[] = [];
  private written = 0;
  private buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private buffered = 0;
  private fd: number | null;

  constructor(fd: number) {
    this.fd = fd;
  }

  /** How many records the file holds. */
  get count(): number {
    return this.starts.length;
  }

  /** Appends a record; its number is the count before. */
  append(text: string): number {
    const size = Buffer.byteLength(text);
    if (this.buffered + size > this.buffer.length) this.flush();
    if (size > this.buffer.length) this.buffer = Buffer.allocUnsafe(size);
    this.buffer.write(text, this.buffered);
    this.buffered += size;
    this.starts.push(this.written);
    this.lengths.push(size);
    this.written += size;
    return this.starts.length - 1;
  }

  read(record: number): string {
    const start = this.starts[record];
    const length = this.lengths[record];
    if (start === undefined || length === undefined) throw new Error(`no record ${record}`);
    if (this.buffered > 0) this.flush();
    const bytes = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const got = readSync(this.openFd(), bytes, done, length - done, start + done);
      if (got === 0) throw new Error("staging file ended early");
      done += got;
    }
    return bytes.toString("utf8");
  }

  /** Closes the file, which frees its space; reading afterwards throws. Safe to repeat. */
  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  private flush(): void {
    const fd = this.openFd();
    const end = this.written;
    let position = end - this.buffered;
    let done = 0;
    while (done < this.buffered) {
      const wrote = writeSync(fd, this.buffer, done, this.buffered - done, position);
      done += wrote;
      position += wrote;
    }
    this.buffered = 0;
  }

  private openFd(): number {
    if (this.fd === null) throw new Error("staging file is closed");
    return this.fd;
  }
}
