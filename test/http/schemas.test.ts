import assert from "node:assert/strict";
import { test } from "node:test";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { MAX_DEPTH_KEYWORD } from "../../src/http/request-limits.js";
import { namedSchemas } from "../../src/http/schemas/index.js";

// The server's validators skip Ajv's check of the schemas against the JSON Schema meta-schema
// (src/http/validation.ts: it cost ~190 ms on each process's first request). The shared schemas
// are static, so the check runs here instead. (Route-local schemas are TypeBox builders over
// these; Fastify offers no list of them to walk.)
test("every shared schema is a valid JSON Schema", () => {
  const ajv = new Ajv({ strict: false, validateSchema: true });
  addFormats.default(ajv);
  ajv.addKeyword({ keyword: MAX_DEPTH_KEYWORD, schemaType: "number" });
  for (const schema of namedSchemas) ajv.addSchema(schema);
  assert.ok(namedSchemas.length > 20);
  for (const schema of namedSchemas) {
    const id = (schema as { $id: string }).$id;
    assert.ok(ajv.validateSchema(schema), `${id}: ${ajv.errorsText(ajv.errors)}`);
    assert.ok(ajv.getSchema(id), id);
  }
  // The check itself works: a broken schema fails it.
  assert.equal(ajv.validateSchema({ type: "object", properties: { a: { type: 7 } } }), false);
});
