import {
  type BoardExport,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportedTicket,
} from "../../model/board-export.js";
import type { ExportedTemplate } from "../../model/templates.js";
import type { Stores } from "../../storage/index.js";
import { exportedAsk } from "../asks/ask-transfer.js";
import type { BoardService } from "../boards/boards.js";
import { toTemplate } from "../templates/templates.js";

/**
 * `GET /api/boards/{id}/export`: the whole board as one document, archived tickets included, in
 * board order. A fixed number of queries whatever the board's size: each table is read once for
 * the board (or for all its ticket ids as one JSON parameter) and grouped in memory.
 */
export function boardExporter(
  stores: Pick<
    Stores,
    | "lanes"
    | "tags"
    | "tickets"
    | "ticketRelations"
    | "tagReasons"
    | "externalReferences"
    | "ticketEvents"
    | "asks"
    | "templates"
  >,
  boards: Pick<BoardService, "require">,
) {
  return {
    export(boardId: number): BoardExport {
      const board = boards.require(boardId);
      const records = stores.tickets.recordsOfBoard(boardId, true);
      const ids = records.map((record) => record.id);
      const parents = new Set(records.map((record) => record.parentTicketId));
      const comments = stores.tickets.commentsOfBoard(boardId);
      const blockerIds = stores.ticketRelations.blockerIds(ids);
      const relatedIds = stores.ticketRelations.relatedIds(ids);
      const tagLinks = stores.tagReasons.groupedByBoard(boardId);
      const references = stores.externalReferences.groupedByBoard(boardId);
      const events = stores.ticketEvents.groupedByBoard(boardId);
      const asks = stores.asks.byTicketOfBoard(boardId);

      const tickets = records.map((record): ExportedTicket => {
        const links = tagLinks.get(record.id) ?? [];
        return {
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
      });

      return {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        board,
        lanes: stores.lanes.listByBoard(boardId),
        tags: stores.tags.listByBoard(boardId),
        tickets,
        templates: stores.templates.listByBoard(boardId).map((row): ExportedTemplate => {
          const { id: _id, boardId: _boardId, ...template } = toTemplate(row);
          return template;
        }),
      };
    },
  };
}

export type BoardExporter = ReturnType<typeof boardExporter>;
