/**
 * Flow (CONTRACT.md §14): lanes carry an optional WIP limit (null: none), and the activity
 * history gets the two indexes insights read it by: a board's entries in time order, and the
 * entries of tickets that moved away from a board (their history follows them, so their rows
 * carry the new board's id; only the move entry names the board they left).
 */
export const flowSchema = `
ALTER TABLE lanes ADD COLUMN wip_limit INTEGER;

CREATE INDEX activity_by_board ON activity(board_id, created_at, id);
CREATE INDEX activity_moves_from_board
  ON activity(json_extract(details_json, '$.fromBoardId'))
  WHERE action = 'ticket_moved_board';
`;
