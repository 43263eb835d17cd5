import type { Stores } from "../../storage/index.js";
import type { ClaimRow } from "../../storage/ticket-claims.js";
import type { RelationKind, RelationRow } from "../../storage/ticket-relations.js";
import type { TicketListFilter, TicketRow, TicketText } from "../../storage/tickets.js";
import { now } from "../clock.js";
import { NotFound } from "../errors.js";
import type {
  Board,
  Comment,
  Tag,
  Ticket,
  TicketCore,
  TicketExternalReference as TicketReference,
  TicketRelation,
  TicketRemote,
  TicketRemoteSummary,
  TicketSummary,
} from "../model.js";
import type { Read } from "../transaction.js";
import { claimView } from "./claim-view.js";

/**
 * What a write of one ticket leaves for its answer: the ticket's row as the unit of work left it
 * (read or written in it), and its remote link when the write read it (undefined: not read).
 * The answer is the full Ticket of that row (`ticket`), or its kept form (src/kept-answers).
 */
export interface TicketWritten {
  record: TicketRow;
  remote?: TicketRemote | null;
}

/**
 * What a full Ticket shows besides its own row, its claim and its remote link: the rows a change
 * of the ticket's own columns (a title, a priority, a resolution) leaves as they are
 * (storage/ticket-changes.ts notes a ticket's parts as changed when any of them changes).
 */
export interface TicketParts {
  board: Board;
  /** Its bodies: a title edit does not write the text row (migrations/014-title-search.ts). */
  text: TicketText;
  /** Parent, children, blockers both ways and related tickets (storage/ticket-relations.ts). */
  neighbours: RelationRow[];
  tags: Tag[];
  externalReferences: TicketReference[];
  comments: Comment[];
}

export interface TicketRelations {
  parent: TicketRelation | null;
  children: TicketRelation[];
  blockers: TicketRelation[];
  blockedBy: TicketRelation[];
  related: TicketRelation[];
}

/** Link data of a set of tickets, each map filled by one query over the whole set. */
interface Links {
  tags: Map<number, Tag[]>;
  blockerIds: Map<number, number[]>;
  relatedIds: Map<number, number[]>;
  childCounts: Map<number, number>;
  /** Stored claims (expired ones read as null at `at`). */
  claims: Map<number, ClaimRow>;
  at: string;
}

/** Per-board data of the reference tables, one query each. */
interface References {
  external: Map<number, TicketReference[]>;
  remote: Map<number, TicketRemoteSummary>;
}

/**
 * Up to this many tickets, their links and references are read ticket by ticket (one statement
 * each) rather than for the set: a list after a write re-serializes one to a few tickets.
 */
const FEW_LINKS = 4;

/**
 * Up to this many ids, references are read by id without counting the board's tickets (a count
 * walks the board's index: ~14 ms at 100,000 tickets, as much as reading 1,000 tickets' by id).
 */
const FEW_TICKETS = 1000;

/** `ref` and `shortRef` are computed on read, so renaming a board changes every ref. */
const refs = (board: Board, id: number) => ({ ref: `${board.name}#${id}`, shortRef: `#${id}` });

/** docs/api.md, "Ordering": relation lists by priority (highest first), then id. */
const byPriority = (a: TicketRelation, b: TicketRelation) => b.priority - a.priority || a.id - b.id;

/**
 * Read models of tickets: the full Ticket, the list's TicketSummary and TicketRelation. Every
 * builder uses a fixed number of queries whatever the number of tickets (ids travel as one JSON
 * parameter), so lists of thousands of tickets stay fast.
 */
export function ticketViews(
  stores: Pick<
    Stores,
    | "boards"
    | "tags"
    | "tickets"
    | "ticketTags"
    | "ticketRelations"
    | "ticketLinks"
    | "comments"
    | "externalReferences"
    | "remoteLinks"
    | "ticketClaims"
  >,
  read: Read,
) {
  const { tickets, ticketRelations } = stores;

  /** A ticket's parts, read (one statement per table). */
  function partsOf(record: TicketRow): TicketParts {
    const ticketId = record.id;
    const text = tickets.text(ticketId);
    if (!text) throw new NotFound("ticket not found");
    return {
      board: boardOf(record.boardId),
      text,
      neighbours: ticketRelations.neighbours(ticketId),
      tags: stores.ticketTags.tagsOfTicket(ticketId),
      externalReferences: stores.externalReferences.listByTicket(ticketId),
      comments: stores.comments.listByTicket(ticketId),
    };
  }

  function boardOf(boardId: number): Board {
    const board = stores.boards.get(boardId);
    if (!board) throw new NotFound("board not found");
    return board;
  }

  /** Links of tickets of one board (tags of a ticket are always its board's tags). */
  function linksOf(boardId: number, ids: number[]): Links {
    return {
      tags: tagsOf(boardId, ids),
      blockerIds: ticketRelations.blockerIds(ids),
      relatedIds: ticketRelations.relatedIds(ids),
      childCounts: tickets.childCounts(ids),
      // One ticket: its own claim; many: the board's claims (a short list) in one query.
      claims: ids.length === 1 ? claimOf(ids[0] as number) : stores.ticketClaims.ofBoard(boardId),
      at: now(),
    };
  }

  /**
   * Links and references of a few tickets, one statement per ticket (storage/ticket-links.ts).
   */
  function linksOfFew(ids: readonly number[]): { links: Links; references: References } {
    const links: Links = {
      tags: new Map(),
      blockerIds: new Map(),
      relatedIds: new Map(),
      childCounts: new Map(),
      claims: new Map(),
      at: now(),
    };
    const references: References = { external: new Map(), remote: new Map() };
    for (const id of ids) {
      const found = stores.ticketLinks.ofTicket(id);
      if (found.tags.length > 0) links.tags.set(id, found.tags);
      if (found.blockerIds.length > 0) links.blockerIds.set(id, found.blockerIds);
      if (found.relatedIds.length > 0) links.relatedIds.set(id, found.relatedIds);
      if (found.hasChildren) links.childCounts.set(id, 1);
      if (found.externalReferences.length > 0) {
        references.external.set(id, found.externalReferences);
      }
      if (found.remote) references.remote.set(id, found.remote);
      const claim = stores.ticketClaims.get(id);
      if (claim) links.claims.set(id, claim);
    }
    return { links, references };
  }

  /**
   * One ticket's links. Its blockers, related tickets and children are among the neighbour rows
   * its detail reads anyway, so only tags and claim need a query (four statements fewer than
   * linksOf, docs/performance.md).
   */
  function linksOfOne(ticketId: number, parts: TicketParts, claims: Map<number, ClaimRow>): Links {
    const { neighbours } = parts;
    const idsOf = (kind: RelationKind) =>
      neighbours
        .filter((row) => row.kind === kind)
        .map((row) => row.id)
        .sort((a, b) => a - b);
    const ofTicket = (ids: number[]) => new Map(ids.length > 0 ? [[ticketId, ids]] : []);
    return {
      // One joined read; the same order as tagsOf (its board's tags are the only ones it has).
      // Copied, like every kept list an answer shows: kept parts are shared by answers.
      tags: new Map([[ticketId, [...parts.tags]]]),
      blockerIds: ofTicket(idsOf("blocker")),
      relatedIds: ofTicket(idsOf("related")),
      childCounts: new Map([[ticketId, idsOf("child").length]]),
      claims,
      at: now(),
    };
  }

  /** A ticket's row (its bodies are among its parts). */
  function rowOf(ticketId: number): TicketRow {
    const row = tickets.row(ticketId);
    if (!row) throw new NotFound("ticket not found");
    return row;
  }

  /**
   * The full Ticket of a row with its parts, stored claim and remote link. Parts may be shared
   * with other answers (src/kept-answers keeps them): every list shown is a copy.
   */
  function fullTicket(
    record: TicketRow,
    parts: TicketParts,
    claim: ClaimRow | undefined,
    remote: TicketRemote | null,
  ): Ticket {
    const { board } = parts;
    const claims = claim ? new Map([[record.id, claim]]) : new Map<number, ClaimRow>();
    const links = linksOfOne(record.id, parts, claims);
    const relations = relationsFromRows(board, parts.neighbours);
    // The fields added to the core's object, not spread with it into a new one: the spread
    // of ~30 properties cost ~10 % of a claim-next's CPU in process (docs/performance.md,
    // "Ticket answers from kept parts").
    return Object.assign(core(board, record, links, [...parts.externalReferences]), {
      bodyMarkdown: parts.text.bodyMarkdown,
      bodyHtml: parts.text.bodyHtml,
      comments: [...parts.comments],
      blockers: relations.blockers,
      blockedBy: relations.blockedBy,
      related: relations.related,
      parent: relations.parent,
      children: relations.children,
      remote,
    });
  }

  function claimOf(ticketId: number): Map<number, ClaimRow> {
    const claim = stores.ticketClaims.get(ticketId);
    return claim ? new Map([[ticketId, claim]]) : new Map();
  }

  /**
   * Each ticket's tags in the board's tag order (name, case-insensitive, then id), sharing one
   * Tag object per tag: cheaper than sorting thousands of joined rows in SQL.
   */
  function tagsOf(boardId: number, ids: number[]): Map<number, Tag[]> {
    const boardTags = stores.tags.listByBoard(boardId);
    const rank = new Map(boardTags.map((tag, index) => [tag.id, index]));
    const result = new Map<number, Tag[]>();
    for (const [ticketId, tagIds] of stores.ticketTags.tagIdsOf(ids)) {
      const ranks = tagIds.flatMap((id) => rank.get(id) ?? []).sort((a, b) => a - b);
      result.set(
        ticketId,
        ranks.flatMap((index) => boardTags[index] ?? []),
      );
    }
    return result;
  }

  /**
   * References of tickets of one board: read by ticket id unless the ids are half the board or
   * more. Both reads probe the references' ticket index, once per id or once per ticket of the
   * board (after a walk of the board's tickets): on a 100,000-ticket board a lane's eighth
   * costs ~0.45 of the board's read by id, half the board ~0.85, the whole board ~1.6
   * (docs/performance.md, "First card"). `boardSize`: the board's ticket count when the caller
   * knows it; otherwise counted, and only past FEW_TICKETS ids (fewer are read by id anyway).
   */
  function referencesOf(boardId: number, ids: readonly number[], boardSize?: number): References {
    const byBoard =
      (boardSize !== undefined || ids.length > FEW_TICKETS) &&
      ids.length * 2 >= (boardSize ?? tickets.countOfBoard(boardId));
    return {
      external: byBoard
        ? stores.externalReferences.groupedByBoard(boardId)
        : stores.externalReferences.groupedByTickets(ids),
      remote: byBoard
        ? stores.remoteLinks.summariesByBoard(boardId)
        : stores.remoteLinks.summariesByTickets(ids),
    };
  }

  function core(
    board: Board,
    row: TicketRow,
    links: Links,
    externalReferences: TicketReference[],
  ): TicketCore {
    return {
      id: row.id,
      boardId: row.boardId,
      laneId: row.laneId,
      parentTicketId: row.parentTicketId,
      hasChildren: (links.childCounts.get(row.id) ?? 0) > 0,
      title: row.title,
      isResolved: row.isResolved,
      isCompleted: row.isResolved,
      isArchived: row.isArchived,
      priority: row.priority,
      position: row.position,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      tags: links.tags.get(row.id) ?? [],
      blockerIds: links.blockerIds.get(row.id) ?? [],
      relatedIds: links.relatedIds.get(row.id) ?? [],
      ...refs(board, row.id),
      externalReferences,
      version: row.version,
      claim: claimView(links.claims.get(row.id), links.at, row),
      notBefore: row.notBefore,
      openAsks: row.openAsks,
      checklist: { done: row.checklistDone, total: row.checklistTotal },
    };
  }

  function summariesFromRows(board: Board, rows: TicketRow[], boardSize?: number): TicketSummary[] {
    const ids = rows.map((row) => row.id);
    const { links, references } =
      ids.length <= FEW_LINKS
        ? linksOfFew(ids)
        : { links: linksOf(board.id, ids), references: referencesOf(board.id, ids, boardSize) };
    return rows.map((row) =>
      Object.assign(core(board, row, links, references.external.get(row.id) ?? []), {
        remote: references.remote.get(row.id) ?? null,
      }),
    );
  }

  function relation(board: Board, row: Omit<RelationRow, "kind">): TicketRelation {
    return {
      id: row.id,
      title: row.title,
      laneId: row.laneId,
      isResolved: row.isResolved,
      isCompleted: row.isResolved,
      priority: row.priority,
      ...refs(board, row.id),
    };
  }

  /** Groups neighbour rows of one ticket (all on its board) into the relation lists. */
  function relationsFromRows(board: Board, rows: Array<RelationRow>): TicketRelations {
    const result: TicketRelations = {
      parent: null,
      children: [],
      blockers: [],
      blockedBy: [],
      related: [],
    };
    for (const row of rows) {
      const item = relation(board, row);
      if (row.kind === "parent") result.parent = item;
      else if (row.kind === "child") result.children.push(item);
      else if (row.kind === "blocker") result.blockers.push(item);
      else if (row.kind === "blockedBy") result.blockedBy.push(item);
      else result.related.push(item);
    }
    result.children.sort(byPriority);
    result.blockers.sort(byPriority);
    result.blockedBy.sort(byPriority);
    result.related.sort(byPriority);
    return result;
  }

  return {
    /**
     * The board list (filters already parsed); the board must exist. With `ready`, only those
     * tickets, highest priority first, board order otherwise (the ready queue's order).
     */
    list(boardId: number, filter: TicketListFilter, ready?: ReadonlySet<number>): TicketSummary[] {
      return read(() => {
        const board = boardOf(boardId);
        let rows = tickets.list(boardId, filter);
        if (ready) {
          // Array sort is stable: within a priority the board order stays.
          rows = rows.filter((row) => ready.has(row.id)).sort((a, b) => b.priority - a.priority);
        }
        return summariesFromRows(board, rows);
      });
    },

    /**
     * Summaries of tickets of one board in the order of `ids` (bulk responses, kept lists).
     * `boardSize`: how many tickets the board has, when the caller knows (see referencesOf).
     */
    summariesOf(boardId: number, ids: readonly number[], boardSize?: number): TicketSummary[] {
      const board = boardOf(boardId);
      const rows = tickets.rowsByIds(ids);
      return summariesFromRows(
        board,
        ids.flatMap((id) => rows.get(id) ?? []),
        boardSize,
      );
    },

    /**
     * The full Ticket, read; NotFound when it does not exist. `written`: what a write in this
     * unit of work already read of it (its row, maybe its remote link).
     */
    ticket(ticketId: number, written?: TicketWritten): Ticket {
      return read(() => {
        const record = written?.record ?? rowOf(ticketId);
        const remote =
          written?.remote !== undefined ? written.remote : stores.remoteLinks.get(ticketId);
        return fullTicket(record, partsOf(record), stores.ticketClaims.get(ticketId), remote);
      });
    },

    /**
     * A ticket's row as it is now, the way a write leaves it for its answer; NotFound when it
     * does not exist.
     */
    written: (ticketId: number): TicketWritten => ({ record: rowOf(ticketId) }),

    /** A ticket's parts, read (src/kept-answers keeps them between answers). */
    partsOf,

    fullTicket,

    /** Parent, children, blockers, blockedBy and related of a ticket. */
    relations(ticketId: number): TicketRelations {
      return read(() => {
        const parts = partsOf(rowOf(ticketId));
        return relationsFromRows(parts.board, parts.neighbours);
      });
    },

    /**
     * Every ticket of a board as a full Ticket, in board order (BoardDetail). Relations are
     * built in memory from the board's rows: links never cross boards.
     */
    boardTickets(boardId: number, options: { includeArchived: boolean }): Ticket[] {
      return read(() => boardTicketsNow(boardId, options));
    },
  };

  /** `boardTickets`' work, run in its snapshot. */
  function boardTicketsNow(boardId: number, options: { includeArchived: boolean }): Ticket[] {
    const board = boardOf(boardId);
    const records = tickets.recordsOfBoard(boardId, options.includeArchived);
    const ids = records.map((record) => record.id);
    const all = new Map(tickets.rowsOfBoard(boardId).map((row) => [row.id, row]));
    const links = linksOf(boardId, ids);
    const blocked = ticketRelations.blockedIds(ids);
    const comments = tickets.commentsOfBoard(boardId);
    const external = stores.externalReferences.groupedByBoard(boardId);
    const remotes = stores.remoteLinks.byBoard(boardId);
    const childrenOf = new Map<number, TicketRow[]>();
    for (const row of all.values()) {
      if (row.parentTicketId === null) continue;
      const list = childrenOf.get(row.parentTicketId);
      if (list) list.push(row);
      else childrenOf.set(row.parentTicketId, [row]);
    }
    const relationsTo = (list: Iterable<number | TicketRow>) =>
      [...list]
        .map((item) => (typeof item === "number" ? all.get(item) : item))
        .filter((row): row is TicketRow => row !== undefined)
        .map((row) => relation(board, row))
        .sort(byPriority);
    return records.map((record) => {
      const parent = record.parentTicketId === null ? undefined : all.get(record.parentTicketId);
      return {
        ...core(board, record, links, external.get(record.id) ?? []),
        bodyMarkdown: record.bodyMarkdown,
        bodyHtml: record.bodyHtml,
        comments: comments.get(record.id) ?? [],
        parent: parent ? relation(board, parent) : null,
        children: relationsTo(childrenOf.get(record.id) ?? []),
        blockers: relationsTo(links.blockerIds.get(record.id) ?? []),
        blockedBy: relationsTo(blocked.get(record.id) ?? []),
        related: relationsTo(links.relatedIds.get(record.id) ?? []),
        remote: remotes.get(record.id) ?? null,
      };
    });
  }
}

export type TicketViews = ReturnType<typeof ticketViews>;
