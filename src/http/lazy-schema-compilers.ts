import { createRequire } from "node:module";
import type { FastifySchemaCompiler, FastifyServerOptions } from "fastify";

/**
 * Route schemas are compiled when a route first needs them, not when the app is built.
 *
 * Fastify compiles every route's validators (Ajv) and response serializers (fast-json-stringify)
 * while it starts. For tack's ~60 routes (and their HEAD twins) that allocated ~150 MB of
 * short-lived garbage before the first request (80 MB in fast-json-stringify alone), and V8 kept
 * the heap it grew for it: ~125 MiB resident at rest, of which ~20 MiB live objects
 * (docs/performance.md, "Start-up and memory at rest").
 * Compiling at first use builds the same functions from the same schemas. A route's first request
 * pays its compiles (~5-30 ms each on a busy machine), the first validated request of all also
 * tack's Ajv setup, and routes never called cost nothing.
 */

type FastifySchemaControllerOptions = NonNullable<FastifyServerOptions["schemaController"]>;
type FastifyValidationResult = ReturnType<FastifySchemaCompiler<unknown>>;
type SerializerBuilder = NonNullable<
  NonNullable<FastifySchemaControllerOptions["compilersFactory"]>["buildSerializer"]
>;
type SerializerCompiler = ReturnType<SerializerBuilder>;
type ValidatorBuilder = NonNullable<
  NonNullable<FastifySchemaControllerOptions["compilersFactory"]>["buildValidator"]
>;
type Serializer = ReturnType<SerializerCompiler>;

// Fastify's own default serializer builder (the one it uses when none is given), resolved from
// Fastify's folder so it is exactly the version Fastify depends on.
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve("fastify"));
const defaultSerializerBuilder = (): SerializerBuilder =>
  (fastifyRequire("@fastify/fast-json-stringify-compiler") as () => SerializerBuilder)();

/**
 * Fastify's `schemaController` option: `validatorCompiler` for request validation, Fastify's
 * default response serializers, each compiled on first use. (Given here rather than with
 * `setValidatorCompiler`, Fastify does not load its own Ajv compiler package at all.)
 */
export function schemasCompiledOnFirstUse<T>(
  validatorCompiler: FastifySchemaCompiler<T>,
): FastifySchemaControllerOptions {
  let builder: SerializerBuilder | undefined;
  return {
    compilersFactory: {
      // Typed for Fastify's Ajv compiler package; Fastify calls it and uses what it returns.
      buildValidator: (() => validatorCompiler) as unknown as ValidatorBuilder,
      buildSerializer: (externalSchemas, serializerOptions) => {
        let compile: SerializerCompiler | undefined;
        return (route) => {
          let serialize: Serializer | undefined;
          return (data) => {
            if (!serialize) {
              builder ??= defaultSerializerBuilder();
              compile ??= builder(externalSchemas, serializerOptions);
              serialize = compile(route);
            }
            return serialize(data);
          };
        };
      },
    },
  };
}

/** A validator as Fastify calls it: Ajv's signature, its errors left on the function. */
type Validator = FastifyValidationResult & {
  (data: unknown, context?: unknown): ReturnType<FastifyValidationResult>;
  schemaEnv?: unknown;
};

/**
 * `compiler` (built by `createCompiler` on first use) with each validator compiled on first use.
 * The returned validator hands Fastify's second argument through (Fastify passes it to Ajv
 * functions, which it recognises by `schemaEnv`: Ajv may then replace the root value) and
 * leaves the compiled function's `errors` on itself, where Fastify reads them.
 */
export function validatorsCompiledOnFirstUse<T>(
  createCompiler: () => FastifySchemaCompiler<T>,
): FastifySchemaCompiler<T> {
  let compiler: FastifySchemaCompiler<T> | undefined;
  return (route) => {
    let validate: Validator | undefined;
    const validator: Validator = (data: unknown, context?: unknown) => {
      compiler ??= createCompiler();
      validate ??= compiler(route) as Validator;
      const result = validate(data, context);
      validator.errors = validate.errors;
      return result;
    };
    // Always set, so Fastify always passes the context; validators that do not use it ignore it.
    validator.schemaEnv = true;
    return validator;
  };
}
