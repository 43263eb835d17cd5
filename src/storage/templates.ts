import type { Db } from "./database.js";

/**
 * Templates (migration 016): a board's named sets of tickets. The tickets are kept as one JSON
 * text (`tickets_json`, their defaults filled); the domain (domain/templates/) parses and checks
 * it, this store only reads and writes rows. `name_key` is the folded name, unique per board.
 */

/** A template as stored: its tickets still as JSON text. */
export interface TemplateRow {
  id: number;
  boardId: number;
  name: string;
  description: string;
  ticketsJson: string;
  createdAt: string;
  updatedAt: string;
}

/** What a write gives: everything but the id and the board. */
export interface TemplateWrite {
  name: string;
  nameKey: string;
  description: string;
  ticketsJson: string;
  createdAt: string;
  updatedAt: string;
}

// Selected under the names of the model, so that a row is the record as it is answered.
const COLUMNS =
  "id, board_id AS boardId, name, description, tickets_json AS ticketsJson, " +
  "created_at AS createdAt, updated_at AS updatedAt";

export function templateStore(db: Db) {
  // By name ignoring case (the folded key), then id: the order of GET /api/boards/{id}/templates.
  const byBoard = db.prepare<[number], TemplateRow>(
    `SELECT ${COLUMNS} FROM templates WHERE board_id = ? ORDER BY name_key, id`,
  );
  const byId = db.prepare<[number], TemplateRow>(`SELECT ${COLUMNS} FROM templates WHERE id = ?`);
  const byKey = db.prepare<[number, string], TemplateRow>(
    `SELECT ${COLUMNS} FROM templates WHERE board_id = ? AND name_key = ?`,
  );
  const insert = db.prepare<[number, string, string, string, string, string, string]>(
    `INSERT INTO templates (board_id, name, name_key, description, tickets_json, created_at,
       updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const update = db.prepare<[string, string, string, string, string, number]>(
    `UPDATE templates SET name = ?, name_key = ?, description = ?, tickets_json = ?,
       updated_at = ? WHERE id = ?`,
  );
  const remove = db.prepare<[number]>("DELETE FROM templates WHERE id = ?");

  return {
    listByBoard: (boardId: number): TemplateRow[] => byBoard.all(boardId),
    get: (id: number): TemplateRow | undefined => byId.get(id),
    findByKey: (boardId: number, key: string): TemplateRow | undefined => byKey.get(boardId, key),
    insert: (boardId: number, write: TemplateWrite): number =>
      Number(
        insert.run(
          boardId,
          write.name,
          write.nameKey,
          write.description,
          write.ticketsJson,
          write.createdAt,
          write.updatedAt,
        ).lastInsertRowid,
      ),
    /** Rewrites every field but `createdAt`. */
    update(id: number, write: Omit<TemplateWrite, "createdAt">): void {
      update.run(
        write.name,
        write.nameKey,
        write.description,
        write.ticketsJson,
        write.updatedAt,
        id,
      );
    },
    remove(id: number): void {
      remove.run(id);
    },
  };
}

export type TemplateStore = ReturnType<typeof templateStore>;
