import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { FREE_OBJECT_MAX_DEPTH, MAX_DEPTH_KEYWORD } from "../request-limits.js";

/**
 * `T | null` written as a JSON-schema type list rather than anyOf: validation errors then name
 * one rule ("x must be integer or null") and OpenAPI 3.1 shows it compactly.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const { type } = schema as { type?: string | string[] };
  if (typeof type !== "string") throw new Error("Nullable needs a schema with a single type");
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, "null"] });
}

export const Timestamp = Type.String({ format: "date-time" });

/** Positive decimal id, as in paths and bodies. */
export const Id = Type.Integer({ minimum: 1 });

export const IdList = Type.Array(Id, { maxItems: 100_000 });

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

/** A free-form JSON object (details, data), as answered. */
export const FreeObject = Type.Object({}, { additionalProperties: true });

/** A free-form JSON object in a request: nested at most FREE_OBJECT_MAX_DEPTH levels. */
export const FreeObjectInput = Type.Object(
  {},
  {
    additionalProperties: true,
    [MAX_DEPTH_KEYWORD]: FREE_OBJECT_MAX_DEPTH,
    description: `Any JSON object nested at most ${FREE_OBJECT_MAX_DEPTH} levels (itself included).`,
  },
);
