import type {
  BoardShell,
  Comment,
  Tag,
  Ticket,
  TicketExternalReference,
  TicketRelation,
} from "../model.js";
import type { PlannedTicket, WrittenBoard } from "./import-plan.js";

// Orders of the read side (domain/tickets/ticket-views.ts and the storage queries it runs). SQL
// compares text byte-wise; kinds are ASCII (schema pattern) and timestamps are date-times
// (no characters beyond U+FFFF), where JavaScript's comparison gives the same order.
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const ascending = (a: number, b: number) => a - b;
/** docs/api.md, "Ordering": relation lists by priority (highest first), then id. */
const byPriority = (a: TicketRelation, b: TicketRelation) => b.priority - a.priority || a.id - b.id;

/**
 * The full Tickets of a board the import has just written, in board order, built from the checked
 * plan and the new ids instead of reading them back: the same values GET /api/tickets/{id}
 * answers (test/api/export-import.test.ts compares every field). Board, lanes and tags come from
 * the database (`shell`), so lane and tag orders are the stored ones. An import creates no
 * remote tracking, so `remote` is null.
 */
export function importedTickets(
  planned: readonly PlannedTicket[],
  written: WrittenBoard,
  shell: BoardShell,
): MadeOnRead<Ticket> {
  const { board } = shell;
  const ids = written.ticketIds;
  const idOf = (index: number) => ids[index] as number;
  const laneRank = new Map(shell.lanes.map((lane, rank) => [lane.id, rank]));
  const tagRank = new Map(shell.tags.map((tag, rank) => [tag.id, rank]));
  const tagById = new Map(shell.tags.map((tag) => [tag.id, tag]));
  const refs = (id: number) => ({ ref: `${board.name}#${id}`, shortRef: `#${id}` });

  const relations: TicketRelation[] = planned.map((ticket) => ({
    id: idOf(ticket.index),
    title: ticket.row.title,
    laneId: written.laneIds[ticket.laneIndex] as number,
    isResolved: ticket.row.isResolved,
    isCompleted: ticket.row.isResolved,
    priority: ticket.row.priority,
    ...refs(idOf(ticket.index)),
  }));

  // Links seen from both ends, as indexes: children, blocked tickets, related (symmetric).
  const children = planned.map((): number[] => []);
  const blocks = planned.map((): number[] => []);
  const related = planned.map((ticket) => new Set(ticket.relatedIndexes));
  for (const ticket of planned) {
    if (ticket.parentIndex !== null) children[ticket.parentIndex]?.push(ticket.index);
    for (const blocker of ticket.blockers.keys()) blocks[blocker]?.push(ticket.index);
    for (const other of ticket.relatedIndexes) related[other]?.add(ticket.index);
  }
  const relationsOf = (indexes: Iterable<number>) =>
    [...indexes].map((index) => relations[index] as TicketRelation).sort(byPriority);
  const idsOf = (indexes: Iterable<number>) => [...indexes].map(idOf).sort(ascending);

  const ticketOf = (ticket: PlannedTicket): Ticket => {
    const id = idOf(ticket.index);
    const { row } = ticket;
    const tags = [...ticket.tags.keys()]
      .map((tagIndex) => tagById.get(written.tagIds[tagIndex] as number) as Tag)
      .sort((a, b) => (tagRank.get(a.id) ?? 0) - (tagRank.get(b.id) ?? 0));
    const commentIds = written.commentIds[ticket.index] ?? [];
    const comments = ticket.comments
      .map(
        (comment, position): Comment => ({
          id: commentIds[position] as number,
          ticketId: id,
          bodyMarkdown: comment.bodyMarkdown,
          bodyHtml: comment.bodyHtml,
          createdAt: comment.createdAt,
          sync: {
            commentId: commentIds[position] as number,
            status: "local_only",
            remoteCommentId: null,
            pushedAt: null,
            lastError: null,
            createdAt: comment.createdAt,
            updatedAt: comment.createdAt,
          },
        }),
      )
      .sort((a, b) => compareText(b.createdAt, a.createdAt) || b.id - a.id);
    const referenceIds = written.referenceIds[ticket.index] ?? [];
    const externalReferences = ticket.references
      .map(
        (reference, position): TicketExternalReference => ({
          id: referenceIds[position] as number,
          ticketId: id,
          kind: reference.kind,
          ...reference.fields,
          createdAt: reference.createdAt,
          updatedAt: reference.updatedAt,
        }),
      )
      .sort((a, b) => compareText(a.kind, b.kind) || a.id - b.id);
    return {
      id,
      boardId: board.id,
      laneId: written.laneIds[ticket.laneIndex] as number,
      parentTicketId: ticket.parentIndex === null ? null : idOf(ticket.parentIndex),
      hasChildren: (children[ticket.index]?.length ?? 0) > 0,
      title: row.title,
      isResolved: row.isResolved,
      isCompleted: row.isResolved,
      isArchived: row.isArchived,
      priority: row.priority,
      position: row.position,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      tags,
      blockerIds: idsOf(ticket.blockers.keys()),
      relatedIds: idsOf(related[ticket.index] ?? []),
      ...refs(id),
      externalReferences,
      // A new ticket: first version, never claimed (claims are not imported).
      version: 1,
      claim: null,
      notBefore: row.notBefore,
      // The document's asks that came in open (docs/api.md, "Asks").
      openAsks: ticket.asks.filter((ask) => ask.status === "open").length,
      checklist: row.checklist,
      bodyMarkdown: row.bodyMarkdown,
      bodyHtml: row.bodyHtml,
      comments,
      parent: ticket.parentIndex === null ? null : (relations[ticket.parentIndex] ?? null),
      children: relationsOf(children[ticket.index] ?? []),
      blockers: relationsOf(ticket.blockers.keys()),
      blockedBy: relationsOf(blocks[ticket.index] ?? []),
      related: relationsOf(related[ticket.index] ?? []),
      remote: null,
    };
  };

  // Board order (docs/api.md, "Ordering"): lane position, active before archived, position, id.
  const rank = (ticket: PlannedTicket) =>
    laneRank.get(written.laneIds[ticket.laneIndex] as number) ?? 0;
  const order = [...planned].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      Number(a.row.isArchived) - Number(b.row.isArchived) ||
      a.row.position - b.row.position ||
      idOf(a.index) - idOf(b.index),
  );
  return new MadeOnRead(order.length, (position) => ticketOf(order[position] as PlannedTicket));
}

/**
 * A list whose elements are made when read, one at a time: a streamed 20,000-ticket import
 * answer then never holds 20,000 Ticket objects (and their 50,000 comments) at once. Serialized
 * whole (JSON.stringify, e.g. an answer kept for an Idempotency-Key), it is an array (toJSON).
 */
export class MadeOnRead<T> implements Iterable<T> {
  constructor(
    readonly length: number,
    private readonly make: (index: number) => T,
  ) {}

  *[Symbol.iterator](): Iterator<T> {
    for (let index = 0; index < this.length; index++) yield this.make(index);
  }

  toJSON(): T[] {
    return Array.from(this);
  }
}
