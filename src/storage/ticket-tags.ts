import type { Tag } from "../domain/model.js";
import type { Db } from "./database.js";
import { IN_IDS } from "./id-lists.js";

/**
 * Which tags a ticket carries (`ticket_tags`). Links also hold reason metadata written by the
 * tag-reason endpoints; the functions here keep those columns for links that stay.
 */
export function ticketTagStore(db: Db) {
  // Raw rows [id, board_id, name, color]: an array is built without a lookup per column.
  const tagsOfTicket = db
    .prepare<[number], [number, number, string, string]>(
      `SELECT g.id, g.board_id, g.name, g.color FROM ticket_tags tt JOIN tags g ON g.id = tt.tag_id
       WHERE tt.ticket_id = ? ORDER BY g.name_key, g.id`,
    )
    .raw(true);
  // Raw rows [ticket_id, tag_id]: lists ask this for thousands of tickets at once.
  const tagIdsOf = db
    .prepare<[string], [number, number]>(
      `SELECT ticket_id, tag_id FROM ticket_tags WHERE ticket_id ${IN_IDS} ORDER BY ticket_id`,
    )
    .raw(true);
  const boardTagIds = db.prepare<[number, string], { id: number }>(
    `SELECT id FROM tags WHERE board_id = ? AND id ${IN_IDS}`,
  );
  const dropOthers = db.prepare<[number, string]>(
    `DELETE FROM ticket_tags WHERE ticket_id = ? AND tag_id NOT ${IN_IDS}`,
  );
  const attach = db.prepare<[number, string, string]>(
    `INSERT OR IGNORE INTO ticket_tags (ticket_id, tag_id, attached_at)
     SELECT ?, value, ? FROM json_each(?)`,
  );
  // Tag names are unique per board (case-insensitively), so each tag maps to at most one.
  const remap = db.prepare<[{ boardId: number; ticketId: number }]>(
    `UPDATE ticket_tags SET tag_id = (
       SELECT target.id FROM tags source JOIN tags target ON target.name_key = source.name_key
       WHERE source.id = ticket_tags.tag_id AND target.board_id = @boardId)
     WHERE ticket_id = @ticketId AND EXISTS (
       SELECT 1 FROM tags source JOIN tags target ON target.name_key = source.name_key
       WHERE source.id = ticket_tags.tag_id AND target.board_id = @boardId)`,
  );
  const dropForeign = db.prepare<[{ boardId: number; ticketId: number }]>(
    `DELETE FROM ticket_tags
     WHERE ticket_id = @ticketId AND tag_id IN (SELECT id FROM tags WHERE board_id <> @boardId)`,
  );

  return {
    /** The tags of one ticket, by name (case-insensitive), then id. */
    tagsOfTicket: (ticketId: number): Tag[] =>
      tagsOfTicket
        .all(ticketId)
        .map(([id, boardId, name, color]) => ({ id, boardId, name, color })),

    /** Tag ids of each given ticket that has any (unordered; one query for any count). */
    tagIdsOf(ticketIds: readonly number[]): Map<number, number[]> {
      const map = new Map<number, number[]>();
      for (const [ticketId, tagId] of tagIdsOf.iterate(JSON.stringify(ticketIds))) {
        const list = map.get(ticketId);
        if (list) list.push(tagId);
        else map.set(ticketId, [tagId]);
      }
      return map;
    },

    /** Which of the given tag ids belong to the board. */
    tagIdsOfBoard: (boardId: number, tagIds: readonly number[]): Set<number> =>
      new Set(boardTagIds.all(boardId, JSON.stringify(tagIds)).map((row) => row.id)),

    /** Makes `tagIds` the ticket's tag set; links of tags that stay keep their reasons. */
    replace(ticketId: number, tagIds: readonly number[], at: string): void {
      const json = JSON.stringify(tagIds);
      dropOthers.run(ticketId, json);
      attach.run(ticketId, at, json);
    },

    /**
     * After a move to another board: each tag becomes the target board's tag of the same name
     * (keeping its reason), and tags without a namesake there are dropped.
     */
    remapToBoard(ticketId: number, targetBoardId: number): void {
      remap.run({ boardId: targetBoardId, ticketId });
      dropForeign.run({ boardId: targetBoardId, ticketId });
    },
  };
}

export type TicketTagStore = ReturnType<typeof ticketTagStore>;
