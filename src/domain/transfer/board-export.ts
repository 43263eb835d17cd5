import {
  type BoardExport,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportedTicket,
} from "../../model/board-export.js";
import type { ExportedTemplate } from "../../model/templates.js";
import type { ExportSnapshot, ExportStores } from "../../storage/board-export-snapshot.js";
import type { TicketRecord } from "../../storage/tickets.js";
import { exportedAsk } from "../asks/ask-transfer.js";
import { found } from "../errors.js";
import type { Lane } from "../model.js";
import { toTemplate } from "../templates/templates.js";

/**
 * Tickets read per page. A page's queries (records, comments, links, tags, references, events,
 * asks) run together and its tickets are made one at a time as the answer is written, so memory
 * holds one page, not the board: ~0.8 MiB of JSON per page of the bench's tickets.
 */
export const EXPORT_PAGE_TICKETS = 200;

/** The export document, its tickets read page by page as they are written. */
export type StreamedExport = Omit<BoardExport, "tickets"> & {
  tickets: ExportedTicket[] | (Iterable<ExportedTicket> & { toJSON(): ExportedTicket[] });
};

/** An export being written: the document, and the end of its snapshot once it is sent. */
export interface ExportInProgress {
  document: StreamedExport;
  /** Ends the snapshot (also ended once the tickets are read); safe to call more than once. */
  close(): void;
}

/**
 * `GET /api/boards/{id}/export`: the whole board as one document, archived tickets included, in
 * board order, all of it read in one snapshot (storage/board-export-snapshot.ts). The board,
 * lanes, tags and templates are read at once; the tickets lane by lane in pages of
 * `EXPORT_PAGE_TICKETS`, each page a fixed number of queries, when the answer's writer reaches
 * them. Throws NotFound (the snapshot closed) for an unknown board.
 */
export function boardExporter(openSnapshot: () => ExportSnapshot) {
  return {
    export(boardId: number): ExportInProgress {
      const snapshot = openSnapshot();
      try {
        return snapshot.read(() => {
          const { stores } = snapshot;
          const board = found(stores.boards.get(boardId), "board");
          const lanes = stores.lanes.listByBoard(boardId);
          const pages = new TicketPages(stores, boardId, lanes, () => snapshot.close());
          const document: StreamedExport = {
            format: EXPORT_FORMAT,
            version: EXPORT_VERSION,
            board,
            lanes,
            tags: stores.tags.listByBoard(boardId),
            // Without a held snapshot (a database in memory) every page is read now.
            tickets: snapshot.held ? pages : pages.toJSON(),
            templates: stores.templates.listByBoard(boardId).map((row): ExportedTemplate => {
              const { id: _id, boardId: _boardId, ...template } = toTemplate(row);
              return template;
            }),
          };
          return { document, close: () => snapshot.close() };
        });
      } catch (error) {
        snapshot.close();
        throw error;
      }
    },
  };
}

export type BoardExporter = ReturnType<typeof boardExporter>;

/**
 * A board's tickets in board order, read once, page by page; the snapshot ends after the last
 * page (or when the reader stops early). Serialized whole (JSON.stringify), an array (toJSON).
 */
class TicketPages implements Iterable<ExportedTicket> {
  private read = false;

  constructor(
    private readonly stores: ExportStores,
    private readonly boardId: number,
    private readonly lanes: readonly Lane[],
    private readonly done: () => void,
  ) {}

  *[Symbol.iterator](): Iterator<ExportedTicket> {
    if (this.read) throw new Error("an export's tickets are read once");
    this.read = true;
    try {
      for (const lane of this.lanes) {
        let after: TicketRecord | null = null;
        for (;;) {
          const records = this.stores.tickets.recordsOfLaneAfter(
            lane.id,
            after,
            EXPORT_PAGE_TICKETS,
          );
          if (records.length > 0) yield* exportedTickets(this.stores, this.boardId, records);
          if (records.length < EXPORT_PAGE_TICKETS) break;
          after = records[records.length - 1] as TicketRecord;
        }
      }
    } finally {
      this.done();
    }
  }

  toJSON(): ExportedTicket[] {
    return Array.from(this);
  }
}

/** One page's tickets with everything they carry: one query per table for the page. */
function* exportedTickets(
  stores: ExportStores,
  boardId: number,
  records: readonly TicketRecord[],
): Generator<ExportedTicket> {
  const ids = records.map((record) => record.id);
  const parents = stores.tickets.parentsAmong(boardId, ids);
  const comments = stores.tickets.commentsOfTickets(ids);
  const blockerIds = stores.ticketRelations.blockerIds(ids);
  const relatedIds = stores.ticketRelations.relatedIds(ids);
  const tagLinks = stores.tagReasons.groupedByTickets(ids);
  const references = stores.externalReferences.groupedByTickets(ids);
  const events = stores.ticketEvents.groupedByTickets(ids);
  const asks = stores.asks.byTicketOfTickets(ids);

  for (const record of records) {
    const links = tagLinks.get(record.id) ?? [];
    yield {
      id: record.id,
      boardId: record.boardId,
      laneId: record.laneId,
      parentTicketId: record.parentTicketId,
      hasChildren: parents.has(record.id),
      title: record.title,
      bodyMarkdown: record.bodyMarkdown,
      isResolved: record.isResolved,
      isCompleted: record.isResolved,
      isArchived: record.isArchived,
      priority: record.priority,
      position: record.position,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      notBefore: record.notBefore,
      tags: links.map((link) => link.tag),
      comments: (comments.get(record.id) ?? []).map((comment) => ({
        id: comment.id,
        ticketId: comment.ticketId,
        bodyMarkdown: comment.bodyMarkdown,
        bodyHtml: comment.bodyHtml,
        createdAt: comment.createdAt,
      })),
      blockerIds: blockerIds.get(record.id) ?? [],
      relatedIds: relatedIds.get(record.id) ?? [],
      externalReferences: references.get(record.id) ?? [],
      tagReasons: links.map((link) => ({
        tagId: link.tag.id,
        reason: link.reason,
        details: link.details,
        reasonCommentId: link.reasonCommentId,
        attachedAt: link.attachedAt,
        updatedAt: link.updatedAt,
      })),
      events: events.get(record.id) ?? [],
      asks: (asks.get(record.id) ?? []).map(exportedAsk),
    };
  }
}
