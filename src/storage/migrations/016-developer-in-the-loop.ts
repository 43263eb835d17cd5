/**
 * The developer in the loop (docs/api.md, "Asks", "Not before", "Templates", "Checklists"):
 *
 * - `asks`: a question an actor puts to the people on a board about one ticket. The ask follows
 *   its ticket (no board column: a ticket moved to another board takes its asks along), goes
 *   with it when the ticket is deleted (the trash snapshot keeps it) and keeps its id for good
 *   (AUTOINCREMENT). `options_json` is a JSON array of strings; the answer columns are NULL while
 *   the ask is open. The partial index serves the inbox and the ready rule ("an open blocking
 *   ask holds its ticket") without reading answered asks.
 * - `templates`: a board's named set of tickets made in one step. `name_key` is the name folded
 *   as other names are (domain/names.ts), unique per board; `tickets_json` the template's tickets
 *   with their defaults filled.
 * - `tickets.not_before`: the moment before which a ticket is not ready, ISO 8601 UTC with
 *   milliseconds like every stored time (text order is time order), or NULL.
 *
 * Checklist counts are derived from a ticket's body; they are added by a later migration that
 * can parse existing bodies.
 */
export const developerInTheLoopSchema = `
CREATE TABLE asks (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  ticket_id      INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
  actor          TEXT NOT NULL,
  question       TEXT NOT NULL,
  question_html  TEXT NOT NULL,
  options_json   TEXT NOT NULL DEFAULT '[]',
  blocking       INTEGER NOT NULL DEFAULT 1 CHECK (blocking IN (0, 1)),
  status         TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'withdrawn')),
  answer_text    TEXT,
  answer_html    TEXT,
  answer_option  TEXT,
  answered_by    TEXT,
  created_at     TEXT NOT NULL,
  answered_at    TEXT
);
CREATE INDEX asks_by_ticket ON asks(ticket_id, id);
CREATE INDEX asks_open ON asks(id, ticket_id, blocking) WHERE status = 'open';

CREATE TABLE templates (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  board_id      INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  name_key      TEXT NOT NULL,
  description   TEXT NOT NULL DEFAULT '',
  tickets_json  TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL,
  UNIQUE (board_id, name_key)
);

ALTER TABLE tickets ADD COLUMN not_before TEXT;
`;
