import type {
  BoardShell,
  Comment,
  Tag,
  Ticket,
  TicketExternalReference,
  TicketRelation,
} from "../model.js";
import type { PlannedTicket, TicketOutline, WrittenBoard } from "./import-plan.js";

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
 * answers (test/api/board-import-roundtrip.test.ts compares every field). Each ticket's plan is read from
 * the scratch file (`plannedTicket`) as the answer is written; what its relation lists show of
 * other tickets comes from the outlines. Board, lanes and tags come from the database (`shell`),
 * so lane and tag orders are the stored ones. An import creates no remote tracking, so `remote`
 * is null.
 */
export function importedTickets(
  outlines: readonly TicketOutline[],
  plannedTicket: (index: number) => PlannedTicket,
  written: WrittenBoard,
  shell: BoardShell,
): MadeOnRead<Ticket> {
  const { board } = shell;
  const ids = written.ticketIds;
  const idOf = (index: number) => ids[index] as number;
  const laneIdOf = (index: number) => written.laneIds[outlines[index]?.laneIndex ?? -1] as number;
  const laneRank = new Map(shell.lanes.map((lane, rank) => [lane.id, rank]));
  const tagRank = new Map(shell.tags.map((tag, rank) => [tag.id, rank]));
  const tagById = new Map(shell.tags.map((tag) => [tag.id, tag]));
  const refs = (id: number) => ({ ref: `${board.name}#${id}`, shortRef: `#${id}` });

  const relationOf = (index: number): TicketRelation => {
    const ticket = outlines[index] as TicketOutline;
    return {
      id: idOf(index),
      title: ticket.title,
      laneId: laneIdOf(index),
      isResolved: ticket.isResolved,
      isCompleted: ticket.isResolved,
      priority: ticket.priority,
      ...refs(idOf(index)),
    };
  };

  // Links seen from the other end, as indexes: children, blocked tickets, related (symmetric).
  const children = new Map<number, number[]>();
  const blocks = new Map<number, number[]>();
  const related = new Map<number, Set<number>>();
  const push = (map: Map<number, number[]>, key: number, value: number) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  const link = (a: number, b: number) => {
    const set = related.get(a);
    if (set) set.add(b);
    else related.set(a, new Set([b]));
  };
  outlines.forEach((ticket, index) => {
    if (ticket.parentIndex !== null) push(children, ticket.parentIndex, index);
    for (const blocker of ticket.blockers?.keys() ?? []) push(blocks, blocker, index);
    for (const other of ticket.relatedIndexes ?? []) {
      link(index, other);
      link(other, index);
    }
  });
  const relationsOf = (indexes: Iterable<number>) => [...indexes].map(relationOf).sort(byPriority);
  const idsOf = (indexes: Iterable<number>) => [...indexes].map(idOf).sort(ascending);

  const ticketOf = (ticket: PlannedTicket): Ticket => {
    const id = idOf(ticket.index);
    const { row } = ticket;
    const tags = [...ticket.tags.keys()]
      .map((tagIndex) => tagById.get(written.tagIds[tagIndex] as number) as Tag)
      .sort((a, b) => (tagRank.get(a.id) ?? 0) - (tagRank.get(b.id) ?? 0));
    const firstComment = written.firstCommentIds[ticket.index] ?? 0;
    const comments = ticket.comments
      .map((comment, position): Comment => {
        const commentId = firstComment + position;
        return {
          id: commentId,
          ticketId: id,
          bodyMarkdown: comment.bodyMarkdown,
          bodyHtml: comment.bodyHtml,
          createdAt: comment.createdAt,
          sync: {
            commentId,
            status: "local_only",
            remoteCommentId: null,
            pushedAt: null,
            lastError: null,
            createdAt: comment.createdAt,
            updatedAt: comment.createdAt,
          },
        };
      })
      .sort((a, b) => compareText(b.createdAt, a.createdAt) || b.id - a.id);
    const firstReference = written.firstReferenceIds[ticket.index] ?? 0;
    const externalReferences = ticket.references
      .map(
        (reference, position): TicketExternalReference => ({
          id: firstReference + position,
          ticketId: id,
          kind: reference.kind,
          ...reference.fields,
          createdAt: reference.createdAt,
          updatedAt: reference.updatedAt,
        }),
      )
      .sort((a, b) => compareText(a.kind, b.kind) || a.id - b.id);
    const childList = children.get(ticket.index) ?? [];
    const relatedList = related.get(ticket.index) ?? [];
    return {
      id,
      boardId: board.id,
      laneId: laneIdOf(ticket.index),
      parentTicketId: ticket.parentIndex === null ? null : idOf(ticket.parentIndex),
      hasChildren: childList.length > 0,
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
      relatedIds: idsOf(relatedList),
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
      parent: ticket.parentIndex === null ? null : relationOf(ticket.parentIndex),
      children: relationsOf(childList),
      blockers: relationsOf(ticket.blockers.keys()),
      blockedBy: relationsOf(blocks.get(ticket.index) ?? []),
      related: relationsOf(relatedList),
      remote: null,
    };
  };

  // Board order (docs/api.md, "Ordering"): lane position, active before archived, position, id.
  const rank = (index: number) => laneRank.get(laneIdOf(index)) ?? 0;
  const order = outlines.map((_, index) => index);
  order.sort((a, b) => {
    const x = outlines[a] as TicketOutline;
    const y = outlines[b] as TicketOutline;
    return (
      rank(a) - rank(b) ||
      Number(x.isArchived) - Number(y.isArchived) ||
      x.position - y.position ||
      idOf(a) - idOf(b)
    );
  });
  return new MadeOnRead(order.length, (position) =>
    ticketOf(plannedTicket(order[position] as number)),
  );
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
