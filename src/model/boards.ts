import { type Static, Type } from "@sinclair/typebox";
import { Id, Nullable, Timestamp } from "./common.js";
import { WIP_LIMIT_MAX, WIP_LIMIT_MIN } from "./limits.js";

// Boards, lanes and tags (docs/api.md, "Boards", "Lanes", "Tags"). Each schema is the shape the
// server answers with; the type of the same name is what storage returns and the domain builds.

export const Board = Type.Object(
  {
    id: Id,
    name: Type.String(),
    position: Type.Integer({ minimum: 0, description: "0..n-1: the order clients list boards in" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: "Board" },
);
export type Board = Static<typeof Board>;
export const BoardRef = Type.Ref(Board);

/** A lane's soft WIP limit (docs/api.md, "Lanes"), or null for none. */
export const WipLimit = Nullable(
  Type.Integer({
    minimum: WIP_LIMIT_MIN,
    maximum: WIP_LIMIT_MAX,
    description:
      "Soft limit on the lane's load (tickets neither resolved nor archived); null: none",
  }),
);

export const Lane = Type.Object(
  {
    id: Id,
    boardId: Id,
    name: Type.String(),
    position: Type.Integer({ minimum: 0 }),
    wipLimit: WipLimit,
  },
  { $id: "Lane" },
);
export type Lane = Static<typeof Lane>;
export const LaneRef = Type.Ref(Lane);

/** `#rgb`, `#rrggbb` or "" for no color (docs/api.md, "Limits"). */
export const TagColor = Type.String({
  pattern: "^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6})?$",
  description: "#rgb or #rrggbb, or an empty string for no color",
});

export const Tag = Type.Object(
  { id: Id, boardId: Id, name: Type.String(), color: Type.String() },
  { $id: "Tag" },
);
export type Tag = Static<typeof Tag>;
export const TagRef = Type.Ref(Tag);

export const BoardShell = Type.Object(
  { board: BoardRef, lanes: Type.Array(LaneRef), tags: Type.Array(TagRef) },
  { $id: "BoardShell" },
);
export type BoardShell = Static<typeof BoardShell>;
export const BoardShellRef = Type.Ref(BoardShell);
