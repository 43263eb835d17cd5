import type { Db } from "./database.js";

/**
 * Which tickets a transaction changed, gathered by SQLite itself. TEMP triggers on every table
 * that feeds a ticket's full representation (docs/api.md, "Coordination for agents") note the
 * ticket in a per-connection table and raise its version by exactly one (the first time it is noted
 * in the transaction); at the end of the unit of work `flush` reports the noted tickets with their
 * boards. Doing this in triggers means no write path (a lane renumbering, a cascade, a relation
 * seen from the other side, a tag rename) can forget it.
 *
 * `board_id` is 0 for "the ticket's current board"; a moved or deleted ticket is also noted with
 * the board it left. `created` marks tickets inserted by this transaction (they stay at 1: being
 * noted already, later notes leave them alone).
 *
 * An ask (docs/api.md, "Asks") shows in its ticket as `openAsks` and holds a ticket out of the
 * ready queue while it is open and blocking: opening, answering, withdrawing or deleting one
 * notes its ticket (the count is read with the ticket's row, so its parts stay).
 *
 * `changed_parts` notes, besides, the tickets whose full Ticket changed in more than its own row,
 * its claim or its remote link: its bodies (the text row: since migration 014 a title edit does
 * not write it), comments, tags, references, relations (a neighbour's shown fields included),
 * children, board; an insert or delete; a change of its parent or board.
 * domain/tickets/ticket-parts.ts keeps those parts per ticket and drops the noted ones, so a
 * change of a ticket's own columns (a title PATCH) keeps them.
 */
const SCHEMA = `
CREATE TEMP TABLE IF NOT EXISTS changed_tickets (
  ticket_id  INTEGER NOT NULL,
  board_id   INTEGER NOT NULL,
  created    INTEGER NOT NULL,
  PRIMARY KEY (ticket_id, board_id)
) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS changed_parts (ticket_id INTEGER PRIMARY KEY);
CREATE TEMP TABLE IF NOT EXISTS marking (id INTEGER PRIMARY KEY);
CREATE TEMP VIEW IF NOT EXISTS noting (id) AS SELECT NULL;
`;

/** Fields of a ticket that its neighbours show in their relation lists (TicketRelation). */
const RELATION_FIELDS = ["title", "lane_id", "is_resolved", "priority"];
/** Every column of a ticket except `version` itself. */
const TICKET_FIELDS = [
  "board_id",
  "lane_id",
  "parent_ticket_id",
  "title",
  "is_resolved",
  "is_archived",
  "priority",
  "position",
  "created_at",
  "updated_at",
  "not_before",
  "checklist_done",
  "checklist_total",
];

/** Whether a ticket is noted in this transaction (every noted ticket has its board-0 row). */
const noted = (ticket: string) =>
  `EXISTS (SELECT 1 FROM temp.changed_tickets WHERE ticket_id = ${ticket} AND board_id = 0)`;

/**
 * Notes one ticket (an expression, maybe NULL) as changed. The first note of a ticket in a
 * transaction raises its version at once, so the answer built inside the same transaction
 * already shows the new version; later notes find it noted and change nothing (one increment per
 * transaction). Guarded by NOT EXISTS rather than INSERT OR IGNORE: inside a trigger fired by a
 * foreign-key action (ON DELETE SET NULL) SQLite applies the action's ABORT policy to the
 * trigger's statements, so OR IGNORE would not ignore.
 */
const markOne = (ticket: string) => `
  UPDATE main.tickets SET version = version + 1 WHERE id = ${ticket} AND NOT ${noted(ticket)};
  INSERT INTO temp.changed_tickets (ticket_id, board_id, created)
    SELECT ${ticket}, 0, 0 WHERE ${ticket} IS NOT NULL AND NOT ${noted(ticket)};`;

/** Whether a ticket's parts (see SCHEMA) are noted as changed in this transaction. */
const partsNoted = (ticket: string) =>
  `EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = ${ticket})`;

/** Notes that one ticket's parts changed (not OR IGNORE: see markOne). */
const markParts = (ticket: string, when = "1") => `
  INSERT INTO temp.changed_parts (ticket_id)
    SELECT ${ticket} WHERE ${ticket} IS NOT NULL AND (${when}) AND NOT ${partsNoted(ticket)};`;

/**
 * Notes every ticket `select` yields (column `id`; NULLs and repeats allowed), parts too: many
 * tickets (a tag's, a board's), set-wise, the ids gathered once into `marking` so `select` is
 * evaluated once. Nothing the statements here write fires another markAll, so `marking` is
 * never shared. A ticket's few neighbours are noted one at a time instead (NOTE_EACH).
 */
const markAll = (select: string) => `
  INSERT INTO temp.marking (id)
    SELECT DISTINCT n.id FROM (${select}) AS n WHERE n.id IS NOT NULL;
  UPDATE main.tickets SET version = version + 1
    WHERE id IN (SELECT id FROM temp.marking)
      AND id NOT IN (SELECT ticket_id FROM temp.changed_tickets WHERE board_id = 0);
  INSERT INTO temp.changed_tickets (ticket_id, board_id, created)
    SELECT m.id, 0, 0 FROM temp.marking m WHERE NOT ${noted("m.id")};
  INSERT INTO temp.changed_parts (ticket_id)
    SELECT m.id FROM temp.marking m WHERE NOT ${partsNoted("m.id")};
  DELETE FROM temp.marking;`;

/**
 * Notes each ticket inserted into the `noting` view (NULLs and repeats allowed), parts too, one
 * at a time: for the few tickets of one ticket's neighbours this costs less than markAll's five
 * statements over `marking` (~10 us per title PATCH with one to six neighbours), each of which
 * costs its setup even for one row; per ticket it costs more (a ticket with 1,000 children:
 * ~6.5 ms instead of ~3.9, docs/performance.md). Skipped for a ticket whose parts are noted,
 * which for a ticket that exists implies it is noted (as in markTrigger).
 */
const NOTE_EACH = `
CREATE TEMP TRIGGER IF NOT EXISTS noting_insert INSTEAD OF INSERT ON temp.noting
WHEN NEW.id IS NOT NULL AND NOT ${partsNoted("NEW.id")}
BEGIN
  ${markOne("NEW.id")}
  INSERT INTO temp.changed_parts (ticket_id) VALUES (NEW.id);
END;`;

/** Notes that a ticket left (or was deleted from) a board, for that board's message. */
const markLeft = (ticket: string, board: string) => `
  INSERT INTO temp.changed_tickets (ticket_id, board_id, created)
    SELECT ${ticket}, ${board}, 0 WHERE NOT EXISTS (
      SELECT 1 FROM temp.changed_tickets WHERE ticket_id = ${ticket} AND board_id = ${board});`;

const differs = (columns: string[]) =>
  columns.map((column) => `OLD.${column} IS NOT NEW.${column}`).join(" OR ");

/**
 * The tickets whose relation lists show ticket `id` (parent, children, blockers both ways,
 * related), possibly repeated, possibly NULL (no parent).
 */
const neighbours = (id: string) => `
    SELECT blocker_id AS id FROM main.ticket_blockers WHERE ticket_id = ${id}
    UNION ALL SELECT ticket_id FROM main.ticket_blockers WHERE blocker_id = ${id}
    UNION ALL SELECT high_id FROM main.ticket_related WHERE low_id = ${id}
    UNION ALL SELECT low_id FROM main.ticket_related WHERE high_id = ${id}
    UNION ALL SELECT id FROM main.tickets WHERE parent_ticket_id = ${id}
    UNION ALL SELECT parent_ticket_id FROM main.tickets WHERE id = ${id}`;

/**
 * A trigger noting one ticket, whose body runs only when that ticket is not noted yet: most rows
 * a transaction writes belong to a ticket already noted (a board import writes a ticket, then
 * its text, comments, tags and links), and then the trigger costs one index probe. With
 * `parts` (the default) it notes the ticket's parts too, and is skipped once those are noted
 * (which, for a ticket that still exists, implies the ticket is noted).
 */
const markTrigger = (name: string, event: string, ticket: string, parts = true) =>
  parts
    ? `
CREATE TEMP TRIGGER IF NOT EXISTS ${name} ${event}
WHEN ${ticket} IS NOT NULL AND NOT ${partsNoted(ticket)}
BEGIN ${markOne(ticket)} ${markParts(ticket)} END;`
    : `
CREATE TEMP TRIGGER IF NOT EXISTS ${name} ${event}
WHEN ${ticket} IS NOT NULL AND NOT ${noted(ticket)}
BEGIN ${markOne(ticket)} END;`;

/**
 * Triggers on a table whose rows belong to one ticket (column `ticket_id`, never changed).
 * `updates: false` for a table whose updates the Ticket does not show (a tag link's reason);
 * `parts: false` for a table the full Ticket reads anew each time (its claim, remote link).
 */
function perTicketTriggers(table: string, options: { updates?: boolean; parts?: boolean } = {}) {
  const { updates = true, parts = true } = options;
  return [
    markTrigger(`${table}_changed_insert`, `AFTER INSERT ON main.${table}`, "NEW.ticket_id", parts),
    updates
      ? markTrigger(
          `${table}_changed_update`,
          `AFTER UPDATE ON main.${table}`,
          "NEW.ticket_id",
          parts,
        )
      : "",
    markTrigger(`${table}_changed_delete`, `AFTER DELETE ON main.${table}`, "OLD.ticket_id", parts),
  ].join("");
}

/** Triggers on a table linking two tickets (both sides show the link). */
function pairTriggers(table: string, left: string, right: string): string {
  return [
    markTrigger(`${table}_left_insert`, `AFTER INSERT ON main.${table}`, `NEW.${left}`),
    markTrigger(`${table}_right_insert`, `AFTER INSERT ON main.${table}`, `NEW.${right}`),
    markTrigger(`${table}_left_delete`, `AFTER DELETE ON main.${table}`, `OLD.${left}`),
    markTrigger(`${table}_right_delete`, `AFTER DELETE ON main.${table}`, `OLD.${right}`),
  ].join("");
}

const TRIGGERS = `
CREATE TEMP TRIGGER IF NOT EXISTS tickets_changed_insert AFTER INSERT ON main.tickets
BEGIN
  INSERT INTO temp.changed_tickets VALUES (NEW.id, 0, 1);
  ${markParts("NEW.id")}
END;
${markTrigger("tickets_changed_insert_parent", "AFTER INSERT ON main.tickets", "NEW.parent_ticket_id")}
CREATE TEMP TRIGGER IF NOT EXISTS tickets_changed_update
AFTER UPDATE OF ${TICKET_FIELDS.join(", ")} ON main.tickets
WHEN ${differs(TICKET_FIELDS)}
BEGIN
  ${markOne("NEW.id")}
  ${markParts("NEW.id", differs(["parent_ticket_id", "board_id"]))}
END;
CREATE TEMP TRIGGER IF NOT EXISTS tickets_changed_board
AFTER UPDATE OF board_id ON main.tickets WHEN OLD.board_id <> NEW.board_id
BEGIN ${markLeft("NEW.id", "OLD.board_id")} END;
${NOTE_EACH}
CREATE TEMP TRIGGER IF NOT EXISTS tickets_changed_relation_fields
AFTER UPDATE OF ${RELATION_FIELDS.join(", ")} ON main.tickets
WHEN ${differs(RELATION_FIELDS)}
BEGIN INSERT INTO temp.noting (id) ${neighbours("NEW.id")}; END;
${markTrigger("tickets_changed_old_parent", "AFTER UPDATE OF parent_ticket_id ON main.tickets", "OLD.parent_ticket_id")}
${markTrigger("tickets_changed_new_parent", "AFTER UPDATE OF parent_ticket_id ON main.tickets", "NEW.parent_ticket_id")}
CREATE TEMP TRIGGER IF NOT EXISTS tickets_changed_delete AFTER DELETE ON main.tickets
BEGIN ${markLeft("OLD.id", "OLD.board_id")} ${markParts("OLD.id")} END;
${markTrigger("tickets_changed_delete_parent", "AFTER DELETE ON main.tickets", "OLD.parent_ticket_id")}
${perTicketTriggers("ticket_texts")}
${perTicketTriggers("comments")}
${perTicketTriggers("ticket_tags", { updates: false })}
${perTicketTriggers("external_references")}
${perTicketTriggers("remote_links", { parts: false })}
${perTicketTriggers("ticket_claims", { parts: false })}
${perTicketTriggers("asks", { parts: false })}
${pairTriggers("ticket_blockers", "ticket_id", "blocker_id")}
${pairTriggers("ticket_related", "low_id", "high_id")}
CREATE TEMP TRIGGER IF NOT EXISTS tags_changed AFTER UPDATE OF name, color ON main.tags
WHEN OLD.name IS NOT NEW.name OR OLD.color IS NOT NEW.color
BEGIN ${markAll("SELECT ticket_id AS id FROM main.ticket_tags WHERE tag_id = NEW.id")} END;
CREATE TEMP TRIGGER IF NOT EXISTS boards_renamed AFTER UPDATE OF name ON main.boards
WHEN OLD.name IS NOT NEW.name
BEGIN ${markAll("SELECT id FROM main.tickets WHERE board_id = NEW.id")} END;
`;

/** A ticket a transaction changed, on a board it is or was on. */
export interface ChangedTicket {
  ticketId: number;
  boardId: number;
}

/** A claim of a ticket changed in this transaction; `moved` when it left the claim's board. */
export interface ChangedClaim {
  ticketId: number;
  actor: string;
  expiresAt: string;
  boardId: number;
  isResolved: boolean;
  isArchived: boolean;
  moved: boolean;
}

export function ticketChangeStore(db: Db) {
  db.exec(SCHEMA);
  db.exec(TRIGGERS);
  const count = db
    .prepare<[], number>("SELECT count(*) FROM temp.changed_tickets WHERE board_id = 0")
    .pluck();
  // Each changed ticket with the board it is on now (its board-0 note, if it still exists) and
  // any board it left; a pair may repeat (a ticket moved away and back). One pass over the
  // notes: the UNION that removed repeats cost a temporary index per commit.
  const changed = db
    .prepare<[], [number, number]>(
      `SELECT c.ticket_id, iif(c.board_id = 0, t.board_id, c.board_id)
       FROM temp.changed_tickets c
         LEFT JOIN main.tickets t ON c.board_id = 0 AND t.id = c.ticket_id
       WHERE c.board_id <> 0 OR t.id IS NOT NULL`,
    )
    .raw(true);
  const changedIds = db
    .prepare<[], [number]>("SELECT DISTINCT ticket_id FROM temp.changed_tickets")
    .raw(true);
  const clear = db.prepare("DELETE FROM temp.changed_tickets");
  const partsChanged = db
    .prepare<[number], number>(
      "SELECT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = ?)",
    )
    .pluck(true);
  const changedParts = db
    .prepare<[], number>("SELECT ticket_id FROM temp.changed_parts")
    .pluck(true);
  const clearParts = db.prepare("DELETE FROM temp.changed_parts");
  const partsListeners: Array<(ticketIds: number[]) => void> = [];
  // Stored claims of changed tickets that still exist. The changed tickets drive (each has its
  // board-0 row): a transaction changes a few tickets, while claims pile up on a busy board
  // (expired ones stay until their ticket is claimed again), and a walk of every claim made
  // this query most of a claim-next's cost with a thousand claims (docs/performance.md).
  const claimsOfChanged = db.prepare<
    [],
    {
      ticket_id: number;
      actor: string;
      expires_at: string;
      board_id: number;
      is_resolved: number;
      is_archived: number;
      moved: number;
    }
  >(
    `SELECT c.ticket_id, c.actor, c.expires_at, t.board_id, t.is_resolved, t.is_archived,
       c.board_id <> t.board_id AS moved
     FROM temp.changed_tickets ch
       CROSS JOIN main.ticket_claims c ON c.ticket_id = ch.ticket_id
       JOIN main.tickets t ON t.id = c.ticket_id
     WHERE ch.board_id = 0`,
  );

  return {
    /** How many tickets this transaction has changed so far. */
    count: (): number => count.get() as number,

    /** Ids of the tickets changed so far in this transaction (for rules applied before commit). */
    changedIds: (): number[] => changedIds.all().map((row) => row[0]),

    /** Claims (live or expired) of the tickets changed so far, with those tickets' state. */
    claimsOfChanged(): ChangedClaim[] {
      return claimsOfChanged.all().map((row) => ({
        ticketId: row.ticket_id,
        actor: row.actor,
        expiresAt: row.expires_at,
        boardId: row.board_id,
        isResolved: row.is_resolved === 1,
        isArchived: row.is_archived === 1,
        moved: row.moved === 1,
      }));
    },

    /** Whether this transaction changed the ticket's parts so far (see SCHEMA). */
    partsChanged: (ticketId: number): boolean => partsChanged.get(ticketId) === 1,

    /**
     * Calls `listener` at each flush with the tickets whose parts the transaction changed,
     * before its commit (a rollback after that only means some parts are read again).
     */
    onPartsChanged(listener: (ticketIds: number[]) => void): void {
      partsListeners.push(listener);
    },

    /**
     * The changed tickets with their boards (a pair may repeat); the notes are cleared (end of a
     * transaction).
     */
    flush(): ChangedTicket[] {
      const rows = changed.all();
      // Every parts note comes with a ticket note: none cleared, nothing else to clear.
      if (clear.run().changes === 0) return [];
      const result = rows.map(([ticketId, boardId]) => ({ ticketId, boardId }));
      const parts = changedParts.all();
      if (parts.length > 0) {
        clearParts.run();
        for (const listener of partsListeners) listener(parts);
      }
      return result;
    },

    /** Forgets the notes of a transaction that rolled back. */
    discard(): void {
      clear.run();
      clearParts.run();
    },
  };
}

export type TicketChangeStore = ReturnType<typeof ticketChangeStore>;
