import { entryOf, isFlowEntry, REBUILD_TRIGGERS } from "./012-flow-histories.js";

/**
 * A revision per flow history (docs/api.md, "Insights"): insights keep each ticket's parsed history in memory
 * (storage/flow-history.ts) and read again only the histories whose revision changed since, so
 * a request after a few writes parses a few tickets instead of the board.
 *
 * The revision is a random 53-bit stamp, drawn anew by every change of the row: the insert
 * trigger's append draws one, and a rebuild (delete, then insert) draws one through the column's
 * default. A counter would not do: a rebuild removes the row and starts it again, so a counter
 * could come back to a value a reader had already kept with other entries. Two draws agree
 * with odds of 2^-53. `random() >> 11` keeps it within what a JavaScript number holds exactly.
 *
 * SQLite cannot add a column whose default is an expression, so the table is built again; its
 * triggers (on `activity`, writing here) are made again with the same names, the append now
 * drawing a revision.
 */
export const flowHistoryRevisionsSchema = `
DROP TRIGGER flow_histories_insert;
DROP TRIGGER flow_histories_delete;
DROP TRIGGER flow_histories_update;

CREATE TABLE flow_histories_next (
  ticket_id  INTEGER PRIMARY KEY,
  entries    TEXT NOT NULL,
  revision   INTEGER NOT NULL DEFAULT (random() >> 11)
);
INSERT INTO flow_histories_next (ticket_id, entries) SELECT ticket_id, entries FROM flow_histories;
DROP TABLE flow_histories;
ALTER TABLE flow_histories_next RENAME TO flow_histories;

CREATE TRIGGER flow_histories_insert AFTER INSERT ON activity
WHEN ${isFlowEntry("NEW")}
BEGIN
  INSERT INTO flow_histories (ticket_id, entries) VALUES (NEW.subject_ticket_id, ${entryOf("NEW")})
  ON CONFLICT (ticket_id) DO UPDATE
    SET entries = entries || ',' || excluded.entries, revision = random() >> 11;
END;

${REBUILD_TRIGGERS}`;
