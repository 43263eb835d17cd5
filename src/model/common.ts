import {
  type SchemaOptions,
  type Static,
  type TLiteral,
  type TSchema,
  type TUnion,
  Type,
} from "@sinclair/typebox";

// Building blocks of the resource schemas (and of the HTTP layer's request schemas).

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

/** A free-form JSON object (details, data), as answered; typed as the object it is. */
export const FreeObject = Type.Unsafe<Record<string, unknown>>(
  Type.Object({}, { additionalProperties: true }),
);

/** A union of string literals (an enum of names), e.g. a status. */
export function Literals<const V extends readonly string[]>(
  values: V,
  options?: SchemaOptions,
): TUnion<LiteralsOf<V>> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as TUnion<LiteralsOf<V>>;
}
type LiteralsOf<V extends readonly string[]> = { -readonly [K in keyof V]: TLiteral<V[K]> };
