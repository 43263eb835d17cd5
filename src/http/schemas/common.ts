import { type TSchema, Type } from "@sinclair/typebox";
import { Id } from "../../model/common.js";
import { FREE_OBJECT_MAX_DEPTH, MAX_DEPTH_KEYWORD } from "../request-limits.js";

export { FreeObject, Id, IdList, Nullable, Timestamp } from "../../model/common.js";

export const ErrorBody = Type.Object(
  { error: Type.String() },
  { $id: "Error", description: "Every 4xx/5xx body: one short sentence naming the problem." },
);

export const ErrorRef = Type.Ref(ErrorBody);

/**
 * A success answer with the sentence the OpenAPI document shows for it (instead of "Default
 * Response"): what the client has in hand when it gets this status.
 */
export function answer<T extends TSchema>(schema: T, description: string): T {
  return { ...schema, description };
}

/** Response entries for the error statuses a route can answer with. */
export function errors<const S extends number>(...statuses: S[]): Record<S, typeof ErrorRef> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorRef])) as Record<
    S,
    typeof ErrorRef
  >;
}

export const BoardIdParams = Type.Object({ boardId: Id });
export const LaneIdParams = Type.Object({ laneId: Id });
export const TagIdParams = Type.Object({ tagId: Id });
export const TicketIdParams = Type.Object({ ticketId: Id });
export const CommentIdParams = Type.Object({ commentId: Id });
export const TemplateIdParams = Type.Object({ templateId: Id });

/** A free-form JSON object in a request: nested at most FREE_OBJECT_MAX_DEPTH levels. */
export const FreeObjectInput = Type.Object(
  {},
  {
    additionalProperties: true,
    [MAX_DEPTH_KEYWORD]: FREE_OBJECT_MAX_DEPTH,
    description: `Any JSON object nested at most ${FREE_OBJECT_MAX_DEPTH} levels (itself included).`,
  },
);
