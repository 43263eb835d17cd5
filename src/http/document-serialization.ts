import { Readable } from "node:stream";
import type { FastifySerializerCompiler } from "fastify";

/**
 * Serialization for the answers that are a whole board (the import's 201 BoardDetail; the
 * export is always streamed): megabytes made mostly of rendered HTML and Markdown strings. The schema
 * serializer (fast-json-stringify) hands every string with a quote in it to JSON.stringify
 * anyway, and walks the rest in generated JS; V8's own JSON.stringify of the whole document does
 * the same work in native code. Measured on a 5,000-ticket board: export 1.6x faster, the import
 * answer's serialization ~100 -> ~40 ms, with half the garbage (docs/performance.md).
 *
 * What the schema serializer would add is a filter: fields outside the schema dropped, types
 * coerced. These documents are built field by field in the domain (transfer/), and
 * test/api/board-export.test.ts checks the export equals its schema-serialized form and
 * test/api/board-import-roundtrip.test.ts that the import's answer equals the (schema-serialized)
 * reads of the board it created, so nothing extra can ride along unnoticed. The response schemas
 * stay on the routes for the OpenAPI document.
 */
export const serializeWholeDocument: { serializerCompiler: FastifySerializerCompiler<unknown> } = {
  serializerCompiler: () => (document: unknown) => JSON.stringify(document),
};

/** Bytes of JSON gathered before a chunk goes to the socket. */
const CHUNK_BYTES = 256 * 1024;

/**
 * The JSON text of `document` (exactly what JSON.stringify gives) as a stream, its top-level
 * arrays element by element: a 20,000-ticket import answer is ~80 MiB of JSON, and as one string
 * (plus the Buffer it is copied into for the socket) it was two copies of that at the peak of
 * the request. Chunks are made as the socket takes them, so at most a few are held at once.
 */
export function streamDocument(document: object, keep?: KeepWhole): Readable {
  const chunks = documentChunks(document);
  return Readable.from(keep ? keptWhole(chunks, keep) : chunks, { objectMode: false });
}

/** What to do with a streamed document's whole text once made, if it has at most `maxBytes`. */
export interface KeepWhole {
  maxBytes: number;
  keep(bytes: Buffer): void;
}

/**
 * The chunks as they come, also gathered while they total at most `maxBytes` (given up beyond,
 * so a large document holds no more than that) and handed over whole after the last one.
 */
function* keptWhole(chunks: Iterable<Buffer>, { maxBytes, keep }: KeepWhole): Generator<Buffer> {
  let gathered: Buffer[] | null = [];
  let size = 0;
  for (const chunk of chunks) {
    if (gathered !== null) {
      size += chunk.length;
      if (size <= maxBytes) gathered.push(chunk);
      else gathered = null;
    }
    yield chunk;
  }
  if (gathered !== null) keep(Buffer.concat(gathered, size));
}

function* documentChunks(document: object): Generator<Buffer> {
  const chunks = new ChunkWriter();
  let first = true;
  for (const [key, value] of Object.entries(document)) {
    const elements = elementsOf(value);
    const whole = elements ? null : (JSON.stringify(value) as string | undefined);
    if (whole === undefined) continue; // undefined and functions are left out, as JSON.stringify does
    yield* chunks.write(`${first ? "{" : ","}${JSON.stringify(key)}:`);
    first = false;
    if (whole !== null) {
      yield* chunks.write(whole);
      continue;
    }
    let count = 0;
    for (const element of elements as Iterable<unknown>) {
      yield* chunks.write(count++ === 0 ? "[" : ",");
      yield* chunks.write(JSON.stringify(element) ?? "null");
    }
    yield* chunks.write(count === 0 ? "[]" : "]");
  }
  yield* chunks.write(first ? "{}" : "}");
  yield* chunks.end();
}

/**
 * The elements of a top-level array, or of a list whose elements are made as they are read
 * (an iterable whose toJSON gives the same elements as an array, as JSON.stringify would write
 * it); null for any other value.
 */
function elementsOf(value: unknown): Iterable<unknown> | null {
  if (Array.isArray(value)) return value;
  const list = value as { [Symbol.iterator]?: unknown; toJSON?: unknown } | null;
  if (typeof list === "object" && list !== null && typeof list[Symbol.iterator] === "function") {
    if (typeof list.toJSON === "function") return list as Iterable<unknown>;
  }
  return null;
}

/**
 * Gathers text into fixed-size byte chunks, each piece encoded straight into its chunk. Not
 * by concatenating strings: a chunk made of many pieces is a rope V8 must flatten into one new
 * string before encoding it, and a string that size goes to V8's large-object space, whose fresh
 * pages cost more than the JSON itself (~330 ms of a 5,000-ticket import answer,
 * docs/performance.md).
 */
class ChunkWriter {
  private chunk: Buffer | null = null;
  private used = 0;

  *write(text: string): Generator<Buffer> {
    const size = Buffer.byteLength(text);
    if (this.chunk !== null && this.used + size > this.chunk.length) yield* this.end();
    if (size > CHUNK_BYTES) {
      yield Buffer.from(text);
      return;
    }
    this.chunk ??= Buffer.allocUnsafe(CHUNK_BYTES);
    this.used += this.chunk.write(text, this.used);
  }

  *end(): Generator<Buffer> {
    if (this.chunk === null) return;
    yield this.chunk.subarray(0, this.used);
    this.chunk = null;
    this.used = 0;
  }
}
