import type { ImportedTicketRow } from "../../storage/board-export.js";
import type { ImportStagingStore, StagingFile } from "../../storage/import-staging.js";
import { outlineOf } from "./import-checks.js";
import type {
  ImportTicket,
  PlannedReason,
  PlannedTicket,
  PlannedTickets,
  SourceTicket,
  TicketOutline,
  TicketRest,
} from "./import-plan.js";

// Where a board import keeps the document's tickets and their plans between reading, writing and
// answering (board-import.ts): in memory for a document up to KEEP_IN_MEMORY_BYTES, as JSON in
// scratch files beside the database beyond (storage/import-staging.ts). Memory is faster (no
// JSON written and parsed again) but holds every ticket's objects, rendered HTML included: a
// 20,000-ticket document peaked at ~750 MiB that way; files keep the peak flat whatever the size.

/** Documents up to this size (declared by the request) are kept in memory: 5,000 tickets. */
export const KEEP_IN_MEMORY_BYTES = 16 * 1024 * 1024;

/** Values appended one after another and read back by number, in any order. */
interface Kept<T> {
  readonly count: number;
  append(value: T): void;
  read(index: number): T;
  close(): void;
}

function keptInMemory<T>(): Kept<T> {
  let values: T[] = [];
  return {
    get count() {
      return values.length;
    },
    append: (value) => {
      values.push(value);
    },
    read: (index) => values[index] as T,
    close: () => {
      values = [];
    },
  };
}

function keptInFile<T>(
  file: StagingFile,
  text: (value: T) => string,
  parse: (text: string) => T,
): Kept<T> {
  return {
    get count() {
      return file.count;
    },
    append: (value) => file.append(text(value)),
    read: (index) => parse(file.read(index)),
    close: () => file.close(),
  };
}

/** Where to keep an import of a document of `bytes` bytes (undefined: not known). */
export function keeping(staging: ImportStagingStore, bytes: number | undefined) {
  const inMemory = bytes !== undefined && bytes <= KEEP_IN_MEMORY_BYTES;
  return {
    /** The document's tickets as read; in a file, as the JSON text the document gave. */
    documentTickets(): Kept<SourceTicket> & { ticket(index: number): ImportTicket } {
      const kept: Kept<SourceTicket> = inMemory
        ? keptInMemory()
        : keptInFile(staging.open(), documentTicketText, (text) => ({
            ticket: JSON.parse(text) as ImportTicket,
          }));
      return Object.assign(kept, { ticket: (index: number) => kept.read(index).ticket });
    },
    plans(outlines: TicketOutline[]): KeptPlans {
      return new KeptPlans(inMemory ? null : staging, outlines);
    },
  };
}

function documentTicketText(source: SourceTicket): string {
  return source.text ?? JSON.stringify(source.ticket);
}

/**
 * The plans of a document's tickets (PlannedTickets, import-plan.ts). In files: row and rest in
 * two, record n of each for ticket n, tag reasons as an entry list; the rest of a PlannedTicket
 * is its outline.
 */
export class KeptPlans implements PlannedTickets {
  private readonly whole: Kept<PlannedTicket> | null = null;
  private readonly rows: Kept<ImportedTicketRow> | null = null;
  private readonly rests: Kept<TicketRest> | null = null;

  constructor(
    staging: ImportStagingStore | null,
    private readonly outlines: TicketOutline[],
  ) {
    if (staging === null) {
      this.whole = keptInMemory();
      return;
    }
    this.rows = keptInFile(staging.open(), (row) => JSON.stringify(row), JSON.parse);
    try {
      this.rests = keptInFile(staging.open(), restText, parseRest);
    } catch (error) {
      this.rows.close();
      throw error;
    }
  }

  add(ticket: PlannedTicket): void {
    this.whole?.append(ticket);
    this.rows?.append(ticket.row);
    this.rests?.append(ticket);
    this.outlines.push(outlineOf(ticket));
  }

  row(index: number): ImportedTicketRow {
    return this.whole
      ? this.whole.read(index).row
      : (this.rows as Kept<ImportedTicketRow>).read(index);
  }

  rest(index: number): TicketRest {
    return this.whole ? this.whole.read(index) : (this.rests as Kept<TicketRest>).read(index);
  }

  ticket(index: number): PlannedTicket {
    if (this.whole) return this.whole.read(index);
    const outline = this.outlines[index] as TicketOutline;
    return {
      index,
      sourceId: outline.sourceId,
      laneIndex: outline.laneIndex,
      parentIndex: outline.parentIndex,
      row: this.row(index),
      ...this.rest(index),
      blockers: outline.blockers ?? new Map(),
      relatedIndexes: outline.relatedIndexes ?? [],
    };
  }

  close(): void {
    this.whole?.close();
    this.rows?.close();
    this.rests?.close();
  }
}

function restText({ comments, tags, references, events, asks }: TicketRest): string {
  return JSON.stringify({ comments, tags: [...tags], references, events, asks });
}

function parseRest(text: string): TicketRest {
  const rest = JSON.parse(text) as Omit<TicketRest, "tags"> & {
    tags: Array<[number, PlannedReason]>;
  };
  return { ...rest, tags: new Map(rest.tags) };
}
