import type { Tag } from "../domain/model.js";
import type { Db } from "./database.js";

// Selected under the names of the model, so that a row is the record as it is answered.
const COLUMNS = "id, board_id AS boardId, name, color";

export function tagStore(db: Db) {
  const byBoard = db.prepare<[number], Tag>(
    `SELECT ${COLUMNS} FROM tags WHERE board_id = ? ORDER BY name_key, id`,
  );
  const byId = db.prepare<[number], Tag>(`SELECT ${COLUMNS} FROM tags WHERE id = ?`);
  const byKey = db.prepare<[number, string], Tag>(
    `SELECT ${COLUMNS} FROM tags WHERE board_id = ? AND name_key = ?`,
  );
  const insert = db.prepare<[number, string, string, string]>(
    "INSERT INTO tags (board_id, name, name_key, color) VALUES (?, ?, ?, ?)",
  );
  const update = db.prepare<[string, string, string, number]>(
    "UPDATE tags SET name = ?, name_key = ?, color = ? WHERE id = ?",
  );
  const remove = db.prepare<[number]>("DELETE FROM tags WHERE id = ?");
  const ticketsOf = db.prepare<[number], { ticket_id: number }>(
    "SELECT ticket_id FROM ticket_tags WHERE tag_id = ?",
  );

  return {
    listByBoard: (boardId: number): Tag[] => byBoard.all(boardId),
    get: (id: number): Tag | undefined => byId.get(id),
    findByKey: (boardId: number, key: string): Tag | undefined => byKey.get(boardId, key),
    insert: (boardId: number, name: string, key: string, color: string): number =>
      Number(insert.run(boardId, name, key, color).lastInsertRowid),
    update: (id: number, name: string, key: string, color: string): void => {
      update.run(name, key, color, id);
    },
    remove: (id: number): void => {
      remove.run(id);
    },
    ticketIdsWithTag: (id: number): number[] => ticketsOf.all(id).map((row) => row.ticket_id),
  };
}

export type TagStore = ReturnType<typeof tagStore>;
