import type { Stores } from "../storage/index.js";
import type { TicketListFilter } from "../storage/tickets.js";
import {
  type BoardList,
  KEPT_MATCHES,
  type KeptMatches,
  type Listed,
  laneOrder,
  passesFlags,
} from "./board-list.js";
import { idsOf } from "./pieces.js";

/**
 * The tickets a tag and/or search filter matches on the board: kept per filter once asked,
 * and then only the tickets changed since are tested again (in SQL, by id).
 */
export function matchesOf(
  list: BoardList,
  boardId: number,
  filter: TicketListFilter,
  tickets: Pick<Stores["tickets"], "matchingIds">,
): KeptMatches {
  const key = JSON.stringify([filter.tagKey ?? null, filter.search ?? null]);
  let kept: KeptMatches | undefined = list.matches.get(key);
  if (!kept) {
    const ids = new Set(tickets.matchingIds(boardId, filter));
    kept = { ids, changed: new Set(), ordered: undefined };
    for (const [oldest] of list.matches) {
      if (list.matches.size < KEPT_MATCHES) break;
      list.matches.delete(oldest);
    }
  } else {
    // Most recently used last.
    list.matches.delete(key);
    if (kept.changed.size > 0) {
      const matching = new Set(tickets.matchingIds(boardId, filter, kept.changed));
      for (const id of kept.changed) {
        if (matching.has(id) === kept.ids.has(id)) continue;
        if (matching.has(id)) kept.ids.add(id);
        else kept.ids.delete(id);
        kept.ordered = undefined;
      }
      kept.changed.clear();
    }
  }
  list.matches.set(key, kept);
  return kept;
}

/**
 * The matched tickets within the filter's lane and flags, in board order (`lanes`: the board's
 * lane order, `lanes.orderOf`): the matches are sorted again only when one came or went, or a
 * ticket or lane of the board moved.
 */
export function inBoardOrder(
  list: BoardList,
  kept: KeptMatches,
  filter: TicketListFilter,
  lanes: string,
): Listed[] {
  let ordered = kept.ordered;
  if (!ordered || ordered.placements !== list.placements || ordered.lanes !== lanes) {
    const laneIds = idsOf(lanes);
    const rank = new Map(laneIds.map((laneId, index) => [laneId, index]));
    const rankOf = (listed: Listed) => rank.get(listed.laneId) ?? rank.size;
    const tickets = [...kept.ids].flatMap((id) => list.tickets.get(id) ?? []);
    tickets.sort((a, b) => rankOf(a) - rankOf(b) || laneOrder(a, b));
    ordered = { tickets, placements: list.placements, lanes };
    kept.ordered = ordered;
  }
  return ordered.tickets.filter((listed) => passesFlags(listed, filter));
}
