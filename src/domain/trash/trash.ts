import type { Stores } from "../../storage/index.js";
import type { RemoteIdentity } from "../../storage/remote-links.js";
import type {
  BoardSnapshot,
  CommentSnapshot,
  LaneSnapshot,
  TagSnapshot,
  TicketSnapshot,
  TrashEntry,
  TrashKind,
} from "../../storage/trash.js";
import type { ActivityRecorder } from "../activity.js";
import { shellChanged } from "../boards/boards.js";
import { now } from "../clock.js";
import { Conflict, found } from "../errors.js";
import type { BoardChanges, Transact } from "../transaction.js";
import { restoreTicketLinks } from "./ticket-links.js";

export interface RestoredObject {
  kind: TrashKind;
  objectId: number;
}

type TrashStores = Pick<
  Stores,
  "trash" | "boards" | "lanes" | "tags" | "tickets" | "ticketTags" | "ticketRelations" | "comments"
>;

/**
 * The trash's own operations (docs/api.md, "The trash"): list, restore, erase. Deletes file entries
 * through trash-keeper.ts. A restore inserts the snapshot's rows again with their ids, in one
 * transaction, after checking that what the object hangs on is back and that no name or remote
 * identity was taken meanwhile; the rows' triggers keep ticket versions, the stream's ticket
 * notes and the search index in step, as for any other write.
 */
export function trashService(stores: TrashStores, activity: ActivityRecorder, transact: Transact) {
  const { trash } = stores;

  /** Erases what has expired; in the caller's transaction. */
  function purge(): void {
    const next = trash.nextExpiry();
    if (next !== null && next <= now()) trash.removeExpired(now());
  }

  /** Erases expired entries in a transaction of their own, when there are any. */
  function purgeExpired(): void {
    const next = trash.nextExpiry();
    if (next !== null && next <= now()) transact(purge);
  }

  function requireEntry(id: number) {
    purge();
    return found(trash.get(id), "trash entry");
  }

  /** 409 naming what has to come back first, or saying it is gone for good. */
  function missing(kind: TrashKind, id: number): Conflict {
    const entry = trash.entryOf(kind, id);
    return entry === undefined
      ? new Conflict(`${kind} ${id} was erased`)
      : new Conflict(`${kind} ${id} is in the trash: restore trash entry ${entry} first`);
  }

  function requireBoard(boardId: number): void {
    if (!stores.boards.get(boardId)) throw missing("board", boardId);
  }

  function remoteFree(remote: RemoteIdentity): void {
    const holder = trash.remoteTrackedBy(remote);
    if (holder !== undefined) {
      throw new Conflict(
        `remote issue ${remote.provider} ${remote.projectKey}#${remote.issueKey} is tracked by ticket ${holder} now`,
      );
    }
  }

  function restoreBoard(snapshot: BoardSnapshot, boardId: number, changes: BoardChanges): void {
    for (const remote of snapshot.remotes) remoteFree(remote);
    trash.openBoardGap(snapshot.position);
    trash.insertRows(snapshot.rows);
    trash.renumberBoards();
    changes.touched(boardId);
  }

  function restoreLane(snapshot: LaneSnapshot, entry: TrashEntry, changes: BoardChanges): void {
    requireBoard(entry.boardId);
    trash.openLaneGap(entry.boardId, snapshot.position);
    trash.insertRows(snapshot.rows);
    trash.renumberLanes(entry.boardId);
    shellChanged(stores, entry.boardId, changes);
  }

  function restoreTag(snapshot: TagSnapshot, entry: TrashEntry, changes: BoardChanges): void {
    requireBoard(entry.boardId);
    const taken = stores.tags.findByKey(entry.boardId, snapshot.nameKey);
    if (taken) throw new Conflict(`a tag named ${taken.name} already exists on this board`);
    const onBoard = stores.tickets.rowsByIds(
      snapshot.tagLinks.map((link) => Number(link.ticket_id)),
    );
    const links = snapshot.tagLinks
      .filter((link) => onBoard.get(Number(link.ticket_id))?.boardId === entry.boardId)
      // The reason's comment may be gone meanwhile; the link then stays without it.
      .map((link) =>
        link.reason_comment_id !== null && !stores.comments.get(Number(link.reason_comment_id))
          ? { ...link, reason_comment_id: null }
          : link,
      );
    trash.insertRows({ ...snapshot.rows, ticket_tags: links });
    shellChanged(stores, entry.boardId, changes);
  }

  function restoreComment(snapshot: CommentSnapshot, entry: TrashEntry, changes: BoardChanges) {
    const ticket = stores.tickets.rowsByIds([snapshot.ticketId]).get(snapshot.ticketId);
    if (!ticket) {
      if (
        !stores.boards.get(entry.boardId) &&
        trash.entryOf("ticket", snapshot.ticketId) === undefined
      ) {
        throw missing("board", entry.boardId);
      }
      throw missing("ticket", snapshot.ticketId);
    }
    trash.insertRows(snapshot.rows);
    trash.relinkReasons(entry.objectId, snapshot.ticketId, snapshot.reasonTagIds);
    activity.record({
      boardId: ticket.boardId,
      ticketId: ticket.id,
      action: "comment_undeleted",
      message: "Comment restored",
      details: { commentId: entry.objectId, trashEntryId: entry.id },
    });
    changes.touched(ticket.boardId);
  }

  function restoreTicket(snapshot: TicketSnapshot, entry: TrashEntry, changes: BoardChanges) {
    const { boardId, laneId, position } = snapshot.ticket;
    requireBoard(boardId);
    if (!stores.lanes.get(laneId)) throw missing("lane", laneId);
    if (snapshot.remote) remoteFree(snapshot.remote);
    const links = restoreTicketLinks(stores, snapshot, (rows) => {
      trash.openTicketGap(laneId, position);
      trash.insertRows(rows);
      stores.tickets.renumberLane(laneId);
    });
    trash.relinkActivity(entry.objectId, snapshot.links.activityIds);
    activity.record({
      boardId,
      ticketId: entry.objectId,
      action: "ticket_undeleted",
      message: "Ticket restored",
      details: {
        title: entry.label,
        laneId,
        trashEntryId: entry.id,
        droppedLinks: links.dropped,
      },
    });
    changes.touched(boardId);
  }

  return {
    list(boardId?: number): TrashEntry[] {
      purgeExpired();
      return trash.list(boardId);
    },

    restore(entryId: number): RestoredObject {
      return transact((changes) => {
        const { entry, snapshot } = requireEntry(entryId);
        switch (snapshot.kind) {
          case "board":
            restoreBoard(snapshot, entry.objectId, changes);
            break;
          case "lane":
            restoreLane(snapshot, entry, changes);
            break;
          case "tag":
            restoreTag(snapshot, entry, changes);
            break;
          case "comment":
            restoreComment(snapshot, entry, changes);
            break;
          case "ticket":
            restoreTicket(snapshot, entry, changes);
            break;
        }
        trash.remove(entryId);
        return { kind: entry.kind, objectId: entry.objectId };
      });
    },

    /** Erases an entry for good (its ids stay used: the tables' sequences never go back). */
    erase(entryId: number): void {
      transact(() => {
        requireEntry(entryId);
        trash.remove(entryId);
      });
    },

    /** Erases expired entries (the server calls this now and then, unasked). */
    purgeExpired,
  };
}

export type TrashService = ReturnType<typeof trashService>;
