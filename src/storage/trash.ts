import type { Db } from "./database.js";
import { IN_IDS } from "./id-lists.js";
import type { RemoteIdentity } from "./remote-links.js";

/**
 * The trash (docs/api.md, "The trash"): snapshots of deleted objects, one entry each, restored by
 * inserting their rows again with the same ids.
 *
 * A snapshot holds the rows of every table the delete removed, as `SELECT *` gave them (column
 * names as keys), so a column another migration adds is carried along without this file
 * knowing it; the restore inserts the columns the snapshot has and lets the rest take their
 * defaults. Links that the domain must check again before they come back (a restored ticket's
 * parent, children, blockers both ways, related tickets, tag links) are kept apart, as ids.
 */

/** A row as SQLite returned it: column name -> value (text, number or null). */
export type Row = Record<string, string | number | null>;

/** The tables a snapshot may hold rows of, in the order a restore inserts them. */
const TABLE_ORDER = [
  "boards",
  "lanes",
  "tags",
  "templates",
  "tickets",
  "ticket_texts",
  "comments",
  "asks",
  "ticket_tags",
  "ticket_blockers",
  "ticket_related",
  "ticket_events",
  "external_references",
  "remote_links",
  "activity",
] as const;
export type SnapshotTable = (typeof TABLE_ORDER)[number];
export type TableRows = Partial<Record<SnapshotTable, Row[]>>;

/** A ticket's links to other tickets and tags, checked again when it is restored on its own. */
export interface TicketLinks {
  parentId: number | null;
  childIds: number[];
  /** Tickets blocking this one. */
  blockerIds: number[];
  /** Tickets this one blocks. */
  blockingIds: number[];
  relatedIds: number[];
  /** Tag links: the ticket_tags rows, restored where the tag still exists. */
  tagLinks: Row[];
  /** Activity entries that named the live ticket, linked to it again on restore. */
  activityIds: number[];
}

export interface TicketSnapshot {
  kind: "ticket";
  ticket: { id: number; boardId: number; laneId: number; position: number; version: number };
  rows: TableRows;
  links: TicketLinks;
  remote: RemoteIdentity | null;
}

export interface BoardSnapshot {
  kind: "board";
  position: number;
  rows: TableRows;
  remotes: Array<RemoteIdentity & { ticketId: number }>;
}

export interface LaneSnapshot {
  kind: "lane";
  position: number;
  rows: TableRows;
}

export interface TagSnapshot {
  kind: "tag";
  nameKey: string;
  rows: TableRows;
  /** The tag's ticket_tags rows, restored for tickets that still exist on the board. */
  tagLinks: Row[];
}

export interface CommentSnapshot {
  kind: "comment";
  ticketId: number;
  rows: TableRows;
  /** Tag links whose reason was this comment (their reason_comment_id was set to null). */
  reasonTagIds: number[];
}

export type Snapshot =
  | TicketSnapshot
  | BoardSnapshot
  | LaneSnapshot
  | TagSnapshot
  | CommentSnapshot;
export type TrashKind = Snapshot["kind"];

export interface TrashEntry {
  id: number;
  kind: TrashKind;
  objectId: number;
  boardId: number;
  label: string;
  deletedAt: string;
  expiresAt: string;
}

interface EntryRow {
  id: number;
  kind: TrashKind;
  object_id: number;
  board_id: number;
  label: string;
  deleted_at: string;
  expires_at: string;
}

const toEntry = (row: EntryRow): TrashEntry => ({
  id: row.id,
  kind: row.kind,
  objectId: row.object_id,
  boardId: row.board_id,
  label: row.label,
  deletedAt: row.deleted_at,
  expiresAt: row.expires_at,
});

const ENTRY = "id, kind, object_id, board_id, label, deleted_at, expires_at";
const BOARD_TICKETS = "(SELECT id FROM tickets WHERE board_id = @id)";

const toIdentity = (row: Row): RemoteIdentity => ({
  provider: String(row.provider),
  instanceUrl: String(row.instance_url),
  resourceType: String(row.resource_type),
  projectKey: String(row.project_key),
  issueKey: String(row.issue_key),
});

export function trashStore(db: Db) {
  const insertEntry = db.prepare<[string, number, number, string, string, string, string]>(
    `INSERT INTO trash (kind, object_id, board_id, label, deleted_at, expires_at, snapshot)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const all = db.prepare<[], EntryRow>(
    `SELECT ${ENTRY} FROM trash ORDER BY deleted_at DESC, id DESC`,
  );
  const ofBoard = db.prepare<[number], EntryRow>(
    `SELECT ${ENTRY} FROM trash WHERE board_id = ? ORDER BY deleted_at DESC, id DESC`,
  );
  const byId = db.prepare<[number], EntryRow & { snapshot: string }>(
    `SELECT ${ENTRY}, snapshot FROM trash WHERE id = ?`,
  );
  const byObject = db.prepare<[string, number], { id: number }>(
    "SELECT id FROM trash WHERE kind = ? AND object_id = ? ORDER BY id DESC LIMIT 1",
  );
  const remove = db.prepare<[number]>("DELETE FROM trash WHERE id = ?");
  const removeExpired = db.prepare<[string]>("DELETE FROM trash WHERE expires_at <= ?");
  const nextExpiry = db.prepare<[], { at: string | null }>(
    "SELECT min(expires_at) AS at FROM trash",
  );

  /** Rows of `table` matching `where` (named parameter @id), as objects. */
  const selecting = new Map<string, ReturnType<Db["prepare"]>>();
  function rowsOf(table: SnapshotTable, where: string, id: number): Row[] {
    const sql = `SELECT * FROM ${table} WHERE ${where}`;
    let statement = selecting.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      selecting.set(sql, statement);
    }
    return statement.all({ id }) as Row[];
  }

  const inserting = new Map<string, ReturnType<Db["prepare"]>>();
  /** Inserts rows into `table` as they were captured (every column the snapshot has). */
  function insertRows(table: SnapshotTable, rows: readonly Row[]): void {
    for (const row of rows) {
      const columns = Object.keys(row);
      const sql = `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns
        .map((column) => `@${column}`)
        .join(", ")})`;
      let statement = inserting.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        inserting.set(sql, statement);
      }
      statement.run(row);
    }
  }

  const pluckIds = (sql: string) => {
    const statement = db.prepare<{ id: number }, number>(sql).pluck();
    return (id: number): number[] => statement.all({ id });
  };
  const childIds = pluckIds("SELECT id FROM tickets WHERE parent_ticket_id = @id ORDER BY id");
  const blockerIds = pluckIds(
    "SELECT blocker_id FROM ticket_blockers WHERE ticket_id = @id ORDER BY blocker_id",
  );
  const blockingIds = pluckIds(
    "SELECT ticket_id FROM ticket_blockers WHERE blocker_id = @id ORDER BY ticket_id",
  );
  const relatedIds = pluckIds(
    `SELECT high_id FROM ticket_related WHERE low_id = @id
     UNION SELECT low_id FROM ticket_related WHERE high_id = @id ORDER BY 1`,
  );
  const activityIds = pluckIds("SELECT id FROM activity WHERE ticket_id = @id ORDER BY id");
  const reasonTagIds = pluckIds(
    "SELECT tag_id FROM ticket_tags WHERE reason_comment_id = @id ORDER BY tag_id",
  );

  const relinkActivity = db.prepare<[number, string]>(
    `UPDATE activity SET ticket_id = ? WHERE id ${IN_IDS}
       AND ticket_id IS NULL`,
  );
  const relinkReasons = db.prepare<[number, number, string]>(
    `UPDATE ticket_tags SET reason_comment_id = ?
     WHERE ticket_id = ? AND reason_comment_id IS NULL
       AND tag_id ${IN_IDS}`,
  );
  const remoteTracker = db.prepare<[string, string, string, string, string], { id: number }>(
    `SELECT ticket_id AS id FROM remote_links WHERE provider = ? AND instance_url = ?
       AND resource_type = ? AND project_key = ? AND issue_key = ?`,
  );
  const boardsFrom = db.prepare<[number]>(
    "UPDATE boards SET position = position + 1 WHERE position >= ?",
  );
  const boardOrder = db.prepare<[], number>("SELECT id FROM boards ORDER BY position, id").pluck();
  const setBoardPosition = db.prepare<[number, number, number]>(
    "UPDATE boards SET position = ? WHERE id = ? AND position <> ?",
  );
  const lanesFrom = db.prepare<[number, number]>(
    "UPDATE lanes SET position = position + 1 WHERE board_id = ? AND position >= ?",
  );
  const laneOrder = db
    .prepare<[number], number>("SELECT id FROM lanes WHERE board_id = ? ORDER BY position, id")
    .pluck();
  const setLanePosition = db.prepare<[number, number, number]>(
    "UPDATE lanes SET position = ? WHERE id = ? AND position <> ?",
  );
  const ticketsFrom = db.prepare<[number, number]>(
    "UPDATE tickets SET position = position + 1 WHERE lane_id = ? AND position >= ?",
  );
  const setParent = db.prepare<[number, number]>(
    "UPDATE tickets SET parent_ticket_id = ? WHERE id = ? AND parent_ticket_id IS NULL",
  );
  const deferForeignKeys = db.prepare("PRAGMA defer_foreign_keys = ON");

  function ticketRows(id: number): TableRows {
    return {
      tickets: rowsOf("tickets", "id = @id", id),
      ticket_texts: rowsOf("ticket_texts", "ticket_id = @id", id),
      comments: rowsOf("comments", "ticket_id = @id", id),
      // A deleted ticket takes its asks along; they come back with it, same ids.
      asks: rowsOf("asks", "ticket_id = @id", id),
      ticket_events: rowsOf("ticket_events", "ticket_id = @id", id),
      external_references: rowsOf("external_references", "ticket_id = @id", id),
      remote_links: rowsOf("remote_links", "ticket_id = @id", id),
    };
  }

  return {
    /** A ticket with everything that goes when it is deleted; undefined if there is none. */
    captureTicket(id: number): TicketSnapshot | undefined {
      const rows = ticketRows(id);
      const ticket = rows.tickets?.[0];
      if (!ticket) return undefined;
      const remote = rows.remote_links?.[0];
      return {
        kind: "ticket",
        ticket: {
          id,
          boardId: Number(ticket.board_id),
          laneId: Number(ticket.lane_id),
          position: Number(ticket.position),
          version: Number(ticket.version),
        },
        rows,
        links: {
          parentId: ticket.parent_ticket_id === null ? null : Number(ticket.parent_ticket_id),
          childIds: childIds(id),
          blockerIds: blockerIds(id),
          blockingIds: blockingIds(id),
          relatedIds: relatedIds(id),
          tagLinks: rowsOf("ticket_tags", "ticket_id = @id", id),
          activityIds: activityIds(id),
        },
        remote: remote ? toIdentity(remote) : null,
      };
    },

    /** A board with its lanes, tags, templates, tickets (and all they hold) and its activity. */
    captureBoard(id: number): BoardSnapshot | undefined {
      const board = rowsOf("boards", "id = @id", id);
      if (board.length === 0) return undefined;
      const inBoard = `ticket_id IN ${BOARD_TICKETS}`;
      const rows: TableRows = {
        boards: board,
        lanes: rowsOf("lanes", "board_id = @id", id),
        tags: rowsOf("tags", "board_id = @id", id),
        templates: rowsOf("templates", "board_id = @id", id),
        tickets: rowsOf("tickets", "board_id = @id", id),
        ticket_texts: rowsOf("ticket_texts", inBoard, id),
        comments: rowsOf("comments", inBoard, id),
        asks: rowsOf("asks", inBoard, id),
        ticket_tags: rowsOf("ticket_tags", inBoard, id),
        // Links never cross boards (moves drop them), so one side names them all.
        ticket_blockers: rowsOf("ticket_blockers", inBoard, id),
        ticket_related: rowsOf("ticket_related", `low_id IN ${BOARD_TICKETS}`, id),
        ticket_events: rowsOf("ticket_events", inBoard, id),
        external_references: rowsOf("external_references", inBoard, id),
        remote_links: rowsOf("remote_links", inBoard, id),
        activity: rowsOf("activity", "board_id = @id", id),
      };
      return {
        kind: "board",
        position: Number(board[0]?.position),
        rows,
        remotes: (rows.remote_links ?? []).map((row) => ({
          ...toIdentity(row),
          ticketId: Number(row.ticket_id),
        })),
      };
    },

    captureLane(id: number): LaneSnapshot | undefined {
      const lanes = rowsOf("lanes", "id = @id", id);
      const lane = lanes[0];
      return lane && { kind: "lane", position: Number(lane.position), rows: { lanes } };
    },

    captureTag(id: number): TagSnapshot | undefined {
      const tags = rowsOf("tags", "id = @id", id);
      const tag = tags[0];
      if (!tag) return undefined;
      return {
        kind: "tag",
        nameKey: String(tag.name_key),
        rows: { tags },
        tagLinks: rowsOf("ticket_tags", "tag_id = @id", id),
      };
    },

    captureComment(id: number): CommentSnapshot | undefined {
      const comments = rowsOf("comments", "id = @id", id);
      const comment = comments[0];
      if (!comment) return undefined;
      return {
        kind: "comment",
        ticketId: Number(comment.ticket_id),
        rows: { comments },
        reasonTagIds: reasonTagIds(id),
      };
    },

    /** Files a snapshot in the trash; returns the entry's id. */
    insert(entry: Omit<TrashEntry, "id">, snapshot: Snapshot): number {
      return Number(
        insertEntry.run(
          entry.kind,
          entry.objectId,
          entry.boardId,
          entry.label,
          entry.deletedAt,
          entry.expiresAt,
          JSON.stringify(snapshot),
        ).lastInsertRowid,
      );
    },

    /** Newest first; only entries of one board when `boardId` is given. */
    list: (boardId?: number): TrashEntry[] =>
      (boardId === undefined ? all.all() : ofBoard.all(boardId)).map(toEntry),

    get(id: number): { entry: TrashEntry; snapshot: Snapshot } | undefined {
      const row = byId.get(id);
      return row && { entry: toEntry(row), snapshot: JSON.parse(row.snapshot) as Snapshot };
    },

    /** The newest entry holding this object, if any. */
    entryOf: (kind: TrashKind, objectId: number): number | undefined =>
      byObject.get(kind, objectId)?.id,

    remove(id: number): void {
      remove.run(id);
    },

    /** Erases every entry whose time is up; returns how many. */
    removeExpired: (at: string): number => removeExpired.run(at).changes,

    /** When the next entry expires (null: the trash is empty). */
    nextExpiry: (): string | null => nextExpiry.get()?.at ?? null,

    /**
     * Inserts a snapshot's rows table by table. Foreign keys are checked at commit (a ticket's
     * parent may come later in the same table), so the whole restore is checked at once.
     */
    insertRows(rows: TableRows): void {
      deferForeignKeys.run();
      for (const table of TABLE_ORDER) {
        const given = rows[table] ?? [];
        // One more than when deleted: an ETag (or cached answer) from before never matches.
        insertRows(
          table,
          table === "tickets"
            ? given.map((row) => ({ ...row, version: Number(row.version) + 1 }))
            : given,
        );
      }
    },

    /** Makes activity entries name their (restored) ticket again. */
    relinkActivity(ticketId: number, ids: readonly number[]): void {
      relinkActivity.run(ticketId, JSON.stringify(ids));
    },

    /** Makes the ticket's tag links whose reason was this comment point at it again. */
    relinkReasons(commentId: number, ticketId: number, tagIds: readonly number[]): void {
      relinkReasons.run(commentId, ticketId, JSON.stringify(tagIds));
    },

    /** The ticket now tracking this remote issue, if any. */
    remoteTrackedBy: (identity: RemoteIdentity): number | undefined =>
      remoteTracker.get(
        identity.provider,
        identity.instanceUrl,
        identity.resourceType,
        identity.projectKey,
        identity.issueKey,
      )?.id,

    /** Makes a ticket without a parent the child of `parentId` again. */
    setParent(childId: number, parentId: number): void {
      setParent.run(parentId, childId);
    },

    /** Boards at `position` and after move down one (call `renumberBoards` after the insert). */
    openBoardGap(position: number): void {
      boardsFrom.run(position);
    },
    renumberBoards(): void {
      for (const [position, id] of boardOrder.all().entries()) {
        setBoardPosition.run(position, id, position);
      }
    },
    openLaneGap(boardId: number, position: number): void {
      lanesFrom.run(boardId, position);
    },
    renumberLanes(boardId: number): void {
      for (const [position, id] of laneOrder.all(boardId).entries()) {
        setLanePosition.run(position, id, position);
      }
    },
    /** Tickets of a lane at `position` and after move down one (then renumber the lane). */
    openTicketGap(laneId: number, position: number): void {
      ticketsFrom.run(laneId, position);
    },
  };
}

export type TrashStore = ReturnType<typeof trashStore>;
