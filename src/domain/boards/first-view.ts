import type { FirstViewCard } from "../../storage/first-view.js";
import type { Stores } from "../../storage/index.js";
import type { Read } from "../transaction.js";

export type { FirstViewCard };

/**
 * A board's first view: its name, its first lanes in board order and each lane's first cards in
 * board order, all read in one snapshot. The web UI's board page carries it in its HTML
 * (ui/ARCHITECTURE.md, "The first view"), so the board's first cards show before the page's
 * script has run. A lane's column holds about a dozen cards on a screen, and a wide screen
 * fewer than twelve lanes: more would be bytes nobody sees before the app replaces them.
 */
export interface FirstView {
  boardName: string;
  lanes: Array<{ id: number; name: string; cards: FirstViewCard[] }>;
}

export const FIRST_VIEW_LIMITS = { lanes: 12, cards: 12 };

/**
 * The first view of a board, or undefined when there is no such board or none of its first
 * lanes has an open card (the app's own empty lanes come as soon).
 */
export function boardFirstView(stores: Pick<Stores, "boards" | "lanes" | "firstView">, read: Read) {
  return (boardId: number, limits = FIRST_VIEW_LIMITS): FirstView | undefined =>
    read(() => {
      const board = stores.boards.get(boardId);
      if (!board) return undefined;
      const lanes = stores.lanes
        .listByBoard(boardId)
        .slice(0, limits.lanes)
        .map((lane) => ({
          id: lane.id,
          name: lane.name,
          cards: stores.firstView.firstOfLane(lane.id, limits.cards),
        }));
      if (!lanes.some((lane) => lane.cards.length > 0)) return undefined;
      stores.firstView.addTags(lanes.flatMap((lane) => lane.cards));
      return { boardName: board.name, lanes };
    });
}
