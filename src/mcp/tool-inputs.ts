import { Type } from "@sinclair/typebox";
import { chooseBoard } from "../client/board-choice.js";
import {
  LEASE_DEFAULT_SECONDS,
  LEASE_MAX_SECONDS,
  LEASE_MIN_SECONDS,
  PRIORITY_MAX,
  PRIORITY_MIN,
} from "../model/limits.js";
import type { ToolContext } from "./tool-kit.js";

// The arguments several tools share, declared once so each reads the same to a model.

export const TicketId = Type.Integer({ minimum: 1, description: "Ticket id." });
export const BoardId = Type.Optional(
  Type.Integer({ minimum: 1, description: "Board id; optional when there is one board." }),
);
export const Limit = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 100, description: "Page size, default 20." }),
);
export const Offset = Type.Optional(
  Type.Integer({ minimum: 0, description: "Rows to skip, default 0." }),
);
export const LeaseSeconds = Type.Optional(
  Type.Integer({
    minimum: LEASE_MIN_SECONDS,
    maximum: LEASE_MAX_SECONDS,
    description: `Lease length in seconds, default ${LEASE_DEFAULT_SECONDS}.`,
  }),
);
export const IdempotencyKey = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 190,
    description: "Retry-safe key: a repeat with it writes nothing new.",
  }),
);
export const Priority = Type.Integer({
  minimum: PRIORITY_MIN,
  maximum: PRIORITY_MAX,
  description: "1 low, 2 medium, 3 high, 4 urgent.",
});
export const NotBefore = Type.String({
  description: "RFC 3339 date-time; not ready before it (null clears).",
});
export const LaneRef = Type.Union([Type.Integer({ minimum: 1 }), Type.String({ minLength: 1 })], {
  description: "Lane id or exact lane name.",
});

export const LaneId = Type.Optional(Type.Integer({ minimum: 1 }));
export const TagName = Type.Optional(Type.String({ description: "Tag name." }));
/** What narrows the ready queue, for ready and claim_next alike. */
export const ReadyFilters = {
  boardId: BoardId,
  laneId: LaneId,
  tag: TagName,
  priority: Type.Optional(Priority),
};

/** The board a call means: the one it names, else `tack mcp --board`, else the only one. */
export const boardOf = (context: ToolContext, given?: number) =>
  chooseBoard(context.client, given ?? context.boardId);
