import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import type { BoardService } from "../boards/boards.js";
import { now } from "../clock.js";
import { markdownRenderPool } from "../markdown-pool.js";
import type { BoardShell, Ticket } from "../model.js";
import type { SearchIndexer } from "../search-indexer.js";
import { planTemplates } from "../templates/template-import.js";
import type { Transact } from "../transaction.js";
import { checkAcrossTickets, checkHead, TicketIds, ticketChecker } from "./import-checks.js";
import { importedTickets, type MadeOnRead } from "./import-detail.js";
import { type KeptPlans, keeping } from "./import-keeping.js";
import type { ImportSource, ImportTicket, PlannedTicket, TicketOutline } from "./import-plan.js";
import { type ImportStores, writeImport } from "./import-write.js";

// `POST /api/boards/import` (docs/api.md, "Export and import"; the design: docs/decisions.md, "A
// board import streams into scratch files"). A document may hold 100,000 tickets and 200 MB of
// JSON, so no step needs it whole:
//
// 1. Reading: each ticket, as the request body brings it (checked against the schema by the
//    HTTP layer), is kept (import-keeping.ts: in memory for a small document, else in a scratch
//    file beside the database); only its id, lane and position are noted.
// 2. Checking: once the document has ended, board, lanes and tags are checked, then the tickets
//    a batch at a time in document order (import-checks.ts); each batch's bodies are rendered
//    (on every core, markdown-pool.ts) and its plans kept likewise. An outline of each ticket
//    (import-plan.ts) stays in memory for the checks across tickets and the links.
// 3. Writing: one transaction (import-write.ts), reading the plans back a batch at a time. The
//    database is not touched before it, and better-sqlite3's one connection cannot keep a
//    transaction open across awaits (other requests' writes would join it), so the board is
//    written whole or not at all, and a process killed at any point leaves either nothing or
//    the whole board (test/trust/import-kill.test.ts). The transaction holds other requests
//    while it runs (docs/performance.md, "Import and export", gives its length).
// 4. Answering: the tickets are made one at a time from the plans as the answer is streamed
//    (import-detail.ts); `release` drops the plans once the answer is sent.

/**
 * Tickets checked, rendered and kept per round of the checking step. Each round is one render
 * job on every core, and a job's end renders on the main thread what the workers have not
 * answered yet: rounds of 1,000 tickets cost a 5,000-ticket import ~30% more CPU.
 */
const TICKETS_PER_BATCH = 4000;

/**
 * Tickets checked, or kept, between two turns of the event loop. A round's checks ran in one
 * piece and held every other request for seconds (4,000 tickets read back from the scratch
 * file and checked took 2-6 s on the loaded bench machine); 50 take a few milliseconds, and a
 * turn with nothing waiting costs microseconds. Test: test/api/import-meanwhile.test.ts.
 */
const TICKETS_PER_TURN = 50;

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
      const keep = keeping(stores.importStaging, source.bytes);
      const documentTickets = keep.documentTickets();
      const outlines: TicketOutline[] = [];
      let plans: KeptPlans | null = null;
      try {
        plans = keep.plans(outlines);
        const ids = new TicketIds();
        for await (const read of source.tickets) {
          ids.add(read.ticket);
          documentTickets.append(read);
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
  documentTickets: { readonly count: number; ticket(index: number): ImportTicket },
  plans: KeptPlans,
  check: ReturnType<typeof ticketChecker>,
): Promise<void> {
  for (let start = 0; start < documentTickets.count; start += TICKETS_PER_BATCH) {
    const end = Math.min(start + TICKETS_PER_BATCH, documentTickets.count);
    const batch: PlannedTicket[] = [];
    for (let index = start; index < end; index++) {
      if (index > start && (index - start) % TICKETS_PER_TURN === 0) await yieldToEventLoop();
      batch.push(check(documentTickets.ticket(index), index));
    }
    // Rendering is the costly part of an import, so it comes only once the batch is known to
    // be valid, and outside any transaction (other requests are served meanwhile).
    await renderBodies(batch);
    for (let kept = 0; kept < batch.length; kept++) {
      if (kept > 0 && kept % TICKETS_PER_TURN === 0) await yieldToEventLoop();
      plans.add(batch[kept] as PlannedTicket);
    }
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
