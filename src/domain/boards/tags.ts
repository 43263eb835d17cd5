import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import { Conflict, found, InvalidInput } from "../errors.js";
import type { Tag } from "../model.js";
import { cleanName, nameKey } from "../names.js";
import type { Transact } from "../transaction.js";
import { NO_TRASH, type TrashKeeper } from "../trash/trash-keeper.js";
import { type BoardService, shellChanged } from "./boards.js";

export const DEFAULT_TAG_COLOR = "#6b7280";

export function tagService(
  stores: Pick<Stores, "tags" | "boards">,
  boards: Pick<BoardService, "require">,
  activity: ActivityRecorder,
  transact: Transact,
  trash: TrashKeeper = NO_TRASH,
) {
  const { tags } = stores;

  function require(tagId: number): Tag {
    return found(tags.get(tagId), "tag");
  }

  /** Tag names are unique per board, compared case-insensitively after trimming. */
  function assertNameFree(boardId: number, key: string, exceptTagId?: number): void {
    const clash = tags.findByKey(boardId, key);
    if (clash && clash.id !== exceptTagId) {
      throw new Conflict(`a tag named ${clash.name} already exists on this board`);
    }
  }

  return {
    require,

    list(boardId: number): Tag[] {
      boards.require(boardId);
      return tags.listByBoard(boardId);
    },

    create(boardId: number, input: { name: string; color?: string }): Tag {
      const name = cleanName(input.name, "name");
      return transact((changes) => {
        boards.require(boardId);
        assertNameFree(boardId, nameKey(name));
        const id = tags.insert(boardId, name, nameKey(name), input.color ?? DEFAULT_TAG_COLOR);
        shellChanged(stores, boardId, changes);
        return require(id);
      });
    },

    update(tagId: number, input: { name?: string; color?: string }): Tag {
      if (input.name === undefined && input.color === undefined) {
        throw new InvalidInput("nothing to update: send name or color");
      }
      const name = input.name === undefined ? undefined : cleanName(input.name, "name");
      return transact((changes) => {
        const tag = require(tagId);
        const nextName = name ?? tag.name;
        if (name !== undefined) assertNameFree(tag.boardId, nameKey(name), tagId);
        tags.update(tagId, nextName, nameKey(nextName), input.color ?? tag.color);
        shellChanged(stores, tag.boardId, changes);
        return require(tagId);
      });
    },

    /**
     * Deleting a tag detaches it from every ticket (ON DELETE CASCADE on ticket_tags); each of
     * those tickets gets a `ticket_tag_removed` entry. Their `updatedAt` stays: this is a change
     * of the board's tags, not an edit of each ticket.
     */
    remove(tagId: number): void {
      transact((changes) => {
        const tag = require(tagId);
        trash.keep({ kind: "tag", objectId: tagId, boardId: tag.boardId, text: tag.name });
        for (const ticketId of tags.ticketIdsWithTag(tagId)) {
          activity.record({
            boardId: tag.boardId,
            ticketId,
            action: "ticket_tag_removed",
            message: `Tag ${tag.name} removed (tag deleted)`,
            details: { tagId, tagName: tag.name, tagDeleted: true },
          });
        }
        tags.remove(tagId);
        shellChanged(stores, tag.boardId, changes);
      });
    },
  };
}

export type TagService = ReturnType<typeof tagService>;
