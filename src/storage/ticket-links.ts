import type { Tag, TicketExternalReference, TicketRemoteSummary } from "../domain/model.js";
import type { Db } from "./database.js";

/**
 * What a ticket summary shows besides the ticket's row: tags, blockers, related, children,
 * references and remote link.
 */
export interface TicketLinks {
  /** In its board's tag order: name (case-insensitive), then id. */
  tags: Tag[];
  /** Ascending. */
  blockerIds: number[];
  /** Ascending. */
  relatedIds: number[];
  hasChildren: boolean;
  /** By kind, then id. */
  externalReferences: TicketExternalReference[];
  remote: TicketRemoteSummary | null;
}

type LinkArrays = [
  number[],
  number[],
  0 | 1,
  Array<[number, number, string, string]>,
  TicketExternalReference[],
  TicketRemoteSummary | null,
];

/**
 * The links of one ticket in one statement, as one JSON text (objects keyed as the API names
 * their fields). A list read right after a write re-serializes the one or few tickets the write
 * changed: by ticket id, with `= ?` probes, this is one statement of ~15 µs, where the set
 * queries over `json_each` (docs/performance.md) cost seven statements and a read of the
 * board's tag list, ~110 µs for one ticket.
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
               FROM ticket_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.ticket_id = @id)),
         json((SELECT json_group_array(json_object(
                 'id', r.id, 'ticketId', r.ticket_id, 'kind', r.kind, 'provider', r.provider,
                 'instanceUrl', r.instance_url, 'resourceType', r.resource_type,
                 'projectKey', r.project_key, 'issueKey', r.issue_key,
                 'displayRef', r.display_ref, 'url', r.url, 'title', r.title,
                 'createdAt', r.created_at, 'updatedAt', r.updated_at) ORDER BY r.kind, r.id)
               FROM external_references r WHERE r.ticket_id = @id)),
         json((SELECT json_object('provider', m.provider, 'displayRef', m.display_ref,
                 'url', m.url)
               FROM remote_links m WHERE m.ticket_id = @id)))`,
    )
    .pluck(true);

  return {
    /** One ticket's links (a ticket that does not exist has none). */
    ofTicket(id: number): TicketLinks {
      const [blockerIds, relatedIds, hasChildren, tags, externalReferences, remote] = JSON.parse(
        ofTicket.get({ id }) as string,
      ) as LinkArrays;
      return {
        tags: tags.map(([tagId, boardId, name, color]) => ({ id: tagId, boardId, name, color })),
        blockerIds,
        relatedIds,
        hasChildren: hasChildren === 1,
        externalReferences,
        remote,
      };
    },
  };
}

export type TicketLinkStore = ReturnType<typeof ticketLinkStore>;
