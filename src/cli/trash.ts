import type { Command } from "commander";
import type { TackClient } from "../client/tack-client.js";
import { clientCommand, groupCommand, handler, parseId } from "./command-kit.js";

// The trash (docs/api.md, "The trash"): `tack trash list|restore|erase`.

export function registerTrashCommands(program: Command): void {
  const trash = groupCommand(
    program,
    "trash",
    "Deleted boards, lanes, tags, tickets and comments, restorable until they expire.",
    ["tack trash list", "tack trash list --board 2", "tack trash restore 7", "tack trash erase 7"],
  );

  clientCommand(trash, "list", "List the trash, newest first (one board's with --board).", [
    "tack trash list",
    "tack trash list --board 2 --json",
  ])
    .option("--board <id>", "only entries of this board")
    .action(
      handler(async ({ client, flags, output }) => {
        const boardId =
          flags.board === undefined ? undefined : parseId(String(flags.board), "--board");
        const items = await client.listTrash(boardId);
        output.list(
          "items",
          items,
          ["ENTRY", "KIND", "ID", "BOARD", "LABEL", "DELETED", "EXPIRES"],
          (item) => [
            item.id,
            item.kind,
            item.objectId,
            item.boardId,
            item.label,
            item.deletedAt,
            item.expiresAt,
          ],
          "the trash is empty",
        );
      }),
    );

  clientCommand(
    trash,
    "restore <entry>",
    "Bring a deleted object back with the same id (what it belongs to must be back first).",
    ["tack trash restore 7"],
  ).action(
    handler(async ({ client, output }, entry) => {
      const restored = await client.restoreFromTrash(parseId(entry as string, "entry"));
      output.emit(
        restored,
        [restored.objectId],
        () => `restored ${restored.kind} ${restored.objectId}`,
      );
    }),
  );

  clientCommand(trash, "erase <entry>", "Erase a trash entry for good (cannot be undone).", [
    "tack trash erase 7",
  ]).action(
    handler(async ({ client, output }, entry) => {
      const trashId = parseId(entry as string, "entry");
      await client.eraseFromTrash(trashId);
      output.emit({ erased: trashId }, [trashId], () => `erased trash entry ${trashId}`);
    }),
  );
}

/** "…, in the trash until <date>: tack trash restore <n>", or "" when the server kept nothing. */
export async function howToRestore(
  client: TackClient,
  kind: "board" | "lane" | "tag" | "ticket" | "comment",
  objectId: number,
): Promise<string> {
  const entry = await client.trashEntryOf(kind, objectId);
  return entry
    ? ` (in the trash until ${entry.expiresAt}: tack trash restore ${entry.id})`
    : " (erased: the server keeps no trash)";
}
