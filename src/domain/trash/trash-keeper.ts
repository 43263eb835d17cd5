import type { Snapshot, TrashKind, TrashStore } from "../../storage/trash.js";
import { now, nowMillis } from "../clock.js";

/** How long deleted objects stay restorable unless `--trash-days` says otherwise. */
export const DEFAULT_TRASH_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A trash entry's label: a name, a title or the first line of a comment, at most this long. */
const LABEL_LENGTH = 200;

/** What a delete tells the trash about the object it is about to remove. */
export interface DeletedObject {
  kind: TrashKind;
  objectId: number;
  /** The object's board (a board's own id for a board). */
  boardId: number;
  /** Its name, title or comment body (shortened here). */
  text: string;
}

/** The first line of `text`, trimmed, at most LABEL_LENGTH characters (code points). */
export function trashLabel(text: string): string {
  const firstLine = text.trim().split(/\r?\n/, 1)[0] ?? "";
  return [...firstLine.trim()].slice(0, LABEL_LENGTH).join("");
}

/**
 * Called by every delete inside its transaction, before the rows go (docs/api.md, "The trash"):
 * files a snapshot of the object in the trash for `days` days. With 0 days nothing is kept and the
 * delete erases as it always did. Entries whose time is up are erased on the way, so the trash
 * never holds more than it should whether or not anybody looks at it.
 */
export function trashKeeper(store: TrashStore, days: number) {
  return {
    days,

    keep(object: DeletedObject): void {
      const at = now();
      store.removeExpired(at);
      if (days === 0) return;
      const snapshot = capture(store, object.kind, object.objectId);
      if (!snapshot) return;
      store.insert(
        {
          kind: object.kind,
          objectId: object.objectId,
          boardId: object.boardId,
          label: trashLabel(object.text),
          deletedAt: at,
          expiresAt: new Date(nowMillis() + days * DAY_MS).toISOString(),
        },
        snapshot,
      );
    },
  };
}

export type TrashKeeper = ReturnType<typeof trashKeeper>;

/** A keeper that keeps nothing (services built without a trash, e.g. by tools). */
export const NO_TRASH: TrashKeeper = { days: 0, keep: () => {} };

function capture(store: TrashStore, kind: TrashKind, id: number): Snapshot | undefined {
  switch (kind) {
    case "board":
      return store.captureBoard(id);
    case "lane":
      return store.captureLane(id);
    case "tag":
      return store.captureTag(id);
    case "ticket":
      return store.captureTicket(id);
    case "comment":
      return store.captureComment(id);
  }
}
