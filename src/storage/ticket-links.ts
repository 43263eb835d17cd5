import type { Tag } from "../domain/model.js";
import type { Db } from "./database.js";

/** What a ticket summary shows of a ticket's links (tags, blockers, related, children). */
export interface TicketLinks {
  /** In its board's tag order: name (case-insensitive), then id. */
  tags: Tag[];
  /** Ascending. */
  blockerIds: number[];
  /** Ascending. */
  relatedIds: number[];
  hasChildren: boolean;
}

type LinkArrays = [number[], number[], 0 | 1, Array<[number, number, string, string]>];

/**
 * The links of one ticket in one statement, as one JSON text. A list read right after a write
 * re-serializes the one or few tickets the write changed: by ticket id, with `= ?` probes, this
 * is one statement of ~10 µs, where the set queries over `json_each` (docs/performance.md) cost
 * five statements and a read of the board's tag list, ~90 µs for one ticket.
 */
export function ticketLinkStore(db: Db) {
  const ofTicket = db
    .prepare<[{ id: number }], string>(
      `SELECT json_array(
         json((SELECT json_group_array(blocker_id ORDER BY blocker_id)
               FROM ticket_blockers WHERE ticket_id = @id)),
         json((SELECT json_group_array(other ORDER BY other) FROM (
               SELECT high_id AS other FROM ticket_related WHERE low_id = @id
               UNION ALL SELECT low_id FROM ticket_related WHERE high_id = @id))),
         EXISTS (SELECT 1 FROM tickets WHERE parent_ticket_id = @id),
         json((SELECT json_group_array(json_array(g.id, g.board_id, g.name, g.color)
                 ORDER BY g.name_key, g.id)
               FROM ticket_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.ticket_id = @id)))`,
    )
    .pluck(true);

  return {
    /** One ticket's links (a ticket that does not exist has none). */
    ofTicket(id: number): TicketLinks {
      const [blockerIds, relatedIds, hasChildren, tags] = JSON.parse(
        ofTicket.get({ id }) as string,
      ) as LinkArrays;
      return {
        tags: tags.map(([tagId, boardId, name, color]) => ({ id: tagId, boardId, name, color })),
        blockerIds,
        relatedIds,
        hasChildren: hasChildren === 1,
      };
    },
  };
}

export type TicketLinkStore = ReturnType<typeof ticketLinkStore>;
