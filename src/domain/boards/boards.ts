import type { Stores } from "../../storage/index.js";
import { now } from "../clock.js";
import { found, InvalidInput } from "../errors.js";
import type { Board, BoardShell } from "../model.js";
import { cleanName } from "../names.js";
import type { BoardChanges, Transact } from "../transaction.js";
import { NO_TRASH, type TrashKeeper } from "../trash/trash-keeper.js";

const DEFAULT_LANES = ["todo", "doing", "done"];

export function boardService(
  stores: Pick<Stores, "boards" | "lanes" | "tags">,
  transact: Transact,
  trash: TrashKeeper = NO_TRASH,
) {
  const { boards, lanes, tags } = stores;

  function require(boardId: number): Board {
    return found(boards.get(boardId), "board");
  }

  return {
    /** Throws NotFound unless the board exists; returns it. */
    require,

    list: (): Board[] => boards.list(),

    shell(boardId: number): BoardShell {
      const board = require(boardId);
      return { board, lanes: lanes.listByBoard(boardId), tags: tags.listByBoard(boardId) };
    },

    create(name: string, laneNames?: string[]): BoardShell {
      const boardName = cleanName(name, "name");
      // Blank entries are dropped; errors name the entry's index as sent.
      const given = (laneNames ?? []).flatMap((lane, index) =>
        lane.trim() === "" ? [] : [cleanName(lane, `laneNames[${index}]`)],
      );
      const names = given.length > 0 ? given : DEFAULT_LANES;
      return transact((changes) => {
        const id = boards.insert(boardName, now());
        for (const lane of names) lanes.insert(id, lane);
        changes.touched(id);
        return { board: require(id), lanes: lanes.listByBoard(id), tags: [] };
      });
    },

    rename(boardId: number, name: string): Board {
      const boardName = cleanName(name, "name");
      return transact((changes) => {
        require(boardId);
        boards.rename(boardId, boardName, now());
        changes.touched(boardId);
        return require(boardId);
      });
    },

    remove(boardId: number): void {
      transact((changes) => {
        const board = require(boardId);
        trash.keep({ kind: "board", objectId: boardId, boardId, text: board.name });
        boards.remove(boardId);
        changes.deleted(boardId);
      });
    },

    /** docs/api.md, "Endpoints": `boardIds` must name every board exactly once. */
    reorder(boardIds: number[]): Board[] {
      return transact(() => {
        const existing = boards.ids();
        assertPermutation(boardIds, existing, "boardIds", "board");
        boardIds.forEach((id, position) => {
          boards.setPosition(id, position);
        });
        return boards.list();
      });
    },
  };
}

export type BoardService = ReturnType<typeof boardService>;

/** Checks that `given` lists each of `existing` exactly once (used by the reorder endpoints). */
/**
 * A change to a board's shell (one of its lanes or tags made, changed, deleted or restored): the
 * board's updatedAt moves, and the unit of work counts the board as changed.
 */
export function shellChanged(
  stores: Pick<Stores, "boards">,
  boardId: number,
  changes: Pick<BoardChanges, "touched">,
): void {
  stores.boards.touch(boardId, now());
  changes.touched(boardId);
}

export function assertPermutation(
  given: number[],
  existing: number[],
  field: string,
  noun: string,
): void {
  const known = new Set(existing);
  const seen = new Set<number>();
  for (const id of given) {
    if (!known.has(id))
      throw new InvalidInput(`${field} contains ${id}, which is not a ${noun} here`);
    if (seen.has(id)) throw new InvalidInput(`${field} lists ${id} more than once`);
    seen.add(id);
  }
  if (seen.size !== known.size) throw new InvalidInput(`${field} must list every ${noun} once`);
}
