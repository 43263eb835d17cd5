import type { Lane } from "../domain/model.js";
import type { Db } from "./database.js";

// Selected under the names of the model, so that a row is the record as it is answered.
const COLUMNS = "id, board_id AS boardId, name, position, wip_limit AS wipLimit";

export function laneStore(db: Db) {
  const byBoard = db.prepare<[number], Lane>(
    `SELECT ${COLUMNS} FROM lanes WHERE board_id = ? ORDER BY position, id`,
  );
  const orderOf = db
    .prepare<[number], string | null>(
      "SELECT group_concat(id, ',' ORDER BY position, id) FROM lanes WHERE board_id = ?",
    )
    .pluck();
  const byId = db.prepare<[number], Lane>(`SELECT ${COLUMNS} FROM lanes WHERE id = ?`);
  const insert = db.prepare<[number, string, number | null, number]>(
    `INSERT INTO lanes (board_id, name, wip_limit, position)
     VALUES (?, ?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM lanes WHERE board_id = ?))`,
  );
  const rename = db.prepare<[string, number]>("UPDATE lanes SET name = ? WHERE id = ?");
  const setWipLimit = db.prepare<[number | null, number]>(
    "UPDATE lanes SET wip_limit = ? WHERE id = ?",
  );
  const setPosition = db.prepare<[number, number]>("UPDATE lanes SET position = ? WHERE id = ?");
  const remove = db.prepare<[number]>("DELETE FROM lanes WHERE id = ?");
  const ticketCount = db.prepare<[number], { n: number }>(
    "SELECT COUNT(*) AS n FROM tickets WHERE lane_id = ?",
  );

  return {
    listByBoard: (boardId: number): Lane[] => byBoard.all(boardId),
    /** A board's lane ids in board order, joined with "," ("" without lanes): one text to compare. */
    orderOf: (boardId: number): string => orderOf.get(boardId) ?? "",
    get: (id: number): Lane | undefined => byId.get(id),
    insert: (boardId: number, name: string, wipLimit: number | null = null): number =>
      Number(insert.run(boardId, name, wipLimit, boardId).lastInsertRowid),
    rename: (id: number, name: string): void => {
      rename.run(name, id);
    },
    setWipLimit: (id: number, wipLimit: number | null): void => {
      setWipLimit.run(wipLimit, id);
    },
    setPosition: (id: number, position: number): void => {
      setPosition.run(position, id);
    },
    remove: (id: number): void => {
      remove.run(id);
    },
    ticketCount: (id: number): number => ticketCount.get(id)?.n ?? 0,
  };
}

export type LaneStore = ReturnType<typeof laneStore>;
