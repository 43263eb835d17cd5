import type { TSchema } from "@sinclair/typebox";
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";
import { nestingDepthAtMost } from "./json-depth.js";
import { FREE_OBJECT_MAX_DEPTH, MAX_DEPTH_KEYWORD } from "./request-limits.js";

/**
 * Request validation, shared by every route.
 *
 * Bodies are validated without coercion: docs/api.md, "Errors", says `"2"` is not an integer and
 * `1` is not a boolean. Path and query values arrive as text, so they are coerced, but only from
 * plain decimal integers ("0x10" and "1e2" would otherwise pass as numbers).
 */
export function createValidatorCompiler(namedSchemas: TSchema[]): FastifySchemaCompiler<TSchema> {
  // validateSchema off: checking our static schemas against the JSON Schema meta-schema cost
  // ~190 ms of CPU on the first request of every process; test/http/schemas.test.ts checks them
  // once, in CI, instead.
  const base: Options = {
    allErrors: false,
    strict: false,
    useDefaults: false,
    validateSchema: false,
  };
  const bodyAjv = withSchemas(new Ajv({ ...base, coerceTypes: false }), namedSchemas);
  const textAjv = withSchemas(new Ajv({ ...base, coerceTypes: true }), namedSchemas);

  return ({ schema, httpPart }) => {
    if (httpPart === "body") return bodyAjv.compile(schema);
    const validate = textAjv.compile(schema);
    const integerKeys = Object.entries(
      (schema as { properties?: Record<string, TSchema> }).properties ?? {},
    )
      .filter(([, property]) => property.type === "integer")
      .map(([key]) => key);
    const check = ((data: Record<string, unknown>) => {
      for (const key of integerKeys) {
        const value = data[key];
        if (typeof value === "string" && !/^-?\d{1,15}$/.test(value)) {
          check.errors = [integerError(key)];
          return false;
        }
      }
      const ok = validate(data);
      check.errors = validate.errors;
      return ok;
    }) as ValidateFunction;
    return check;
  };
}

function withSchemas(ajv: Ajv, schemas: TSchema[]): Ajv {
  addFormats.default(ajv);
  ajv.addKeyword({
    keyword: MAX_DEPTH_KEYWORD,
    type: ["object", "array"],
    schemaType: "number",
    validate: (limit: number, data: unknown) => nestingDepthAtMost(data, limit),
  });
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

function integerError(key: string): ErrorObject {
  return {
    instancePath: `/${key}`,
    schemaPath: "#/type",
    keyword: "type",
    params: { type: "integer" },
    message: "must be integer",
  };
}

const PART_NAMES: Record<string, string> = {
  body: "body",
  querystring: "query",
  params: "path",
  headers: "header",
};

/** Turns the first validation error into one sentence naming the field, e.g. `title must be a string`. */
export function describeValidationError(errors: ErrorObject[], part: string): string {
  const error = errors[0];
  if (!error) return "invalid request";
  const path = fieldPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") {
    const field = path ? `${path}.${params.missingProperty}` : String(params.missingProperty);
    return `${field} is required`;
  }
  const subject = path || (PART_NAMES[part] ?? part);
  switch (error.keyword) {
    case "type": {
      const types = Array.isArray(params.type) ? params.type : [params.type];
      if (part === "params" && types.includes("integer"))
        return `${subject} must be a positive integer`;
      if (part === "body" && path === "") return "request body must be a JSON object";
      return `${subject} must be ${types.map(article).join(" or ")}`;
    }
    case "minimum":
      if (part === "params") return `${subject} must be a positive integer`;
      return `${subject} must be >= ${params.limit}`;
    case "maximum":
      return `${subject} must be <= ${params.limit}`;
    case "minLength":
      return `${subject} must be at least ${params.limit} characters`;
    case "maxLength":
      return `${subject} must be at most ${params.limit} characters`;
    case "minItems":
      if (params.limit === 1) return `${subject} must not be empty`;
      return `${subject} must have at least ${params.limit} items`;
    case "maxItems":
      return `${subject} must have at most ${params.limit} items`;
    case "enum":
      return `${subject} must be one of ${(params.allowedValues as unknown[]).join(", ")}`;
    case "const":
      return `${subject} must be ${JSON.stringify(params.allowedValue)}`;
    case "pattern":
      return `${subject} has an invalid format`;
    case "format":
      return `${subject} must be a valid ${params.format}`;
    case MAX_DEPTH_KEYWORD:
      return `${subject} is nested more than ${FREE_OBJECT_MAX_DEPTH} levels deep`;
    case "anyOf":
    case "oneOf":
      return `${subject} has an invalid value`;
    default:
      return `${subject} ${error.message ?? "is invalid"}`;
  }
}

/** `/tagIds/0` → `tagIds[0]`, `/items/2/ticketId` → `items[2].ticketId`. */
function fieldPath(instancePath: string): string {
  return instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((path, segment) => {
      if (/^\d+$/.test(segment)) return `${path}[${segment}]`;
      return path ? `${path}.${segment}` : segment;
    }, "");
}

function article(type: unknown): string {
  switch (type) {
    case "integer":
      return "an integer";
    case "array":
      return "an array";
    case "object":
      return "an object";
    case "null":
      return "null";
    default:
      return `a ${String(type)}`;
  }
}
