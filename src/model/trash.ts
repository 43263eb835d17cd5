import { type Static, Type } from "@sinclair/typebox";
import { Literals, Timestamp } from "./common.js";

/** The kinds of object a delete puts in the trash (docs/api.md, "The trash"). */
export const TrashKind = Literals(["board", "lane", "tag", "ticket", "comment"], {
  $id: "TrashKind",
});
export type TrashKind = Static<typeof TrashKind>;

export const TrashItem = Type.Object(
  {
    id: Type.Integer({ description: "The trash entry's own id." }),
    kind: Type.Ref(TrashKind),
    objectId: Type.Integer({ description: "The deleted object's id (the same after a restore)." }),
    boardId: Type.Integer({ description: "Its board; a board's entry names the board itself." }),
    label: Type.String({ description: "Name, title or first line of a comment (≤ 200 chars)." }),
    deletedAt: Timestamp,
    expiresAt: Timestamp,
  },
  { $id: "TrashItem", additionalProperties: false },
);
export type TrashItem = Static<typeof TrashItem>;

/** What a restore brought back. */
export const TrashRestored = Type.Object({
  kind: Type.Ref(TrashKind),
  objectId: Type.Integer(),
});
export type TrashRestored = Static<typeof TrashRestored>;
