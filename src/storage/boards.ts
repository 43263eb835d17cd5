import type { Board } from "../domain/model.js";
import type { Db } from "./database.js";

// Selected under the names of the model, so that a row is the record as it is answered.
const COLUMNS = "id, name, position, created_at AS createdAt, updated_at AS updatedAt";

export function boardStore(db: Db) {
  const all = db.prepare<[], Board>(`SELECT ${COLUMNS} FROM boards ORDER BY position, id`);
  const byId = db.prepare<[number], Board>(`SELECT ${COLUMNS} FROM boards WHERE id = ?`);
  const insert = db.prepare<[string, string, string]>(
    `INSERT INTO boards (name, position, created_at, updated_at)
     VALUES (?, (SELECT COALESCE(MAX(position), -1) + 1 FROM boards), ?, ?)`,
  );
  const rename = db.prepare<[string, string, number]>(
    "UPDATE boards SET name = ?, updated_at = ? WHERE id = ?",
  );
  const touch = db.prepare<[string, number]>("UPDATE boards SET updated_at = ? WHERE id = ?");
  const remove = db.prepare<[number]>("DELETE FROM boards WHERE id = ?");
  // Boards after a deleted one move up by one, so positions stay 0..n-1 and nothing else moves.
  const closeGap = db.prepare<[number]>(
    "UPDATE boards SET position = position - 1 WHERE position > ?",
  );
  const setPosition = db.prepare<[number, number]>("UPDATE boards SET position = ? WHERE id = ?");
  const ids = db.prepare<[], { id: number }>("SELECT id FROM boards ORDER BY position, id");

  return {
    list: (): Board[] => all.all(),
    get: (id: number): Board | undefined => byId.get(id),
    insert: (name: string, at: string): number => Number(insert.run(name, at, at).lastInsertRowid),
    rename: (id: number, name: string, at: string): void => {
      rename.run(name, at, id);
    },
    touch: (id: number, at: string): void => {
      touch.run(at, id);
    },
    /** Deletes the board (its lanes, tags and tickets cascade) and closes its position's gap. */
    remove: (id: number): void => {
      const row = byId.get(id);
      if (!row) return;
      remove.run(id);
      closeGap.run(row.position);
    },
    ids: (): number[] => ids.all().map((row) => row.id),
    setPosition: (id: number, position: number): void => {
      setPosition.run(position, id);
    },
  };
}

export type BoardStore = ReturnType<typeof boardStore>;
