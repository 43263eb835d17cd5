import { WIP_LIMIT_MAX, WIP_LIMIT_MIN } from "../../model/limits.js";
import type {
  ImportedComment,
  ImportedEvent,
  ImportedReference,
} from "../../storage/board-export.js";
import type { Stores } from "../../storage/index.js";
import type { TagReasonWrite } from "../../storage/tag-reasons.js";
import type { ActivityRecorder } from "../activity.js";
import { cleanCommentMarkdown } from "../annotations/comments.js";
import {
  cleanExternalReference,
  type ExternalReferenceInput,
  referenceSearchText,
} from "../annotations/external-references.js";
import { cleanReason } from "../annotations/tag-reasons.js";
import { cleanTicketEvent, type TicketEventInput } from "../annotations/ticket-events.js";
import { type ImportAsk, planImportedAsk } from "../asks/ask-transfer.js";
import type { BoardService } from "../boards/boards.js";
import { isWipLimit } from "../boards/lanes.js";
import { DEFAULT_TAG_COLOR } from "../boards/tags.js";
import { now } from "../clock.js";
import { InvalidInput } from "../errors.js";
import { markdownRenderPool } from "../markdown-pool.js";
import type { BoardShell, Ticket } from "../model.js";
import { cleanName, nameKey, TITLE_MAX } from "../names.js";
import type { SearchIndexer } from "../search-indexer.js";
import { ticketSearchText } from "../search-text.js";
import { type ImportTemplate, planTemplates } from "../templates/template-import.js";
import { findBlockerCycle } from "../tickets/blocker-cycles.js";
import { checklistOf } from "../tickets/checklists.js";
import { cleanNotBefore } from "../tickets/not-before.js";
import type { Transact } from "../transaction.js";
import { importedTickets, type MadeOnRead } from "./import-detail.js";
import type { ImportPlan, PlannedReason, PlannedTicket, WrittenBoard } from "./import-plan.js";

// The shapes an import accepts (docs/api.md, "Export and import"): a tack export, or the same shape
// from another implementation of the interface. Types and ranges are checked by the route's schema
// already; this module checks what a schema cannot: trimmed names, references between the
// document's own ids, the relation rules, and it names the offending element
// (`tickets[4].parentTicketId`).

export interface ImportTag {
  id?: number;
  name: string;
  color?: string;
}

export interface ImportTicket {
  id: number;
  laneId: number;
  title: string;
  parentTicketId?: number | null;
  bodyMarkdown?: string;
  isResolved?: boolean;
  isCompleted?: boolean;
  isArchived?: boolean;
  priority?: number;
  position?: number;
  createdAt?: string;
  updatedAt?: string;
  notBefore?: string | null;
  tags?: Array<{ id?: number; name?: string }>;
  comments?: Array<{ id?: number; bodyMarkdown: string; createdAt?: string }>;
  blockerIds?: number[] | null;
  relatedIds?: number[] | null;
  externalReferences?: Array<
    ExternalReferenceInput & { kind: string; createdAt?: string; updatedAt?: string }
  >;
  tagReasons?: Array<{
    tagId: number;
    reason?: string | null;
    details?: Record<string, unknown> | null;
    reasonCommentId?: number | null;
    attachedAt?: string | null;
    updatedAt?: string | null;
  }>;
  events?: Array<TicketEventInput & { createdAt?: string }>;
  asks?: ImportAsk[];
}

export interface ImportDocument {
  format?: string;
  version?: number;
  board: { name: string };
  lanes: Array<{ id: number; name: string; wipLimit?: unknown }>;
  tags?: ImportTag[];
  tickets?: ImportTicket[];
  templates?: ImportTemplate[];
}

/** The import's answer: the new board, its tickets made as the answer is written. */
export interface ImportedBoard extends BoardShell {
  tickets: MadeOnRead<Ticket>;
}

/**
 * `POST /api/boards/import`: always a new board, in one transaction; any violation is a 400
 * naming the element and nothing is created. Ids are remapped; positions, timestamps, comment
 * and event order, tag reasons, references and events are kept (docs/export-format.md).
 */
export function boardImporter(
  stores: Pick<Stores, "boards" | "lanes" | "tags" | "boardImport" | "asks" | "templates">,
  deps: {
    boards: Pick<BoardService, "shell">;
    activity: ActivityRecorder;
    searchIndex: Pick<SearchIndexer, "schedule">;
  },
  transact: Transact,
) {
  return {
    async import(document: ImportDocument): Promise<ImportedBoard> {
      const at = now();
      const plan = planImport(document, at);
      // Rendering is the costly part of an import, so it comes only once the document is known
      // to be valid, and outside the transaction (other requests are served meanwhile).
      await renderBodies(plan.tickets);
      const written = transact((changes) => {
        const result = write(plan, stores, deps.activity, at);
        changes.touched(result.boardId);
        return result;
      });
      // The new tickets went in as pending (searches scan them): index them in the background.
      void deps.searchIndex.schedule();
      // The tickets come from the plan and the new ids: reading thousands of full tickets back
      // cost as much as writing them. Board, lanes and tags are read (they fix the orders).
      const shell = deps.boards.shell(written.boardId);
      return { ...shell, tickets: importedTickets(plan.tickets, written, shell) };
    },
  };
}

export type BoardImporter = ReturnType<typeof boardImporter>;

/** Checks the whole document before anything is written; throws InvalidInput on the first problem. */
export function planImport(document: ImportDocument, at: string): ImportPlan {
  const boardName = cleanName(document.board.name, "board.name");
  const laneIndexById = indexById(document.lanes, "lanes");
  const lanes = document.lanes.map((lane, index) => {
    const name = cleanName(lane.name, `lanes[${index}].name`);
    const wipLimit = lane.wipLimit ?? null;
    if (!isWipLimit(wipLimit)) {
      throw new InvalidInput(
        `lanes[${index}].wipLimit (lane "${name}") must be an integer from ${WIP_LIMIT_MIN} to ${WIP_LIMIT_MAX} or null`,
      );
    }
    return { name, wipLimit };
  });

  const tagList = document.tags ?? [];
  const tagIndexById = indexById(tagList, "tags");
  const tagIndexByKey = new Map<string, number>();
  const tags = tagList.map((tag, index) => {
    const name = cleanName(tag.name, `tags[${index}].name`);
    const clash = tagIndexByKey.get(nameKey(name));
    if (clash !== undefined) {
      throw new InvalidInput(`tags[${index}].name repeats the name of tags[${clash}]`);
    }
    tagIndexByKey.set(nameKey(name), index);
    return { name, color: tag.color ?? DEFAULT_TAG_COLOR };
  });

  const source = document.tickets ?? [];
  const ticketIndexById = indexById(source, "tickets");
  const nextPosition = freePositions(source, laneIndexById);

  const tickets = source.map((ticket, index): PlannedTicket => {
    const field = (name: string) => `tickets[${index}].${name}`;
    const laneIndex = laneIndexById.get(ticket.laneId);
    if (laneIndex === undefined) {
      throw new InvalidInput(`${field("laneId")} is not a lane of this board`);
    }
    const title = cleanName(ticket.title, field("title"), TITLE_MAX);
    const bodyMarkdown = ticket.bodyMarkdown ?? "";
    const createdAt = ticket.createdAt ?? at;

    let parentIndex: number | null = null;
    if (ticket.parentTicketId != null) {
      if (ticket.parentTicketId === ticket.id) {
        throw new InvalidInput(`${field("parentTicketId")}: a ticket cannot be its own parent`);
      }
      parentIndex = ticketIndexById.get(ticket.parentTicketId) ?? null;
      if (parentIndex === null) {
        throw new InvalidInput(`${field("parentTicketId")} is not a ticket of this board`);
      }
    }

    const commentList = ticket.comments ?? [];
    indexById(commentList, field("comments"));
    const comments = commentList.map((comment, position) => ({
      sourceId: comment.id,
      bodyMarkdown: cleanCommentMarkdown(
        comment.bodyMarkdown,
        field(`comments[${position}].bodyMarkdown`),
      ),
      bodyHtml: "", // rendered once the whole document is known to be valid (renderBodies)
      createdAt: comment.createdAt ?? at,
    }));
    const commentIds = new Set(comments.map((comment) => comment.sourceId));

    const attached = new Map<number, PlannedReason>();
    (ticket.tags ?? []).forEach((tag, position) => {
      const tagIndex =
        tag.name !== undefined
          ? tagIndexByKey.get(nameKey(tag.name))
          : tag.id !== undefined
            ? tagIndexById.get(tag.id)
            : undefined;
      if (tagIndex === undefined) {
        throw new InvalidInput(`${field(`tags[${position}]`)} is not a tag of this board`);
      }
      attached.set(tagIndex, { ...NO_REASON, attachedAt: at });
    });
    (ticket.tagReasons ?? []).forEach((entry, position) => {
      const name = (key: string) => field(`tagReasons[${position}].${key}`);
      const tagIndex = tagIndexById.get(entry.tagId);
      if (tagIndex === undefined) {
        throw new InvalidInput(`${name("tagId")} is not a tag of this board`);
      }
      const reasonCommentId = entry.reasonCommentId ?? null;
      if (reasonCommentId !== null && !commentIds.has(reasonCommentId)) {
        throw new InvalidInput(`${name("reasonCommentId")} is not a comment of this ticket`);
      }
      attached.set(tagIndex, {
        reason: cleanReason(entry.reason, name("reason")),
        details: entry.details ?? null,
        reasonCommentId,
        attachedAt: entry.attachedAt === undefined ? at : entry.attachedAt,
        updatedAt: entry.updatedAt ?? null,
      });
    });

    const kinds = new Map<string, number>();
    const references = (ticket.externalReferences ?? []).map((reference, position) => {
      const prefix = field(`externalReferences[${position}].`);
      const clash = kinds.get(reference.kind);
      if (clash !== undefined) {
        throw new InvalidInput(`${prefix}kind repeats the kind of externalReferences[${clash}]`);
      }
      kinds.set(reference.kind, position);
      const referenceCreatedAt = reference.createdAt ?? at;
      return {
        kind: reference.kind,
        fields: cleanExternalReference(reference, prefix),
        createdAt: referenceCreatedAt,
        updatedAt: reference.updatedAt ?? referenceCreatedAt,
      };
    });

    const events = (ticket.events ?? []).map((event, position) => ({
      ...cleanTicketEvent(event, field(`events[${position}].`)),
      createdAt: event.createdAt ?? at,
    }));

    return {
      index,
      sourceId: ticket.id,
      laneIndex,
      parentIndex,
      row: {
        title,
        bodyMarkdown,
        bodyHtml: "", // renderBodies
        searchText: ticketSearchText(title, bodyMarkdown),
        isResolved: ticket.isResolved ?? ticket.isCompleted ?? false,
        isArchived: ticket.isArchived ?? false,
        priority: ticket.priority ?? 2,
        position: ticket.position ?? nextPosition(laneIndex),
        createdAt,
        updatedAt: ticket.updatedAt ?? createdAt,
        notBefore: cleanNotBefore(ticket.notBefore ?? null, field("notBefore")),
        checklist: checklistOf(bodyMarkdown),
      },
      tags: attached,
      // Lists are newest first: inserting from the end keeps their order, ties included.
      comments: comments.reverse(),
      blockers: linkedTickets(ticket, "blockerIds", index, ticketIndexById),
      relatedIndexes: [...linkedTickets(ticket, "relatedIds", index, ticketIndexById).keys()],
      references,
      events: events.reverse(),
      asks: (ticket.asks ?? []).map((ask, position) =>
        planImportedAsk(ask, field(`asks[${position}]`), at),
      ),
    };
  });

  for (const ticket of tickets) {
    if (ticket.parentIndex !== null && tickets[ticket.parentIndex]?.parentIndex !== null) {
      throw new InvalidInput(
        `tickets[${ticket.index}].parentTicketId is a child ticket; parents cannot be nested`,
      );
    }
  }
  assertNoBlockerCycle(tickets);
  const laneNames = new Set(lanes.map((lane) => lane.name));
  const templates = planTemplates(document.templates ?? [], laneNames, at);

  return { boardName, lanes, tags, tickets, templates };
}

/** Fills in the HTML of every ticket and comment body of a checked plan. */
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

const NO_REASON: PlannedReason = {
  reason: null,
  details: null,
  reasonCommentId: null,
  attachedAt: null,
  updatedAt: null,
};

/** Maps each element's id to its index; a repeated id is a 400 naming both elements. */
function indexById(items: ReadonlyArray<{ id?: number }>, field: string): Map<number, number> {
  const map = new Map<number, number>();
  items.forEach((item, index) => {
    if (item.id === undefined) return;
    const first = map.get(item.id);
    if (first !== undefined) {
      throw new InvalidInput(`${field}[${index}].id repeats the id of ${field}[${first}]`);
    }
    map.set(item.id, index);
  });
  return map;
}

/** Positions for tickets that come without one: after the highest given in their lane. */
function freePositions(tickets: readonly ImportTicket[], lanes: Map<number, number>) {
  const next = new Map<number, number>();
  for (const ticket of tickets) {
    const lane = lanes.get(ticket.laneId);
    if (lane === undefined || ticket.position === undefined) continue;
    next.set(lane, Math.max(next.get(lane) ?? 0, ticket.position + 1));
  }
  return (laneIndex: number): number => {
    const position = next.get(laneIndex) ?? 0;
    next.set(laneIndex, position + 1);
    return position;
  };
}

/**
 * Blocker or related ids as indexes into the document's tickets (same board, not itself,
 * duplicates collapsed), each mapped to its first position in the list for messages.
 */
function linkedTickets(
  ticket: ImportTicket,
  key: "blockerIds" | "relatedIds",
  index: number,
  ticketIndexById: Map<number, number>,
): Map<number, number> {
  const result = new Map<number, number>();
  (ticket[key] ?? []).forEach((id, position) => {
    const field = `tickets[${index}].${key}[${position}]`;
    if (id === ticket.id) {
      throw new InvalidInput(
        key === "blockerIds"
          ? `${field}: a ticket cannot block itself`
          : `${field}: a ticket cannot be related to itself`,
      );
    }
    const other = ticketIndexById.get(id);
    if (other === undefined) throw new InvalidInput(`${field} is not a ticket of this board`);
    if (!result.has(other)) result.set(other, position);
  });
  return result;
}

/**
 * Rejects blocker cycles of any length (docs/api.md, "Rules clients can rely on"), naming the link
 * that closes one (tickets/blocker-cycles.ts).
 */
function assertNoBlockerCycle(tickets: readonly PlannedTicket[]): void {
  const edges = tickets.map((ticket) => [...ticket.blockers.keys()]);
  const cycle = findBlockerCycle(edges);
  if (cycle === undefined) return;
  const ticket = tickets[cycle.node] as PlannedTicket;
  const position = ticket.blockers.get(edges[cycle.node]?.[cycle.edge] as number);
  throw new InvalidInput(
    `tickets[${ticket.index}].blockerIds[${position}]: blocker would create a cycle`,
  );
}

/**
 * Writes a checked plan; returns the new ids. Runs inside the import's transaction. Rows go to
 * the database table by table, parents before the rows that reference them, each table in a few
 * multi-row statements (storage/board-export.ts); the ids are those a row-by-row insert in the
 * same order would give.
 */
function write(
  plan: ImportPlan,
  stores: Parameters<typeof boardImporter>[0],
  activity: ActivityRecorder,
  at: string,
): WrittenBoard {
  const boardId = stores.boards.insert(plan.boardName, at);
  const laneIds = plan.lanes.map((lane) => stores.lanes.insert(boardId, lane.name, lane.wipLimit));
  const tagIds = plan.tags.map((tag) =>
    stores.tags.insert(boardId, tag.name, nameKey(tag.name), tag.color),
  );

  // New ids follow the order of the document's ids, so id tie-breaks in orderings still hold.
  const bySourceId = [...plan.tickets].sort((a, b) => a.sourceId - b.sourceId);
  const rank: number[] = new Array(plan.tickets.length);
  bySourceId.forEach((ticket, position) => {
    rank[ticket.index] = position;
  });
  const inserted = stores.boardImport.insertTickets(
    boardId,
    bySourceId.map((ticket) => ({
      row: ticket.row,
      laneId: laneIds[ticket.laneIndex] as number,
      parentIndex: ticket.parentIndex === null ? null : (rank[ticket.parentIndex] as number),
    })),
  );
  const ids = plan.tickets.map((ticket) => inserted[rank[ticket.index] as number] as number);

  const comments: ImportedComment[] = [];
  for (const ticket of plan.tickets) {
    const ticketId = ids[ticket.index] as number;
    for (const { bodyMarkdown, bodyHtml, createdAt } of ticket.comments) {
      comments.push({ ticketId, bodyMarkdown, bodyHtml, createdAt });
    }
  }
  const insertedComments = stores.boardImport.insertComments(comments);
  const commentIds = perTicket(insertedComments, plan.tickets, (ticket) => ticket.comments);

  const tagLinks: TagReasonWrite[] = [];
  const blockers: Array<[number, number]> = [];
  const related: Array<[number, number]> = [];
  const references: ImportedReference[] = [];
  const events: ImportedEvent[] = [];
  for (const ticket of plan.tickets) {
    const id = ids[ticket.index] as number;
    // Object literals, not spreads: spreading and overriding is ~10x slower per row in V8.
    for (const [tagIndex, reason] of ticket.tags) {
      tagLinks.push({
        ticketId: id,
        tagId: tagIds[tagIndex] as number,
        reason: reason.reason,
        details: reason.details,
        reasonCommentId: newCommentId(ticket, commentIds, reason.reasonCommentId),
        attachedAt: reason.attachedAt,
        updatedAt: reason.updatedAt,
      });
    }
    for (const blocker of ticket.blockers.keys()) blockers.push([id, ids[blocker] as number]);
    for (const other of ticket.relatedIndexes) related.push([id, ids[other] as number]);
    for (const { kind, fields, createdAt, updatedAt } of ticket.references) {
      const searchText = referenceSearchText(kind, fields);
      references.push({ ticketId: id, kind, fields, searchText, createdAt, updatedAt });
    }
    for (const event of ticket.events) events.push({ ticketId: id, event });
  }
  stores.boardImport.insertTagLinks(tagLinks);
  stores.boardImport.insertBlockers(blockers);
  stores.boardImport.insertRelated(related);
  const insertedReferences = stores.boardImport.insertReferences(references);
  const referenceIds = perTicket(insertedReferences, plan.tickets, (ticket) => ticket.references);
  stores.boardImport.insertEvents(events);
  stores.asks.insertMany(
    plan.tickets.flatMap((ticket) =>
      ticket.asks.map((ask) => ({ ...ask, ticketId: ids[ticket.index] as number })),
    ),
  );
  for (const template of plan.templates) stores.templates.insert(boardId, template);
  activity.recordAll(
    plan.tickets.map((ticket) => ({
      boardId,
      ticketId: ids[ticket.index] as number,
      action: "ticket_created",
      message: "Ticket imported",
      details: { importedFromTicketId: ticket.sourceId, title: ticket.row.title },
    })),
  );
  return { boardId, laneIds, tagIds, ticketIds: ids, commentIds, referenceIds };
}

/** The new id of a ticket's comment given by its id in the document. */
function newCommentId(
  ticket: PlannedTicket,
  commentIds: readonly number[][],
  sourceId: number | null,
): number | null {
  if (sourceId === null) return null;
  for (let position = 0; position < ticket.comments.length; position++) {
    if (ticket.comments[position]?.sourceId === sourceId) {
      return commentIds[ticket.index]?.[position] ?? null;
    }
  }
  return null;
}

/** Ids of rows listed ticket after ticket, split back into one list per ticket. */
function perTicket(
  ids: readonly number[],
  tickets: readonly PlannedTicket[],
  rowsOf: (ticket: PlannedTicket) => readonly unknown[],
): number[][] {
  let start = 0;
  return tickets.map((ticket) => {
    const end = start + rowsOf(ticket).length;
    const part = ids.slice(start, end);
    start = end;
    return part;
  });
}
