import type {
  ImportedComment,
  ImportedEvent,
  ImportedReference,
} from "../../storage/board-export.js";
import type { Stores } from "../../storage/index.js";
import type { TagReasonWrite } from "../../storage/tag-reasons.js";
import type { ActivityRecorder } from "../activity.js";
import { referenceSearchText } from "../annotations/external-references.js";
import { nameKey } from "../names.js";
import type {
  ImportPlan,
  PlannedTickets,
  TicketOutline,
  TicketRest,
  WrittenBoard,
} from "./import-plan.js";

export type ImportStores = Pick<
  Stores,
  "boards" | "lanes" | "tags" | "boardImport" | "asks" | "templates"
>;

/** Tickets read back from the scratch file and written per round of the write. */
const TICKETS_PER_BATCH = 1000;

/**
 * Writes a checked document; returns the new ids. Runs inside the import's one transaction, so
 * the board is written whole or not at all. Rows go to the database table by table, parents
 * before the rows that reference them, each table in a few multi-row statements
 * (storage/board-export.ts), the plans read back from the scratch files a batch at a time. The
 * ids are those a row-by-row write gave: tickets in the order of their ids in the document (id
 * tie-breaks in orderings still hold), then each ticket's comments, tags, references, events,
 * asks and activity in document order; links between tickets once every ticket exists.
 */
export function writeImport(
  plan: ImportPlan,
  outlines: readonly TicketOutline[],
  planned: PlannedTickets,
  stores: ImportStores,
  activity: ActivityRecorder,
  at: string,
): WrittenBoard {
  const boardId = stores.boards.insert(plan.boardName, at);
  const laneIds = plan.lanes.map((lane) => stores.lanes.insert(boardId, lane.name, lane.wipLimit));
  const tagIds = plan.tags.map((tag) =>
    stores.tags.insert(boardId, tag.name, nameKey(tag.name), tag.color),
  );

  const bySourceId = outlines.map((_, index) => index);
  bySourceId.sort((a, b) => (outlines[a]?.sourceId ?? 0) - (outlines[b]?.sourceId ?? 0));
  const first = stores.boardImport.nextTicketId();
  const ticketIds: number[] = new Array(outlines.length);
  bySourceId.forEach((index, rank) => {
    ticketIds[index] = first + rank;
  });
  const written: WrittenBoard = {
    boardId,
    laneIds,
    tagIds,
    ticketIds,
    firstCommentIds: new Array(outlines.length).fill(0),
    firstReferenceIds: new Array(outlines.length).fill(0),
  };

  const unlinked: Array<[number, number]> = [];
  for (let start = 0; start < bySourceId.length; start += TICKETS_PER_BATCH) {
    const batch = bySourceId.slice(start, start + TICKETS_PER_BATCH);
    const inserted = stores.boardImport.insertTickets(
      boardId,
      batch.map((index) => {
        const { laneIndex, parentIndex } = outlines[index] as TicketOutline;
        return {
          row: planned.row(index),
          laneId: laneIds[laneIndex] as number,
          parentId: parentIndex === null ? null : (ticketIds[parentIndex] as number),
        };
      }),
    );
    if (inserted.ids[0] !== undefined && inserted.ids[0] !== ticketIds[batch[0] as number]) {
      throw new Error("board import: ticket ids out of step");
    }
    unlinked.push(...inserted.unlinked);
  }
  stores.boardImport.setParents(unlinked);

  for (let start = 0; start < outlines.length; start += TICKETS_PER_BATCH) {
    const end = Math.min(start + TICKETS_PER_BATCH, outlines.length);
    const batch: Array<[number, TicketRest]> = [];
    for (let index = start; index < end; index++) batch.push([index, planned.rest(index)]);
    writeTicketRows(batch, outlines, written, stores, activity);
  }

  const blockers: Array<[number, number]> = [];
  const related: Array<[number, number]> = [];
  outlines.forEach((ticket, index) => {
    const id = ticketIds[index] as number;
    for (const blocker of ticket.blockers?.keys() ?? []) {
      blockers.push([id, ticketIds[blocker] as number]);
    }
    for (const other of ticket.relatedIndexes ?? []) related.push([id, ticketIds[other] as number]);
  });
  stores.boardImport.insertBlockers(blockers);
  stores.boardImport.insertRelated(related);
  for (const template of plan.templates) stores.templates.insert(boardId, template);
  return written;
}

/** The rows of a batch of tickets that belong to one ticket: comments, tags, references, ... */
function writeTicketRows(
  batch: ReadonlyArray<readonly [number, TicketRest]>,
  outlines: readonly TicketOutline[],
  written: WrittenBoard,
  stores: ImportStores,
  activity: ActivityRecorder,
): void {
  const { boardId, ticketIds, tagIds } = written;
  const comments: ImportedComment[] = [];
  for (const [index, ticket] of batch) {
    const ticketId = ticketIds[index] as number;
    for (const { bodyMarkdown, bodyHtml, createdAt } of ticket.comments) {
      comments.push({ ticketId, bodyMarkdown, bodyHtml, createdAt });
    }
  }
  const commentIds = stores.boardImport.insertComments(comments);

  const tagLinks: TagReasonWrite[] = [];
  const references: ImportedReference[] = [];
  const events: ImportedEvent[] = [];
  let commentAt = 0;
  for (const [index, ticket] of batch) {
    const id = ticketIds[index] as number;
    const firstComment = commentIds[commentAt] ?? 0;
    written.firstCommentIds[index] = firstComment;
    commentAt += ticket.comments.length;
    // Object literals, not spreads: spreading and overriding is ~10x slower per row in V8.
    for (const [tagIndex, reason] of ticket.tags) {
      tagLinks.push({
        ticketId: id,
        tagId: tagIds[tagIndex] as number,
        reason: reason.reason,
        details: reason.details,
        reasonCommentId: newCommentId(ticket, firstComment, reason.reasonCommentId),
        attachedAt: reason.attachedAt,
        updatedAt: reason.updatedAt,
      });
    }
    for (const { kind, fields, createdAt, updatedAt } of ticket.references) {
      const searchText = referenceSearchText(kind, fields);
      references.push({ ticketId: id, kind, fields, searchText, createdAt, updatedAt });
    }
    for (const event of ticket.events) events.push({ ticketId: id, event });
  }
  stores.boardImport.insertTagLinks(tagLinks);
  const referenceIds = stores.boardImport.insertReferences(references);
  let referenceAt = 0;
  for (const [index, ticket] of batch) {
    written.firstReferenceIds[index] = referenceIds[referenceAt] ?? 0;
    referenceAt += ticket.references.length;
  }
  stores.boardImport.insertEvents(events);
  stores.asks.insertMany(
    batch.flatMap(([index, ticket]) =>
      ticket.asks.map((ask) => ({ ...ask, ticketId: ticketIds[index] as number })),
    ),
  );
  activity.recordAll(
    batch.map(([index]) => {
      const { sourceId, title } = outlines[index] as TicketOutline;
      return {
        boardId,
        ticketId: ticketIds[index] as number,
        action: "ticket_created",
        message: "Ticket imported",
        details: { importedFromTicketId: sourceId, title },
      };
    }),
  );
}

/** The new id of a ticket's comment given by its id in the document. */
function newCommentId(
  ticket: TicketRest,
  firstComment: number,
  sourceId: number | null,
): number | null {
  if (sourceId === null) return null;
  const position = ticket.comments.findIndex((comment) => comment.sourceId === sourceId);
  return position === -1 ? null : firstComment + position;
}
