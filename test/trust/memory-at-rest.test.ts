import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { Ajv } from "ajv";
import { startTestServer } from "../helpers/server.js";

/**
 * Memory at rest (docs/performance.md): compiling every route's schemas while tack started made
 * ~150 MB of garbage, and V8 kept the heap it grew for it (~127 MiB resident at rest instead of
 * ~96). Schemas are now compiled when a route first needs them. This checks that structurally,
 * with no memory threshold: after start no request validator has been compiled and the response
 * serializer compiler has not even been loaded; the first requests then compile theirs.
 */

const require = createRequire(import.meta.url);
const SERIALIZER_COMPILER = /[\\/]node_modules[\\/]fast-json-stringify[\\/]index\.js$/;
/** Fastify's own Ajv compiler package: tack hands Fastify its validator compiler instead. */
const FASTIFY_AJV_COMPILER = /[\\/]node_modules[\\/]@fastify[\\/]ajv-compiler[\\/]/;
/** The Markdown renderer's packages, loaded by the first body rendered (load-on-first-use.ts). */
const MARKDOWN_PACKAGES = /[\\/]node_modules[\\/](markdown-it|highlight\.js|xss|entities)[\\/]/;
const loaded = (file: RegExp) => Object.keys(require.cache).some((path) => file.test(path));
const serializerCompilerLoaded = () => loaded(SERIALIZER_COMPILER);

let validatorsCompiled = 0;
const compile = Ajv.prototype.compile;
Ajv.prototype.compile = function (this: Ajv, ...args: Parameters<typeof compile>) {
  validatorsCompiled++;
  return compile.apply(this, args);
} as typeof compile;

test("no route schema is compiled at start; each is compiled on its route's first use", async () => {
  const tack = await startTestServer();
  assert.equal(validatorsCompiled, 0, "request validators compiled at start");
  assert.equal(serializerCompilerLoaded(), false, "response serializer compiler loaded at start");
  assert.equal(loaded(FASTIFY_AJV_COMPILER), false, "Fastify's unused Ajv compiler loaded");
  assert.equal(loaded(MARKDOWN_PACKAGES), false, "the Markdown renderer loaded at start");

  const created = await tack.post("/api/boards", { name: "first" });
  assert.equal(created.status, 201);
  assert.ok(validatorsCompiled > 0, "the create's body validator is compiled on first use");
  assert.ok(serializerCompilerLoaded(), "the create's answer is serialized by the schema compiler");

  // The lazily compiled functions behave as the eager ones did: bad input is still refused with
  // the field named, and answers are serialized as before.
  const refused = await tack.post("/api/boards", { name: 5 });
  assert.equal(refused.status, 400);
  assert.match(refused.body.error, /name/);
  const boardId = created.body.board.id as number;
  const refusedPath = await tack.get("/api/boards/abc");
  assert.equal(refusedPath.status, 400);
  const read = await tack.get(`/api/boards/${boardId}`);
  assert.equal(read.status, 200);
  assert.equal(read.body.board.name, "first");

  // The first body rendered loads the renderer, and renders as before.
  assert.equal(loaded(MARKDOWN_PACKAGES), false, "the Markdown renderer loaded by reads");
  const lane = read.body.lanes[0].id as number;
  const ticket = await tack.post(`/api/boards/${boardId}/tickets`, {
    laneId: lane,
    title: "rendered",
    bodyMarkdown: "**bold** and `code`\n\n```js\nconst a = 1;\n```",
  });
  assert.equal(ticket.status, 201);
  assert.ok(loaded(MARKDOWN_PACKAGES), "the renderer is loaded by the first body");
  assert.match(ticket.body.bodyHtml, /<strong>bold<\/strong>/);
  assert.match(ticket.body.bodyHtml, /<span class="hljs-keyword">const<\/span>/);
});
