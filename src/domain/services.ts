import type { BoardEventBus } from "../events/board-events.js";
import type { Db } from "../storage/database.js";
import { createStores } from "../storage/index.js";
import { boardService } from "./boards.js";
import { laneService } from "./lanes.js";
import { tagService } from "./tags.js";
import { createTransact } from "./transaction.js";

/**
 * Wires the domain modules together over one database. Each service receives only the stores and
 * sibling services it uses, so its dependencies are visible in its signature.
 */
export function createServices(db: Db, bus: BoardEventBus) {
  const stores = createStores(db);
  const transact = createTransact(db, bus);
  const boards = boardService(stores, transact);
  const lanes = laneService(stores, boards, transact);
  const tags = tagService(stores, boards, transact);
  return { boards, lanes, tags };
}

export type Services = ReturnType<typeof createServices>;
