/**
 * Flow (docs/api.md, "Lanes"): lanes carry an optional WIP limit (null: none), and insights find
 * the tickets that moved away from a board by an index on the move entries' `fromBoardId` (a moved
 * ticket's history follows it, so its rows carry the new board's id; only the move entry names
 * the board it left). The tickets still on a board are found through `tickets_by_board`, and
 * their histories through `activity_by_subject`.
 */
export const flowSchema = `
ALTER TABLE lanes ADD COLUMN wip_limit INTEGER;

CREATE INDEX activity_moves_from_board
  ON activity(json_extract(details_json, '$.fromBoardId'))
  WHERE action = 'ticket_moved_board';
`;
