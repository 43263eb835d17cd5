import type { ImportedTicketRow } from "../../storage/board-export.js";
import type { StagingFile } from "../../storage/import-staging.js";
import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import type { BoardService } from "../boards/boards.js";
import { now } from "../clock.js";
import { markdownRenderPool } from "../markdown-pool.js";
import type { BoardShell, Ticket } from "../model.js";
import type { SearchIndexer } from "../search-indexer.js";
import { planTemplates } from "../templates/template-import.js";
import type { Transact } from "../transaction.js";
import {
  checkAcrossTickets,
  checkHead,
  outlineOf,
  TicketIds,
  ticketChecker,
} from "./import-checks.js";
import { importedTickets, type MadeOnRead } from "./import-detail.js";
import type {
  ImportSource,
  PlannedReason,
  PlannedTicket,
  PlannedTickets,
  TicketOutline,
  TicketRest,
} from "./import-plan.js";
import { type ImportStores, writeImport } from "./import-write.js";

// `POST /api/boards/import` (docs/api.md, "Export and import"; the design: docs/decisions.md, "A
// board import streams into scratch files"). A document may hold 100,000 tickets and 200 MB of
// JSON, so no step holds it whole:
//
// 1. Reading: each ticket, as the request body brings it (checked against the schema by the
//    HTTP layer), is appended to a scratch file (storage/import-staging.ts); only its id, lane
//    and position stay in memory.
// 2. Checking: once the document has ended, board, lanes and tags are checked, then the tickets
//    a batch at a time in document order (import-checks.ts); each batch's bodies are rendered
//    (on every core, markdown-pool.ts) and its plan appended to a second scratch file. An
//    outline of each ticket (import-plan.ts) stays for the checks across tickets.
// 3. Writing: one transaction (import-write.ts), reading the plans back a batch at a time. The
//    database is not touched before it, and better-sqlite3's one connection cannot keep a
//    transaction open across awaits (other requests' writes would join it), so the board is
//    written whole or not at all, and a process killed at any point leaves either nothing or
//    the whole board (test/trust/import-kill.test.ts). The transaction blocks other requests
//    while it runs (docs/performance.md, "Import and export", gives its length).
// 4. Answering: the tickets are made one at a time from the plans as the answer is streamed
//    (import-detail.ts); `release` closes the scratch file once the answer is sent.

/** Tickets checked, rendered and kept per round of the checking step. */
const TICKETS_PER_BATCH = 1000;

/** The import's answer: the new board, its tickets made as the answer is written. */
export interface ImportedBoard extends BoardShell {
  tickets: MadeOnRead<Ticket>;
}

export function boardImporter(
  stores: ImportStores & Pick<Stores, "importStaging">,
  deps: {
    boards: Pick<BoardService, "shell">;
    activity: ActivityRecorder;
    searchIndex: Pick<SearchIndexer, "schedule">;
  },
  transact: Transact,
) {
  return {
    /**
     * Always a new board; any violation is a 400 naming the element and nothing is created. Ids
     * are remapped; positions, timestamps, comment and event order, tag reasons, references and
     * events are kept (docs/export-format.md). Call `release` once the answer has been sent.
     */
    async import(source: ImportSource): Promise<{ detail: ImportedBoard; release: () => void }> {
      const at = now();
      const documentTickets = stores.importStaging.open();
      const outlines: TicketOutline[] = [];
      let plans: KeptPlans | null = null;
      try {
        plans = new KeptPlans(stores.importStaging, outlines);
        const ids = new TicketIds();
        for await (const { ticket, text } of source.tickets) {
          ids.add(ticket);
          documentTickets.append(text);
        }
        const head = checkHead(source.head());
        ids.assertUnique();
        await planTickets(documentTickets, plans, ticketChecker(head, ids, at));
        documentTickets.close();
        checkAcrossTickets(outlines);
        const laneNames = new Set(head.lanes.map((lane) => lane.name));
        const templates = planTemplates(source.head().templates ?? [], laneNames, at);
        const plan = { ...head, templates };
        const planned = plans;
        const written = transact((changes) => {
          const result = writeImport(plan, outlines, planned, stores, deps.activity, at);
          changes.touched(result.boardId);
          return result;
        });
        // The new tickets went in as pending (searches scan them): index them in the background.
        void deps.searchIndex.schedule();
        // The tickets come from the plans and the new ids: reading 100,000 full tickets back
        // cost as much as writing them. Board, lanes and tags are read (they fix the orders).
        const shell = deps.boards.shell(written.boardId);
        const tickets = importedTickets(outlines, (index) => planned.ticket(index), written, shell);
        return { detail: { ...shell, tickets }, release: () => planned.close() };
      } catch (error) {
        plans?.close();
        throw error;
      } finally {
        documentTickets.close();
      }
    },
  };
}

export type BoardImporter = ReturnType<typeof boardImporter>;

/**
 * Checks and renders the document's tickets a batch at a time, keeping each plan in `plans`.
 */
async function planTickets(
  documentTickets: StagingFile,
  plans: KeptPlans,
  check: ReturnType<typeof ticketChecker>,
): Promise<void> {
  for (let start = 0; start < documentTickets.count; start += TICKETS_PER_BATCH) {
    const end = Math.min(start + TICKETS_PER_BATCH, documentTickets.count);
    const batch: PlannedTicket[] = [];
    for (let index = start; index < end; index++) {
      batch.push(check(JSON.parse(documentTickets.read(index)), index));
    }
    // Rendering is the costly part of an import, so it comes only once the batch is known to
    // be valid, and outside any transaction (other requests are served meanwhile).
    await renderBodies(batch);
    for (const ticket of batch) plans.add(ticket);
  }
}

/** Fills in the HTML of every ticket, comment and ask body of a checked batch. */
async function renderBodies(tickets: readonly PlannedTicket[]): Promise<void> {
  const sources: string[] = [];
  for (const ticket of tickets) {
    sources.push(ticket.row.bodyMarkdown);
    for (const comment of ticket.comments) sources.push(comment.bodyMarkdown);
    for (const ask of ticket.asks) {
      sources.push(ask.question);
      if (ask.answer?.text != null) sources.push(ask.answer.text);
    }
  }
  const html = await markdownRenderPool.render(sources);
  let next = 0;
  for (const ticket of tickets) {
    ticket.row.bodyHtml = html[next++] as string;
    for (const comment of ticket.comments) comment.bodyHtml = html[next++] as string;
    for (const ask of ticket.asks) {
      ask.questionHtml = html[next++] as string;
      if (ask.answer?.text != null) ask.answer.textHtml = html[next++] as string;
    }
  }
}

/**
 * The plans of a document's tickets, kept in two scratch files: row and rest (import-plan.ts),
 * record n of each for ticket n; tag reasons and blockers as entry lists in JSON.
 */
class KeptPlans implements PlannedTickets {
  private readonly rows: StagingFile;
  private readonly rests: StagingFile;

  constructor(
    staging: Pick<Stores, "importStaging">["importStaging"],
    private readonly outlines: TicketOutline[],
  ) {
    this.rows = staging.open();
    try {
      this.rests = staging.open();
    } catch (error) {
      this.rows.close();
      throw error;
    }
  }

  add(ticket: PlannedTicket): void {
    this.rows.append(JSON.stringify(ticket.row));
    const { comments, tags, references, events, asks } = ticket;
    this.rests.append(JSON.stringify({ comments, tags: [...tags], references, events, asks }));
    this.outlines.push(outlineOf(ticket));
  }

  row(index: number): ImportedTicketRow {
    return JSON.parse(this.rows.read(index)) as ImportedTicketRow;
  }

  rest(index: number): TicketRest {
    const rest = JSON.parse(this.rests.read(index)) as Omit<TicketRest, "tags"> & {
      tags: Array<[number, PlannedReason]>;
    };
    return { ...rest, tags: new Map(rest.tags) };
  }

  ticket(index: number): PlannedTicket {
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
    this.rows.close();
    this.rests.close();
  }
}
