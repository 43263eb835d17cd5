import type { Stores } from "../../storage/index.js";
import type { TicketRow } from "../../storage/tickets.js";
import { InvalidInput } from "../errors.js";

/** Ids in first-seen order without duplicates (docs/api.md, "Limits": duplicates are collapsed). */
export function uniqueIds(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}

/** The ticket whose links are being set: undefined while it is being created. */
interface Subject {
  boardId: number;
  id?: number;
}

/**
 * Rules of a ticket's links (docs/api.md, "Relations"): every linked ticket or tag
 * belongs to the ticket's board; no self links; parents one level deep; no blocker cycles.
 * Each check throws InvalidInput naming the offending array element, and returns the ids to
 * store (duplicates collapsed).
 */
export function ticketLinkRules(
  stores: Pick<Stores, "tickets" | "ticketTags" | "ticketRelations">,
) {
  /** Looks up `ids` and insists each is a ticket of the subject's board. */
  function ticketsOfBoard(subject: Subject, ids: readonly number[], field: string) {
    const rows = stores.tickets.rowsByIds(ids);
    ids.forEach((id, index) => {
      if (rows.get(id)?.boardId !== subject.boardId) {
        throw new InvalidInput(`${field}[${index}] is not a ticket of this board`);
      }
    });
    return rows;
  }

  function noSelf(subject: Subject, ids: readonly number[], field: string, message: string) {
    const index = subject.id === undefined ? -1 : ids.indexOf(subject.id);
    if (index >= 0) throw new InvalidInput(`${field}[${index}]: ${message}`);
  }

  return {
    tagIds(boardId: number, tagIds: readonly number[]): number[] {
      const known = stores.ticketTags.tagIdsOfBoard(boardId, tagIds);
      tagIds.forEach((id, index) => {
        if (!known.has(id)) throw new InvalidInput(`tagIds[${index}] is not a tag of this board`);
      });
      return uniqueIds(tagIds);
    },

    /**
     * One level of nesting: the parent must not be a child itself, and a ticket with children
     * cannot become a child.
     */
    parentTicketId(subject: Subject, parentId: number | null): number | null {
      if (parentId === null) return null;
      if (parentId === subject.id) throw new InvalidInput("a ticket cannot be its own parent");
      const parent: TicketRow | undefined = stores.tickets.rowsByIds([parentId]).get(parentId);
      if (parent?.boardId !== subject.boardId) {
        throw new InvalidInput("parentTicketId is not a ticket of this board");
      }
      if (parent.parentTicketId !== null) {
        throw new InvalidInput("parentTicketId is a child ticket; parents cannot be nested");
      }
      if (subject.id !== undefined && stores.tickets.childCounts([subject.id]).has(subject.id)) {
        throw new InvalidInput("a ticket with children cannot become a child");
      }
      return parentId;
    },

    /** Blockers: same board, not itself, and no cycle of any length. */
    blockerIds(subject: Subject, blockerIds: readonly number[]): number[] {
      noSelf(subject, blockerIds, "blockerIds", "a ticket cannot block itself");
      ticketsOfBoard(subject, blockerIds, "blockerIds");
      const id = subject.id;
      // A new ticket blocks nothing yet, so it cannot close a cycle.
      if (id !== undefined && stores.ticketRelations.blockerPathExists(blockerIds, id)) {
        const index = blockerIds.findIndex((blocker) =>
          stores.ticketRelations.blockerPathExists([blocker], id),
        );
        throw new InvalidInput(`blockerIds[${index}]: blocker would create a cycle`);
      }
      return uniqueIds(blockerIds);
    },

    relatedIds(subject: Subject, relatedIds: readonly number[]): number[] {
      noSelf(subject, relatedIds, "relatedIds", "a ticket cannot be related to itself");
      ticketsOfBoard(subject, relatedIds, "relatedIds");
      return uniqueIds(relatedIds);
    },
  };
}

export type TicketLinkRules = ReturnType<typeof ticketLinkRules>;
