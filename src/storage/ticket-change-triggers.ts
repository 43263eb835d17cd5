/**
 * The TEMP tables, views and triggers behind storage/ticket-changes.ts, as the SQL that runs
 * (the module's comment says what the notes are for). Read top to bottom:
 *
 * - `changed_tickets`: the tickets this transaction changed. `board_id` 0 is "the ticket's
 *   current board"; a moved or deleted ticket is also noted with the board it left. `created`
 *   marks tickets inserted by this transaction (they stay at version 1).
 * - `changed_parts`: the tickets whose full Ticket changed in more than its own row, its claim,
 *   its asks or its remote link: bodies, comments, tags, references, relations (a neighbour's
 *   shown fields included), children, board; an insert or delete; a change of parent or board.
 *   src/kept-answers/ticket-parts.ts drops those tickets' kept parts; a change of a ticket's own
 *   columns (a title PATCH) keeps them. A ticket noted here is also noted in `changed_tickets`
 *   (for a ticket that exists), so "parts noted" implies "noted".
 * - Two views whose INSTEAD OF triggers do the noting, so every other trigger says which
 *   ticket it notes in one line: `INSERT INTO temp.note_ticket (id) VALUES (...)` raises the
 *   ticket's version by exactly one the first time it is noted in the transaction (at once, so
 *   an answer built inside the same transaction shows the new version) and notes it;
 *   `temp.note_ticket_and_parts` notes its parts too. NULLs and repeats are allowed (skipped).
 *   Their guards are NOT EXISTS rather than INSERT OR IGNORE: inside a trigger fired by a
 *   foreign-key action (ON DELETE SET NULL) SQLite applies the action's ABORT policy to the
 *   trigger's statements, so OR IGNORE would not ignore.
 * - A trigger's WHEN skips its body once the ticket is noted: most rows a transaction writes
 *   belong to a ticket already noted (an import writes a ticket, then its text, comments, tags
 *   and links), and then a trigger costs one index probe.
 * - Many tickets at once (a tag's, a board's, a ticket's 32 neighbours or more) are noted
 *   set-wise through `marking`: their ids gathered once, then one statement per table. Per
 *   ticket this costs half of noting them one at a time, but each statement has a setup cost
 *   that a handful of tickets does not repay (docs/performance.md, "A write's unit of work").
 *   Nothing those statements write fires another set-wise note, so `marking` is never shared.
 *
 * The relation lists a neighbour shows (TicketRelation) carry a ticket's title, lane,
 * resolution and priority; a ticket's neighbours are its parent, its children, its blockers
 * both ways and its related tickets. Every column of `tickets` but `version` feeds the Ticket.
 */
export const TICKET_CHANGE_SCHEMA = `
CREATE TEMP TABLE IF NOT EXISTS changed_tickets (
  ticket_id  INTEGER NOT NULL,
  board_id   INTEGER NOT NULL,
  created    INTEGER NOT NULL,
  PRIMARY KEY (ticket_id, board_id)
) WITHOUT ROWID;

CREATE TEMP TABLE IF NOT EXISTS changed_parts (ticket_id INTEGER PRIMARY KEY);

CREATE TEMP TABLE IF NOT EXISTS marking (id INTEGER PRIMARY KEY);

CREATE TEMP VIEW IF NOT EXISTS note_ticket (id) AS SELECT NULL;

CREATE TEMP TRIGGER IF NOT EXISTS note_ticket_insert INSTEAD OF INSERT ON temp.note_ticket
WHEN NEW.id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM temp.changed_tickets WHERE ticket_id = NEW.id AND board_id = 0)
BEGIN
  UPDATE main.tickets SET version = version + 1 WHERE id = NEW.id;
  INSERT INTO temp.changed_tickets (ticket_id, board_id, created) VALUES (NEW.id, 0, 0);
END;

CREATE TEMP VIEW IF NOT EXISTS note_ticket_and_parts (id) AS SELECT NULL;

CREATE TEMP TRIGGER IF NOT EXISTS note_ticket_and_parts_insert
INSTEAD OF INSERT ON temp.note_ticket_and_parts
WHEN NEW.id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = NEW.id)
BEGIN
  INSERT INTO temp.note_ticket (id) VALUES (NEW.id);
  INSERT INTO temp.changed_parts (ticket_id) VALUES (NEW.id);
END;

-- The ticket rows.

CREATE TEMP TRIGGER IF NOT EXISTS tickets_changed_insert AFTER INSERT ON main.tickets
BEGIN
  INSERT INTO temp.changed_tickets (ticket_id, board_id, created) VALUES (NEW.id, 0, 1);
  INSERT INTO temp.changed_parts (ticket_id)
    SELECT NEW.id WHERE NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = NEW.id);
  INSERT INTO temp.note_ticket_and_parts (id) VALUES (NEW.parent_ticket_id);
END;

CREATE TEMP TRIGGER IF NOT EXISTS tickets_changed_update
AFTER UPDATE OF board_id, lane_id, parent_ticket_id, title, is_resolved, is_archived, priority,
  position, created_at, updated_at, not_before, checklist_done, checklist_total ON main.tickets
WHEN OLD.board_id IS NOT NEW.board_id OR OLD.lane_id IS NOT NEW.lane_id
  OR OLD.parent_ticket_id IS NOT NEW.parent_ticket_id OR OLD.title IS NOT NEW.title
  OR OLD.is_resolved IS NOT NEW.is_resolved OR OLD.is_archived IS NOT NEW.is_archived
  OR OLD.priority IS NOT NEW.priority OR OLD.position IS NOT NEW.position
  OR OLD.created_at IS NOT NEW.created_at OR OLD.updated_at IS NOT NEW.updated_at
  OR OLD.not_before IS NOT NEW.not_before OR OLD.checklist_done IS NOT NEW.checklist_done
  OR OLD.checklist_total IS NOT NEW.checklist_total
BEGIN
  INSERT INTO temp.note_ticket (id) VALUES (NEW.id);
  INSERT INTO temp.changed_parts (ticket_id)
    SELECT NEW.id
    WHERE (OLD.parent_ticket_id IS NOT NEW.parent_ticket_id OR OLD.board_id IS NOT NEW.board_id)
      AND NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = NEW.id);
END;

CREATE TEMP TRIGGER IF NOT EXISTS tickets_changed_board
AFTER UPDATE OF board_id ON main.tickets WHEN OLD.board_id <> NEW.board_id
BEGIN
  INSERT INTO temp.changed_tickets (ticket_id, board_id, created)
    SELECT NEW.id, OLD.board_id, 0
    WHERE NOT EXISTS (
      SELECT 1 FROM temp.changed_tickets WHERE ticket_id = NEW.id AND board_id = OLD.board_id);
END;

-- Both parents see a child come or go (an unchanged parent is noted once).
CREATE TEMP TRIGGER IF NOT EXISTS tickets_changed_parent
AFTER UPDATE OF parent_ticket_id ON main.tickets
BEGIN
  INSERT INTO temp.note_ticket_and_parts (id)
    VALUES (OLD.parent_ticket_id), (NEW.parent_ticket_id);
END;

-- A change of the fields its neighbours show, to a ticket with fewer than 32 neighbours
-- besides its parent (the 32nd row does not exist): each noted one at a time.
CREATE TEMP TRIGGER IF NOT EXISTS tickets_changed_few_neighbours
AFTER UPDATE OF title, lane_id, is_resolved, priority ON main.tickets
WHEN (OLD.title IS NOT NEW.title OR OLD.lane_id IS NOT NEW.lane_id
    OR OLD.is_resolved IS NOT NEW.is_resolved OR OLD.priority IS NOT NEW.priority)
  AND NOT EXISTS (
    SELECT 1 FROM main.ticket_blockers WHERE ticket_id = NEW.id
    UNION ALL SELECT 1 FROM main.ticket_blockers WHERE blocker_id = NEW.id
    UNION ALL SELECT 1 FROM main.ticket_related WHERE low_id = NEW.id
    UNION ALL SELECT 1 FROM main.ticket_related WHERE high_id = NEW.id
    UNION ALL SELECT 1 FROM main.tickets WHERE parent_ticket_id = NEW.id
    LIMIT 1 OFFSET 31)
BEGIN
  INSERT INTO temp.note_ticket_and_parts (id)
    SELECT blocker_id FROM main.ticket_blockers WHERE ticket_id = NEW.id
    UNION ALL SELECT ticket_id FROM main.ticket_blockers WHERE blocker_id = NEW.id
    UNION ALL SELECT high_id FROM main.ticket_related WHERE low_id = NEW.id
    UNION ALL SELECT low_id FROM main.ticket_related WHERE high_id = NEW.id
    UNION ALL SELECT id FROM main.tickets WHERE parent_ticket_id = NEW.id
    UNION ALL SELECT NEW.parent_ticket_id;
END;

-- The same for a ticket with 32 neighbours or more besides its parent: set-wise.
CREATE TEMP TRIGGER IF NOT EXISTS tickets_changed_many_neighbours
AFTER UPDATE OF title, lane_id, is_resolved, priority ON main.tickets
WHEN (OLD.title IS NOT NEW.title OR OLD.lane_id IS NOT NEW.lane_id
    OR OLD.is_resolved IS NOT NEW.is_resolved OR OLD.priority IS NOT NEW.priority)
  AND EXISTS (
    SELECT 1 FROM main.ticket_blockers WHERE ticket_id = NEW.id
    UNION ALL SELECT 1 FROM main.ticket_blockers WHERE blocker_id = NEW.id
    UNION ALL SELECT 1 FROM main.ticket_related WHERE low_id = NEW.id
    UNION ALL SELECT 1 FROM main.ticket_related WHERE high_id = NEW.id
    UNION ALL SELECT 1 FROM main.tickets WHERE parent_ticket_id = NEW.id
    LIMIT 1 OFFSET 31)
BEGIN
  INSERT INTO temp.marking (id)
    SELECT blocker_id FROM main.ticket_blockers WHERE ticket_id = NEW.id
    UNION SELECT ticket_id FROM main.ticket_blockers WHERE blocker_id = NEW.id
    UNION SELECT high_id FROM main.ticket_related WHERE low_id = NEW.id
    UNION SELECT low_id FROM main.ticket_related WHERE high_id = NEW.id
    UNION SELECT id FROM main.tickets WHERE parent_ticket_id = NEW.id
    UNION SELECT NEW.parent_ticket_id WHERE NEW.parent_ticket_id IS NOT NULL;
  UPDATE main.tickets SET version = version + 1
    WHERE id IN (SELECT id FROM temp.marking)
      AND id NOT IN (SELECT ticket_id FROM temp.changed_tickets WHERE board_id = 0);
  INSERT INTO temp.changed_tickets (ticket_id, board_id, created)
    SELECT m.id, 0, 0 FROM temp.marking m
    WHERE NOT EXISTS (SELECT 1 FROM temp.changed_tickets WHERE ticket_id = m.id AND board_id = 0);
  INSERT INTO temp.changed_parts (ticket_id)
    SELECT m.id FROM temp.marking m
    WHERE NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = m.id);
  DELETE FROM temp.marking;
END;

CREATE TEMP TRIGGER IF NOT EXISTS tickets_changed_delete AFTER DELETE ON main.tickets
BEGIN
  INSERT INTO temp.changed_tickets (ticket_id, board_id, created)
    SELECT OLD.id, OLD.board_id, 0
    WHERE NOT EXISTS (
      SELECT 1 FROM temp.changed_tickets WHERE ticket_id = OLD.id AND board_id = OLD.board_id);
  INSERT INTO temp.changed_parts (ticket_id)
    SELECT OLD.id WHERE NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = OLD.id);
  INSERT INTO temp.note_ticket_and_parts (id) VALUES (OLD.parent_ticket_id);
END;

-- Rows of one ticket whose Ticket shows them in its parts: its text (bodies), comments, tags
-- (a tag link's reason is not shown: no update trigger), external references.

CREATE TEMP TRIGGER IF NOT EXISTS ticket_texts_changed_insert AFTER INSERT ON main.ticket_texts
WHEN NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = NEW.ticket_id)
BEGIN INSERT INTO temp.note_ticket_and_parts (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS ticket_texts_changed_update AFTER UPDATE ON main.ticket_texts
WHEN NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = NEW.ticket_id)
BEGIN INSERT INTO temp.note_ticket_and_parts (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS ticket_texts_changed_delete AFTER DELETE ON main.ticket_texts
WHEN NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = OLD.ticket_id)
BEGIN INSERT INTO temp.note_ticket_and_parts (id) VALUES (OLD.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS comments_changed_insert AFTER INSERT ON main.comments
WHEN NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = NEW.ticket_id)
BEGIN INSERT INTO temp.note_ticket_and_parts (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS comments_changed_update AFTER UPDATE ON main.comments
WHEN NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = NEW.ticket_id)
BEGIN INSERT INTO temp.note_ticket_and_parts (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS comments_changed_delete AFTER DELETE ON main.comments
WHEN NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = OLD.ticket_id)
BEGIN INSERT INTO temp.note_ticket_and_parts (id) VALUES (OLD.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS ticket_tags_changed_insert AFTER INSERT ON main.ticket_tags
WHEN NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = NEW.ticket_id)
BEGIN INSERT INTO temp.note_ticket_and_parts (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS ticket_tags_changed_delete AFTER DELETE ON main.ticket_tags
WHEN NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = OLD.ticket_id)
BEGIN INSERT INTO temp.note_ticket_and_parts (id) VALUES (OLD.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS external_references_changed_insert
AFTER INSERT ON main.external_references
WHEN NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = NEW.ticket_id)
BEGIN INSERT INTO temp.note_ticket_and_parts (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS external_references_changed_update
AFTER UPDATE ON main.external_references
WHEN NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = NEW.ticket_id)
BEGIN INSERT INTO temp.note_ticket_and_parts (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS external_references_changed_delete
AFTER DELETE ON main.external_references
WHEN NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = OLD.ticket_id)
BEGIN INSERT INTO temp.note_ticket_and_parts (id) VALUES (OLD.ticket_id); END;

-- Rows of one ticket the full Ticket reads anew each time (its remote link, its claim, its
-- asks' count): the ticket is noted, its parts stay.

CREATE TEMP TRIGGER IF NOT EXISTS remote_links_changed_insert AFTER INSERT ON main.remote_links
WHEN NOT EXISTS (
  SELECT 1 FROM temp.changed_tickets WHERE ticket_id = NEW.ticket_id AND board_id = 0)
BEGIN INSERT INTO temp.note_ticket (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS remote_links_changed_update AFTER UPDATE ON main.remote_links
WHEN NOT EXISTS (
  SELECT 1 FROM temp.changed_tickets WHERE ticket_id = NEW.ticket_id AND board_id = 0)
BEGIN INSERT INTO temp.note_ticket (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS remote_links_changed_delete AFTER DELETE ON main.remote_links
WHEN NOT EXISTS (
  SELECT 1 FROM temp.changed_tickets WHERE ticket_id = OLD.ticket_id AND board_id = 0)
BEGIN INSERT INTO temp.note_ticket (id) VALUES (OLD.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS ticket_claims_changed_insert AFTER INSERT ON main.ticket_claims
WHEN NOT EXISTS (
  SELECT 1 FROM temp.changed_tickets WHERE ticket_id = NEW.ticket_id AND board_id = 0)
BEGIN INSERT INTO temp.note_ticket (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS ticket_claims_changed_update AFTER UPDATE ON main.ticket_claims
WHEN NOT EXISTS (
  SELECT 1 FROM temp.changed_tickets WHERE ticket_id = NEW.ticket_id AND board_id = 0)
BEGIN INSERT INTO temp.note_ticket (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS ticket_claims_changed_delete AFTER DELETE ON main.ticket_claims
WHEN NOT EXISTS (
  SELECT 1 FROM temp.changed_tickets WHERE ticket_id = OLD.ticket_id AND board_id = 0)
BEGIN INSERT INTO temp.note_ticket (id) VALUES (OLD.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS asks_changed_insert AFTER INSERT ON main.asks
WHEN NOT EXISTS (
  SELECT 1 FROM temp.changed_tickets WHERE ticket_id = NEW.ticket_id AND board_id = 0)
BEGIN INSERT INTO temp.note_ticket (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS asks_changed_update AFTER UPDATE ON main.asks
WHEN NOT EXISTS (
  SELECT 1 FROM temp.changed_tickets WHERE ticket_id = NEW.ticket_id AND board_id = 0)
BEGIN INSERT INTO temp.note_ticket (id) VALUES (NEW.ticket_id); END;

CREATE TEMP TRIGGER IF NOT EXISTS asks_changed_delete AFTER DELETE ON main.asks
WHEN NOT EXISTS (
  SELECT 1 FROM temp.changed_tickets WHERE ticket_id = OLD.ticket_id AND board_id = 0)
BEGIN INSERT INTO temp.note_ticket (id) VALUES (OLD.ticket_id); END;

-- Links between two tickets: both sides show them.

CREATE TEMP TRIGGER IF NOT EXISTS ticket_blockers_changed_insert
AFTER INSERT ON main.ticket_blockers
BEGIN
  INSERT INTO temp.note_ticket_and_parts (id) VALUES (NEW.ticket_id), (NEW.blocker_id);
END;

CREATE TEMP TRIGGER IF NOT EXISTS ticket_blockers_changed_delete
AFTER DELETE ON main.ticket_blockers
BEGIN
  INSERT INTO temp.note_ticket_and_parts (id) VALUES (OLD.ticket_id), (OLD.blocker_id);
END;

CREATE TEMP TRIGGER IF NOT EXISTS ticket_related_changed_insert
AFTER INSERT ON main.ticket_related
BEGIN
  INSERT INTO temp.note_ticket_and_parts (id) VALUES (NEW.low_id), (NEW.high_id);
END;

CREATE TEMP TRIGGER IF NOT EXISTS ticket_related_changed_delete
AFTER DELETE ON main.ticket_related
BEGIN
  INSERT INTO temp.note_ticket_and_parts (id) VALUES (OLD.low_id), (OLD.high_id);
END;

-- Names every ticket of a tag or of a board shows: all of them, set-wise.

CREATE TEMP TRIGGER IF NOT EXISTS tags_changed AFTER UPDATE OF name, color ON main.tags
WHEN OLD.name IS NOT NEW.name OR OLD.color IS NOT NEW.color
BEGIN
  INSERT INTO temp.marking (id) SELECT DISTINCT ticket_id FROM main.ticket_tags WHERE tag_id = NEW.id;
  UPDATE main.tickets SET version = version + 1
    WHERE id IN (SELECT id FROM temp.marking)
      AND id NOT IN (SELECT ticket_id FROM temp.changed_tickets WHERE board_id = 0);
  INSERT INTO temp.changed_tickets (ticket_id, board_id, created)
    SELECT m.id, 0, 0 FROM temp.marking m
    WHERE NOT EXISTS (SELECT 1 FROM temp.changed_tickets WHERE ticket_id = m.id AND board_id = 0);
  INSERT INTO temp.changed_parts (ticket_id)
    SELECT m.id FROM temp.marking m
    WHERE NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = m.id);
  DELETE FROM temp.marking;
END;

CREATE TEMP TRIGGER IF NOT EXISTS boards_renamed AFTER UPDATE OF name ON main.boards
WHEN OLD.name IS NOT NEW.name
BEGIN
  INSERT INTO temp.marking (id) SELECT id FROM main.tickets WHERE board_id = NEW.id;
  UPDATE main.tickets SET version = version + 1
    WHERE id IN (SELECT id FROM temp.marking)
      AND id NOT IN (SELECT ticket_id FROM temp.changed_tickets WHERE board_id = 0);
  INSERT INTO temp.changed_tickets (ticket_id, board_id, created)
    SELECT m.id, 0, 0 FROM temp.marking m
    WHERE NOT EXISTS (SELECT 1 FROM temp.changed_tickets WHERE ticket_id = m.id AND board_id = 0);
  INSERT INTO temp.changed_parts (ticket_id)
    SELECT m.id FROM temp.marking m
    WHERE NOT EXISTS (SELECT 1 FROM temp.changed_parts WHERE ticket_id = m.id);
  DELETE FROM temp.marking;
END;
`;
