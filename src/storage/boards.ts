import type { Board } from "../domain/model.js";
import type { Db } from "./database.js";

interface BoardRow {
  id: number;
  name: string;
  position: number;
  created_at: string;
  updated_at: string;
}

const toBoard = (row: BoardRow): Board => ({
  id: row.id,
  name: row.name,
  position: row.position,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const COLUMNS = "id, name, position, created_at, updated_at";

export function boardStore(db: Db) {
  const all = db.prepare<[], BoardRow>(`SELECT ${COLUMNS} FROM boards ORDER BY position, id`);
  const byId = db.prepare<[number], BoardRow>(`SELECT ${COLUMNS} FROM boards WHERE id = ?`);
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
    list: (): Board[] => all.all().map(toBoard),
    get: (id: number): Board | undefined => {
      const row = byId.get(id);
      return row && toBoard(row);
    },
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
