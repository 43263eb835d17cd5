import { signal } from "@preact/signals";
import { api, errorMessage } from "./api";
import { boardId, loadBoards } from "./board-data";
import { refresh } from "./board-sync";
import { dismiss, toast, toasts } from "./toasts";
import type { TrashItem } from "./types";

/** How long the Undo of a delete is offered in its toast. */
const UNDO_MS = 10_000;

/** The trash entries of the last delete (one or, for a bulk delete, many), for `u`. */
const lastDeleted = signal<number[]>([]);

/**
 * Called after a delete succeeded: finds the trash entries of what went and offers Undo in a
 * toast for ~10 s (and with the `u` shortcut until the next delete). A server that keeps no
 * trash (`--trash-days 0`) gets the plain message.
 */
export async function offerUndo(
  deleted: Array<{ kind: TrashItem["kind"]; objectId: number }>,
  message: string,
): Promise<void> {
  let entries: number[] = [];
  try {
    const items = (await api.get<{ items: TrashItem[] }>("/api/trash")).items;
    entries = deleted.flatMap(({ kind, objectId }) => {
      const entry = items.find((item) => item.kind === kind && item.objectId === objectId);
      return entry ? [entry.id] : [];
    });
  } catch {
    // The delete happened; only the offer is lost.
  }
  if (entries.length === 0) {
    toast(message);
    return;
  }
  lastDeleted.value = entries;
  const id = toast(message, "info", {
    action: { label: "Undo", run: () => void undo(entries, id) },
    ms: UNDO_MS,
  });
}

/** Undoes the last delete (the `u` shortcut); says so when there is nothing to undo. */
export function undoLastDelete(): void {
  const entries = lastDeleted.value;
  if (entries.length === 0) {
    toast("Nothing to undo.");
    return;
  }
  const offer = toasts.value.find((entry) => entry.action?.label === "Undo");
  void undo(entries, offer?.id);
}

async function undo(entries: number[], toastId: number | undefined): Promise<void> {
  if (toastId !== undefined) dismiss(toastId);
  if (lastDeleted.value === entries) lastDeleted.value = [];
  // Oldest first: a board before what was deleted from it afterwards never happens in one
  // delete, and bulk deletes are independent tickets.
  for (const entry of [...entries].reverse()) {
    try {
      await restoreEntry(entry);
    } catch (error) {
      toast(errorMessage(error), "error");
      return;
    }
  }
  toast(entries.length === 1 ? "Restored." : `Restored ${entries.length}.`);
}

/** Restores one trash entry and brings the boards and the open board up to date. */
export async function restoreEntry(entryId: number): Promise<void> {
  await api.post(`/api/trash/${entryId}/restore`);
  await loadBoards();
  if (boardId.value !== null) await refresh(null);
}
