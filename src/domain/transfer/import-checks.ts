import { WIP_LIMIT_MAX, WIP_LIMIT_MIN } from "../../model/limits.js";
import { cleanCommentMarkdown } from "../annotations/comments.js";
import { cleanExternalReference } from "../annotations/external-references.js";
import { cleanReason } from "../annotations/tag-reasons.js";
import { cleanTicketEvent } from "../annotations/ticket-events.js";
import { planImportedAsk } from "../asks/ask-transfer.js";
import { isWipLimit } from "../boards/lanes.js";
import { DEFAULT_TAG_COLOR } from "../boards/tags.js";
import { InvalidInput } from "../errors.js";
import { cleanName, nameKey, TITLE_MAX } from "../names.js";
import { ticketSearchText } from "../search-text.js";
import { findBlockerCycle } from "../tickets/blocker-cycles.js";
import { checklistOf } from "../tickets/checklists.js";
import { cleanNotBefore } from "../tickets/not-before.js";
import type {
  ImportHead,
  ImportTicket,
  PlannedReason,
  PlannedTicket,
  TicketOutline,
} from "./import-plan.js";

// The checks of a board import (docs/api.md, "Export and import") that a schema cannot make:
// trimmed names, references between the document's own ids, the relation rules, each naming the
// offending element (`tickets[4].parentTicketId`). They run in the order of the document, as a
// check of the whole document would: board, lanes, tags, ticket ids, each ticket, then the rules
// across tickets (nesting, blocker cycles), then templates. Any violation throws InvalidInput
// before anything is written.

/** The board, lanes and tags checked, with what tickets are checked against. */
export function checkHead(head: ImportHead) {
  const boardName = cleanName(head.board.name, "board.name");
  const laneIndexById = indexById(head.lanes, "lanes");
  const lanes = head.lanes.map((lane, index) => {
    const name = cleanName(lane.name, `lanes[${index}].name`);
    const wipLimit = lane.wipLimit ?? null;
    if (!isWipLimit(wipLimit)) {
      throw new InvalidInput(
        `lanes[${index}].wipLimit (lane "${name}") must be an integer from ${WIP_LIMIT_MIN} to ${WIP_LIMIT_MAX} or null`,
      );
    }
    return { name, wipLimit };
  });

  const tagList = head.tags ?? [];
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
  return { boardName, lanes, tags, laneIndexById, tagIndexById, tagIndexByKey };
}

export type CheckedHead = ReturnType<typeof checkHead>;

/**
 * What the import notes of each ticket as it reads the document, before the rest is known: its
 * id (a repeated id is reported once the board, lanes and tags have been checked, as a check of
 * the whole document reports it), lane and position (for the positions of tickets that come
 * without one).
 */
export class TicketIds {
  readonly indexById = new Map<number, number>();
  private readonly laneIds: number[] = [];
  private readonly positions: Array<number | undefined> = [];
  private repeated: string | null = null;

  get count(): number {
    return this.laneIds.length;
  }

  add(ticket: ImportTicket): void {
    const index = this.laneIds.length;
    this.laneIds.push(ticket.laneId);
    this.positions.push(ticket.position);
    const first = this.indexById.get(ticket.id);
    if (first === undefined) this.indexById.set(ticket.id, index);
    else this.repeated ??= `tickets[${index}].id repeats the id of tickets[${first}]`;
  }

  assertUnique(): void {
    if (this.repeated !== null) throw new InvalidInput(this.repeated);
  }

  /** Positions for tickets that come without one: after the highest given in their lane. */
  freePositions(lanes: Map<number, number>): (laneIndex: number) => number {
    const next = new Map<number, number>();
    this.laneIds.forEach((laneId, index) => {
      const lane = lanes.get(laneId);
      const position = this.positions[index];
      if (lane === undefined || position === undefined) return;
      next.set(lane, Math.max(next.get(lane) ?? 0, position + 1));
    });
    return (laneIndex: number): number => {
      const position = next.get(laneIndex) ?? 0;
      next.set(laneIndex, position + 1);
      return position;
    };
  }
}

/**
 * Checks one ticket against the board, lanes, tags and the ids of every ticket, and plans it.
 * Bodies are left unrendered (`bodyHtml: ""`), rendered once their batch is checked. Call in
 * document order: tickets without a position take the next free one of their lane.
 */
export function ticketChecker(head: CheckedHead, ids: TicketIds, at: string) {
  const { laneIndexById, tagIndexById, tagIndexByKey } = head;
  const ticketIndexById = ids.indexById;
  const nextPosition = ids.freePositions(laneIndexById);

  return (ticket: ImportTicket, index: number): PlannedTicket => {
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
      bodyHtml: "", // rendered once the batch is known to be valid
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
        bodyHtml: "", // rendered once the batch is known to be valid
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
  };
}

/** What the import keeps in memory of a planned ticket (import-plan.ts). */
export function outlineOf(ticket: PlannedTicket): TicketOutline {
  const { row } = ticket;
  return {
    sourceId: ticket.sourceId,
    laneIndex: ticket.laneIndex,
    parentIndex: ticket.parentIndex,
    title: row.title,
    isResolved: row.isResolved,
    isArchived: row.isArchived,
    priority: row.priority,
    position: row.position,
    blockers: ticket.blockers.size > 0 ? ticket.blockers : null,
    relatedIndexes: ticket.relatedIndexes.length > 0 ? ticket.relatedIndexes : null,
  };
}

/** The rules across tickets: parents are not nested, blockers form no cycle. */
export function checkAcrossTickets(tickets: readonly TicketOutline[]): void {
  tickets.forEach((ticket, index) => {
    if (ticket.parentIndex !== null && tickets[ticket.parentIndex]?.parentIndex !== null) {
      throw new InvalidInput(
        `tickets[${index}].parentTicketId is a child ticket; parents cannot be nested`,
      );
    }
  });
  assertNoBlockerCycle(tickets);
}

export const NO_REASON: PlannedReason = {
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
function assertNoBlockerCycle(tickets: readonly TicketOutline[]): void {
  const edges = tickets.map((ticket) => (ticket.blockers ? [...ticket.blockers.keys()] : []));
  const cycle = findBlockerCycle(edges);
  if (cycle === undefined) return;
  const blockers = tickets[cycle.node]?.blockers;
  const position = blockers?.get(edges[cycle.node]?.[cycle.edge] as number);
  throw new InvalidInput(
    `tickets[${cycle.node}].blockerIds[${position}]: blocker would create a cycle`,
  );
}
