import type { Stores } from "../../storage/index.js";
import type { Row, TableRows, TicketSnapshot } from "../../storage/trash.js";

/**
 * A link of a restored ticket left out because it would break a rule of docs/api.md, "Rules clients
 * can rely on" now.
 */
export interface DroppedLink {
  link: "parent" | "child" | "blocker" | "blocking" | "related";
  ticketId: number;
  reason: string;
}

type LinkStores = Pick<Stores, "trash" | "tickets" | "ticketTags" | "ticketRelations">;

/**
 * Puts a deleted ticket back with the links it had (docs/api.md, "The trash"), each checked against
 * the board as it is now: links to tickets that no longer exist are left out; links that would
 * break a rule of docs/api.md, "Relations" (another board, nested parents, a blocker cycle) are
 * left out and reported. Tag links come back for the tags that still exist. `insert` writes the
 * ticket's rows (its lane makes room first); the links to other tickets follow, each checked after
 * the previous ones.
 */
export function restoreTicketLinks(
  stores: LinkStores,
  snapshot: TicketSnapshot,
  insert: (rows: TableRows) => void,
): { dropped: DroppedLink[] } {
  const { id, boardId } = snapshot.ticket;
  const { links } = snapshot;
  const dropped: DroppedLink[] = [];
  const others = stores.tickets.rowsByIds([
    ...(links.parentId === null ? [] : [links.parentId]),
    ...links.childIds,
    ...links.blockerIds,
    ...links.blockingIds,
    ...links.relatedIds,
  ]);
  /** The other ticket if it exists and is on this board; a drop is noted when it moved away. */
  const onBoard = (link: DroppedLink["link"], other: number) => {
    const row = others.get(other);
    if (row && row.boardId !== boardId) {
      dropped.push({ link, ticketId: other, reason: "not a ticket of this board" });
      return undefined;
    }
    return row;
  };

  let parentId: number | null = null;
  if (links.parentId !== null) {
    const parent = onBoard("parent", links.parentId);
    if (parent?.parentTicketId != null) {
      dropped.push({
        link: "parent",
        ticketId: parent.id,
        reason: "is a child ticket; parents cannot be nested",
      });
    } else if (parent) parentId = parent.id;
  }

  const tagIds = stores.ticketTags.tagIdsOfBoard(
    boardId,
    links.tagLinks.map((link) => Number(link.tag_id)),
  );
  const ownComments = new Set((snapshot.rows.comments ?? []).map((row) => Number(row.id)));
  const tagLinks: Row[] = links.tagLinks
    .filter((link) => tagIds.has(Number(link.tag_id)))
    .map((link) =>
      link.reason_comment_id !== null && !ownComments.has(Number(link.reason_comment_id))
        ? { ...link, reason_comment_id: null }
        : link,
    );
  const ticketRow = { ...(snapshot.rows.tickets?.[0] as Row), parent_ticket_id: parentId };
  insert({ ...snapshot.rows, tickets: [ticketRow], ticket_tags: tagLinks });

  for (const childId of links.childIds) {
    const child = onBoard("child", childId);
    if (!child) continue;
    const reason =
      parentId !== null
        ? "a ticket with a parent cannot have children"
        : child.parentTicketId !== null
          ? "has another parent now"
          : stores.tickets.childCounts([childId]).has(childId)
            ? "has children; parents cannot be nested"
            : undefined;
    if (reason) dropped.push({ link: "child", ticketId: childId, reason });
    else stores.trash.setParent(childId, id);
  }

  // `blockerId` blocks `blockedId` again, unless that would close a cycle of blockers; `other`
  // is the ticket at the link's other end (the restored one is `id`).
  const restoreBlocker = (
    link: "blocker" | "blocking",
    other: number,
    blockerId: number,
    blockedId: number,
  ) => {
    if (!onBoard(link, other)) return;
    if (stores.ticketRelations.blockerPathExists([blockerId], blockedId)) {
      dropped.push({ link, ticketId: other, reason: "blocker would create a cycle" });
      return;
    }
    stores.trash.insertRows({ ticket_blockers: [{ ticket_id: blockedId, blocker_id: blockerId }] });
  };
  for (const blockerId of links.blockerIds) restoreBlocker("blocker", blockerId, blockerId, id);
  for (const blockedId of links.blockingIds) restoreBlocker("blocking", blockedId, id, blockedId);
  const related = links.relatedIds
    .filter((other) => onBoard("related", other))
    .map((other) => ({ low_id: Math.min(id, other), high_id: Math.max(id, other) }));
  stores.trash.insertRows({ ticket_related: related });
  return { dropped };
}
