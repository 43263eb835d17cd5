import { Type } from "@sinclair/typebox";
import { Id, Nullable, Timestamp } from "./common.js";
import { TicketRef } from "./tickets.js";

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
export const BoardRef = Type.Ref(Board);

/** A lane's soft WIP limit (docs/api.md, "Lanes"): 1-10,000, or null for none. */
export const WipLimit = Nullable(
  Type.Integer({
    minimum: 1,
    maximum: 10_000,
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
export const TagRef = Type.Ref(Tag);

export const BoardShell = Type.Object(
  { board: BoardRef, lanes: Type.Array(LaneRef), tags: Type.Array(TagRef) },
  { $id: "BoardShell" },
);
export const BoardShellRef = Type.Ref(BoardShell);

export const BoardDetail = Type.Object(
  {
    board: BoardRef,
    lanes: Type.Array(LaneRef),
    tags: Type.Array(TagRef),
    tickets: Type.Array(TicketRef),
  },
  { $id: "BoardDetail" },
);
export const BoardDetailRef = Type.Ref(BoardDetail);

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
