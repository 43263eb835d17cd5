/**
 * The trash (docs/api.md, "The trash"): deleted boards, lanes, tags, tickets and comments are kept
 * here for a while so they can be restored with the same ids. Each entry holds a JSON snapshot of
 * the rows the delete removed (storage/trash.ts); the live tables keep no trace of deleted objects,
 * so no query of theirs needs to learn to skip them (docs/decisions.md, "Trash").
 *
 * `board_id` has no foreign key: a board's entry outlives the board, and entries of its tickets
 * outlive it too (restoring them asks for the board first). AUTOINCREMENT: an entry id is never
 * given twice, so a late restore or erase cannot reach another entry.
 */
export const trashSchema = `
CREATE TABLE trash (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  kind        TEXT NOT NULL CHECK (kind IN ('board', 'lane', 'tag', 'ticket', 'comment')),
  object_id   INTEGER NOT NULL,
  board_id    INTEGER NOT NULL,
  label       TEXT NOT NULL,
  deleted_at  TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  snapshot    TEXT NOT NULL
);
CREATE INDEX trash_by_board ON trash(board_id, deleted_at, id);
CREATE INDEX trash_by_expiry ON trash(expires_at);
CREATE INDEX trash_by_object ON trash(kind, object_id);
`;
