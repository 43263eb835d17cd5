import Database from "better-sqlite3";
import { askStore } from "./asks.js";
import { boardStore } from "./boards.js";
import type { Db } from "./database.js";
import { externalReferenceStore } from "./external-references.js";
import { laneStore } from "./lanes.js";
import { tagReasonStore } from "./tag-reasons.js";
import { tagStore } from "./tags.js";
import { templateStore } from "./templates.js";
import { ticketEventStore } from "./ticket-events.js";
import { ticketRelationStore } from "./ticket-relations.js";
import { ticketStore } from "./tickets.js";

/** The stores a board export reads, over the snapshot's connection. */
function exportStores(db: Db) {
  return {
    boards: boardStore(db),
    lanes: laneStore(db),
    tags: tagStore(db),
    templates: templateStore(db),
    tickets: ticketStore(db),
    ticketRelations: ticketRelationStore(db),
    tagReasons: tagReasonStore(db),
    externalReferences: externalReferenceStore(db),
    ticketEvents: ticketEventStore(db),
    asks: askStore(db),
  };
}

export type ExportStores = ReturnType<typeof exportStores>;

/** One state of the database for a whole board export, read while the answer is sent. */
export interface ExportSnapshot {
  stores: ExportStores;
  /**
   * True: the snapshot stays the same across ticks until `close`, so the export may read its
   * pages as the socket takes the answer. False (a database in memory, which no second
   * connection can open): every read must happen inside one synchronous `read` call.
   */
  held: boolean;
  /** Runs reads in the snapshot. */
  read<T>(work: () => T): T;
  /** Ends the snapshot and closes its connection; safe to call more than once. */
  close(): void;
}

/**
 * Opens snapshots for board exports. A 100,000-ticket export is ~400 MiB of JSON sent over
 * minutes; built whole it peaked at 2.9 GiB (docs/performance.md, "The huge board"). Sent as it
 * is read, its pages are read between socket writes, while other requests commit on the
 * server's connection: a transaction left open there would take their writes in. So each export
 * reads on a read-only connection of its own, in one deferred transaction: in WAL mode that is
 * one state of the database from its first read to `close`, whatever commits meanwhile, and it
 * blocks no writer. What it costs: the log cannot restart from its beginning while the snapshot
 * is open, so writes during a long export grow the -wal file until the next checkpoint after it
 * (docs/operations.md, "Disk space").
 *
 * The first read (the caller's, in the same tick as it takes the board's entity tag) fixes the
 * state, so the ETag and the bytes describe the same board.
 */
export function exportSnapshots(db: Db): () => ExportSnapshot {
  if (db.memory) {
    const stores = exportStores(db);
    const inOneRead = db.transaction((work: () => unknown) => work());
    return () => ({
      stores,
      held: false,
      read: <T>(work: () => T): T => (db.inTransaction ? work() : (inOneRead(work) as T)),
      close() {},
    });
  }
  return () => {
    const connection = new Database(db.name, { readonly: true, fileMustExist: true });
    try {
      // Reads pass through once: a small page cache, and no memory map, whose touched pages
      // would count in the server's resident memory a second time beside its own connection's.
      connection.pragma("cache_size = -4096");
      connection.pragma("mmap_size = 0");
      const stores = exportStores(connection);
      connection.exec("BEGIN");
      return {
        stores,
        held: true,
        read: (work) => work(),
        close() {
          if (connection.open) connection.close();
        },
      };
    } catch (error) {
      connection.close();
      throw error;
    }
  };
}
