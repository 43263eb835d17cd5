import { Type } from "@sinclair/typebox";
import { TagColor, WipLimit } from "../../model/boards.js";

// Board, Lane, Tag and BoardShell are the model's (src/model/boards.ts); BoardDetail is a board
// with its tickets (src/model/tickets.ts). Here: what requests send.
export {
  Board,
  BoardRef,
  BoardShell,
  BoardShellRef,
  Lane,
  LaneRef,
  Tag,
  TagColor,
  TagRef,
  WipLimit,
} from "../../model/boards.js";
export { BoardDetail, BoardDetailRef } from "../../model/tickets.js";

/** Request bodies. Names are plain strings here; trimming and length live in domain/names.ts. */
export const NameBody = Type.Object({ name: Type.String() });
export const LaneCreateBody = Type.Object({
  name: Type.String(),
  wipLimit: Type.Optional(WipLimit),
});
export const LanePatchBody = Type.Object(
  { name: Type.Optional(Type.String()), wipLimit: Type.Optional(WipLimit) },
  { description: "name, wipLimit or both; wipLimit null clears the limit." },
);
export const BoardCreateBody = Type.Object({
  name: Type.String(),
  laneNames: Type.Optional(Type.Array(Type.String(), { maxItems: 1000 })),
});
export const TagCreateBody = Type.Object({
  name: Type.String(),
  color: Type.Optional(TagColor),
});
export const TagPatchBody = Type.Object({
  name: Type.Optional(Type.String()),
  color: Type.Optional(TagColor),
});
