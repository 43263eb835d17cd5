import { WIP_LIMIT_MAX, WIP_LIMIT_MIN } from "../../model/limits.js";
import type { Stores } from "../../storage/index.js";
import { Conflict, found, InvalidInput } from "../errors.js";
import type { Lane } from "../model.js";
import { cleanName } from "../names.js";
import type { Transact } from "../transaction.js";
import { NO_TRASH, type TrashKeeper } from "../trash/trash-keeper.js";
import { assertPermutation, type BoardService, shellChanged } from "./boards.js";

export interface LanePatch {
  name?: string;
  wipLimit?: number | null;
}

/**
 * The range of docs/api.md, "Lanes" (WIP limits, model/limits.ts); the HTTP schemas check it too,
 * an import checks it here.
 */
export function isWipLimit(value: unknown): value is number | null {
  return (
    value === null ||
    (typeof value === "number" &&
      Number.isInteger(value) &&
      value >= WIP_LIMIT_MIN &&
      value <= WIP_LIMIT_MAX)
  );
}

export function laneService(
  stores: Pick<Stores, "lanes" | "boards">,
  boards: Pick<BoardService, "require">,
  transact: Transact,
  trash: TrashKeeper = NO_TRASH,
) {
  const { lanes } = stores;

  function require(laneId: number): Lane {
    return found(lanes.get(laneId), "lane");
  }

  return {
    require,

    list(boardId: number): Lane[] {
      boards.require(boardId);
      return lanes.listByBoard(boardId);
    },

    create(boardId: number, name: string, wipLimit: number | null = null): Lane {
      const laneName = cleanName(name, "name");
      return transact((changes) => {
        boards.require(boardId);
        const id = lanes.insert(boardId, laneName, wipLimit);
        shellChanged(stores, boardId, changes);
        return require(id);
      });
    },

    reorder(boardId: number, laneIds: number[]): Lane[] {
      return transact((changes) => {
        boards.require(boardId);
        const existing = lanes.listByBoard(boardId).map((lane) => lane.id);
        assertPermutation(laneIds, existing, "laneIds", "lane of this board");
        laneIds.forEach((id, position) => {
          lanes.setPosition(id, position);
        });
        shellChanged(stores, boardId, changes);
        return lanes.listByBoard(boardId);
      });
    },

    /** A PATCH: a new name, a new WIP limit (null clears it), or both. */
    update(laneId: number, patch: LanePatch): Lane {
      if (patch.name === undefined && patch.wipLimit === undefined) {
        throw new InvalidInput("name or wipLimit is required");
      }
      const laneName = patch.name === undefined ? undefined : cleanName(patch.name, "name");
      return transact((changes) => {
        const lane = require(laneId);
        if (laneName !== undefined) lanes.rename(laneId, laneName);
        if (patch.wipLimit !== undefined) lanes.setWipLimit(laneId, patch.wipLimit);
        shellChanged(stores, lane.boardId, changes);
        return require(laneId);
      });
    },

    remove(laneId: number): void {
      transact((changes) => {
        const lane = require(laneId);
        if (lanes.ticketCount(laneId) > 0) throw new Conflict("lane is not empty");
        trash.keep({ kind: "lane", objectId: laneId, boardId: lane.boardId, text: lane.name });
        lanes.remove(laneId);
        // Close the gap so positions stay 0..n-1, as after a reorder.
        lanes.listByBoard(lane.boardId).forEach((rest, position) => {
          if (rest.position !== position) lanes.setPosition(rest.id, position);
        });
        shellChanged(stores, lane.boardId, changes);
      });
    },
  };
}

export type LaneService = ReturnType<typeof laneService>;
