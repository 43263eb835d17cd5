/**
 * The whole data model of the contract, laid down at once so later work adds queries, not
 * redesigns. Conventions: ids are INTEGER PRIMARY KEY (rowid aliases); timestamps are ISO 8601
 * text written by the application (so they round-trip exactly through export/import); flags are
 * 0/1 integers; free-form objects are JSON text.
 *
 * `*_key` and `search_text` columns hold case-folded copies computed in JavaScript, because
 * SQLite's own lower() and LIKE only fold ASCII and the contract asks for Unicode matching.
 */
export const initialSchema = `
CREATE TABLE boards (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL,
  position    INTEGER NOT NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);

CREATE TABLE lanes (
  id        INTEGER PRIMARY KEY,
  board_id  INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  name      TEXT NOT NULL,
  position  INTEGER NOT NULL
);
CREATE INDEX lanes_by_board ON lanes(board_id, position, id);

CREATE TABLE tags (
  id        INTEGER PRIMARY KEY,
  board_id  INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  name      TEXT NOT NULL,
  name_key  TEXT NOT NULL,
  color     TEXT NOT NULL
);
CREATE UNIQUE INDEX tags_unique_name ON tags(board_id, name_key);

CREATE TABLE tickets (
  id                INTEGER PRIMARY KEY,
  board_id          INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  -- NO ACTION (checked at statement end) so deleting a board can cascade to lanes and tickets.
  lane_id           INTEGER NOT NULL REFERENCES lanes(id),
  parent_ticket_id  INTEGER REFERENCES tickets(id) ON DELETE SET NULL,
  title             TEXT NOT NULL,
  is_resolved       INTEGER NOT NULL DEFAULT 0,
  is_archived       INTEGER NOT NULL DEFAULT 0,
  priority          INTEGER NOT NULL DEFAULT 2 CHECK (priority BETWEEN 1 AND 4),
  position          INTEGER NOT NULL,
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL
);
-- position is in one index only, so a lane shift rewrites as few index pages as it can; board
-- order sorts anyway (lane positions live in lanes), and a board's rows in any order are all a
-- board-wide read needs (docs/performance.md).
CREATE INDEX tickets_by_board ON tickets(board_id);
CREATE INDEX tickets_by_lane ON tickets(lane_id, is_archived, position, id);
CREATE INDEX tickets_by_parent ON tickets(parent_ticket_id) WHERE parent_ticket_id IS NOT NULL;

-- The large text of a ticket, one row per ticket, apart from tickets so that lists, moves and
-- flag changes read and rewrite rows of ~100 bytes instead of bodies of kilobytes (a position
-- shift rewrites every ticket after it in the lane). Written only when the title or body
-- changes. search_text (folded title and body) comes first: a search reads it without walking
-- the overflow pages of the bodies stored after it.
CREATE TABLE ticket_texts (
  ticket_id      INTEGER PRIMARY KEY REFERENCES tickets(id) ON DELETE CASCADE,
  search_text    TEXT NOT NULL,
  body_markdown  TEXT NOT NULL,
  body_html      TEXT NOT NULL
);

CREATE TABLE comments (
  id                 INTEGER PRIMARY KEY,
  ticket_id          INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
  body_markdown      TEXT NOT NULL,
  body_html          TEXT NOT NULL,
  created_at         TEXT NOT NULL,
  updated_at         TEXT NOT NULL,
  sync_status        TEXT NOT NULL DEFAULT 'local_only'
                     CHECK (sync_status IN ('local_only', 'pushing', 'pushed', 'push_failed')),
  remote_comment_id  TEXT,
  pushed_at          TEXT,
  last_error         TEXT,
  sync_created_at    TEXT NOT NULL,
  sync_updated_at    TEXT NOT NULL
);
CREATE INDEX comments_by_ticket ON comments(ticket_id, created_at, id);

CREATE TABLE ticket_tags (
  ticket_id          INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
  tag_id             INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  reason             TEXT,
  details_json       TEXT,
  reason_comment_id  INTEGER REFERENCES comments(id) ON DELETE SET NULL,
  attached_at        TEXT,
  updated_at         TEXT,
  PRIMARY KEY (ticket_id, tag_id)
) WITHOUT ROWID;
CREATE INDEX ticket_tags_by_tag ON ticket_tags(tag_id, ticket_id);

-- ticket_id is blocked by blocker_id.
CREATE TABLE ticket_blockers (
  ticket_id   INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
  blocker_id  INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
  PRIMARY KEY (ticket_id, blocker_id),
  CHECK (ticket_id <> blocker_id)
) WITHOUT ROWID;
CREATE INDEX ticket_blockers_by_blocker ON ticket_blockers(blocker_id, ticket_id);

-- Symmetric: stored once with low_id < high_id.
CREATE TABLE ticket_related (
  low_id   INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
  high_id  INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
  PRIMARY KEY (low_id, high_id),
  CHECK (low_id < high_id)
) WITHOUT ROWID;
CREATE INDEX ticket_related_by_high ON ticket_related(high_id, low_id);

-- Activity outlives its ticket (readable after deletion), so subject_ticket_id has no foreign key;
-- ticket_id is the live link and becomes NULL when the ticket is deleted.
CREATE TABLE activity (
  id                 INTEGER PRIMARY KEY,
  board_id           INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  ticket_id          INTEGER REFERENCES tickets(id) ON DELETE SET NULL,
  subject_ticket_id  INTEGER NOT NULL,
  action             TEXT NOT NULL,
  message            TEXT NOT NULL,
  details_json       TEXT NOT NULL DEFAULT '{}',
  created_at         TEXT NOT NULL
);
CREATE INDEX activity_by_subject ON activity(subject_ticket_id, created_at, id);

CREATE TABLE ticket_events (
  id          INTEGER PRIMARY KEY,
  ticket_id   INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
  source      TEXT NOT NULL,
  kind        TEXT NOT NULL,
  title       TEXT NOT NULL,
  summary     TEXT,
  severity    TEXT,
  icon        TEXT,
  data_json   TEXT NOT NULL DEFAULT '{}',
  created_at  TEXT NOT NULL
);
CREATE INDEX ticket_events_by_ticket ON ticket_events(ticket_id, created_at, id);

CREATE TABLE external_references (
  id             INTEGER PRIMARY KEY,
  ticket_id      INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
  kind           TEXT NOT NULL,
  provider       TEXT NOT NULL,
  instance_url   TEXT NOT NULL,
  resource_type  TEXT NOT NULL DEFAULT 'issue',
  project_key    TEXT NOT NULL,
  issue_key      TEXT NOT NULL,
  display_ref    TEXT NOT NULL,
  url            TEXT NOT NULL,
  title          TEXT,
  search_text    TEXT NOT NULL DEFAULT '',
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  UNIQUE (ticket_id, kind)
);
CREATE INDEX external_references_by_issue ON external_references(provider, issue_key);

-- A ticket tracks at most one remote issue, and a remote issue is tracked by at most one ticket.
CREATE TABLE remote_links (
  ticket_id          INTEGER PRIMARY KEY REFERENCES tickets(id) ON DELETE CASCADE,
  provider           TEXT NOT NULL,
  instance_url       TEXT NOT NULL,
  resource_type      TEXT NOT NULL DEFAULT 'issue',
  project_key        TEXT NOT NULL,
  issue_key          TEXT NOT NULL,
  display_ref        TEXT NOT NULL,
  url                TEXT NOT NULL,
  title              TEXT NOT NULL,
  body_markdown      TEXT NOT NULL,
  body_html          TEXT NOT NULL,
  state              TEXT,
  remote_updated_at  TEXT,
  search_text        TEXT NOT NULL DEFAULT '',
  last_synced_at     TEXT NOT NULL,
  created_at         TEXT NOT NULL,
  updated_at         TEXT NOT NULL,
  UNIQUE (provider, instance_url, resource_type, project_key, issue_key)
);
CREATE INDEX remote_links_by_issue ON remote_links(provider, issue_key);
`;
