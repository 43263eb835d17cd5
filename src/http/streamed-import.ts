import type { IncomingMessage } from "node:http";
import { type TSchema, Type } from "@sinclair/typebox";
import type { ErrorObject } from "ajv";
import {
  errorCodes,
  type FastifyInstance,
  type FastifySchemaCompiler,
  type FastifySchemaValidationError,
} from "fastify";
import secureJson from "secure-json-parse";
import { InvalidInput } from "../domain/errors.js";
import type {
  ImportDocument,
  ImportHead,
  ImportSource,
  ImportTicket,
  SourceTicket,
} from "../domain/transfer/import-plan.js";
import { JsonReadError, jsonMembers } from "../json/json-members.js";
import { parseJsonBody } from "./body-parsing.js";
import { validatorsCompiledOnFirstUse } from "./lazy-schema-compilers.js";
import {
  BODY_MAX_DEPTH,
  IMPORT_BODY_LIMIT,
  IMPORT_STREAM_BYTE_LIMIT,
  MAX_IMPORT_TICKETS,
} from "./request-limits.js";
import { BoardImport } from "./schemas/board-export.js";
import { namedSchemas } from "./schemas/index.js";
import { createValidatorCompiler, describeValidationError } from "./validation.js";

/**
 * The body of `POST /api/boards/import`, read as it arrives (docs/api.md, "Export and import";
 * docs/decisions.md, "A board import streams into scratch files"). A 100,000-ticket export is
 * ~200 MB of JSON, and parsed whole it took gigabytes; read this way, one ticket at a time is in
 * memory, checked against the same schema (BoardImport) with the same messages, its index in
 * the path (`tickets[4].priority must be <= 4`). The size of the board decides what imports:
 * at most MAX_IMPORT_TICKETS tickets and IMPORT_STREAM_BYTE_LIMIT bytes (request-limits.ts).
 *
 * A request with an Idempotency-Key is read whole, as before (at most IMPORT_BODY_LIMIT): its
 * key is checked against a hash of the whole body before the import runs, and its answer is
 * kept whole for a replay (http/idempotency-keys.ts).
 */

/** A body the handler reads as it arrives; the route's validation lets it through. */
export class StreamedImportBody {
  constructor(readonly message: IncomingMessage) {}
}

/** The import route's JSON parser, in its own encapsulated context (routes/board-transfer.ts). */
export function installImportBodyParsing(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", (request, payload, done) => {
    const declared = Number(request.headers["content-length"]);
    const keyed = request.headers["idempotency-key"] !== undefined;
    const limit = keyed ? IMPORT_BODY_LIMIT : IMPORT_STREAM_BYTE_LIMIT;
    if (declared > limit) {
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
      return;
    }
    if (!keyed) {
      done(null, new StreamedImportBody(payload as IncomingMessage));
      return;
    }
    readWhole(payload as IncomingMessage, limit).then(
      (text) => {
        try {
          done(null, parseJsonBody(text));
        } catch (error) {
          done(error as Error, undefined);
        }
      },
      (error: Error) => done(error, undefined),
    );
  });
}

/** The body as text, refused with 413 once it passes `limit` bytes. */
async function readWhole(message: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of message as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The route's validation: a streamed body passes (it is checked as it is read), a whole one is
 * checked against BoardImport; headers as every route's.
 */
export const importValidatorCompiler: FastifySchemaCompiler<unknown> = validatorsCompiledOnFirstUse(
  () => {
    const compile = validators().compile;
    return (route) => {
      if (route.httpPart !== "body") return compile(route as Parameters<typeof compile>[0]);
      const whole = validators().document;
      const validate = ((body: unknown) => {
        if (body instanceof StreamedImportBody) return true;
        const valid = whole(body) as boolean;
        validate.errors = whole.errors;
        return valid;
      }) as ((body: unknown) => boolean) & { errors?: unknown };
      return validate as ReturnType<FastifySchemaCompiler<unknown>>;
    };
  },
);

type Check = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

let compiled: { compile: FastifySchemaCompiler<TSchema>; document: Check; ticket: Check } | null =
  null;

/** Compiled at the first import, with tack's validation rules (validation.ts). */
function validators() {
  if (compiled) return compiled;
  const compile = createValidatorCompiler(namedSchemas);
  const body = (schema: TSchema) =>
    compile({ schema, httpPart: "body", method: "POST", url: "/api/boards/import" }) as Check;
  compiled = {
    compile,
    document: body(Type.Ref(BoardImport)),
    ticket: body({ $ref: "BoardImport#/properties/tickets/items" } as unknown as TSchema),
  };
  return compiled;
}

/** The import's view of a request body, streamed or whole. */
export function importSource(body: StreamedImportBody | ImportDocument): ImportSource {
  if (!(body instanceof StreamedImportBody)) {
    const { tickets = [], ...head } = body;
    return {
      tickets: (async function* () {
        for (const ticket of tickets) yield { ticket };
      })(),
      // Read whole: at most IMPORT_BODY_LIMIT, kept in memory anyway.
      bytes: 0,
      head: () => head,
    };
  }
  let head: ImportHead | null = null;
  const declared = Number(body.message.headers["content-length"]);
  return {
    bytes: Number.isFinite(declared) ? declared : undefined,
    tickets: streamedTickets(body.message, (checked) => {
      head = checked;
    }),
    head: () => {
      if (head === null) throw new Error("board import: the document has not been read yet");
      return head;
    },
  };
}

/** The document's tickets as they arrive, each checked; `onHead` gets the rest at the end. */
async function* streamedTickets(
  message: IncomingMessage,
  onHead: (head: ImportHead) => void,
): AsyncGenerator<SourceTicket> {
  const { document, ticket: checkTicket } = validators();
  const members: Record<string, unknown> = {};
  let count = 0;
  for await (const piece of bodyPieces(message)) {
    if (piece.kind === "member") {
      const value = parse(piece.text);
      // As secure-json-parse does for the members' own keys (body-parsing.ts).
      if (piece.key !== "__proto__" && piece.key !== "constructor") members[piece.key] = value;
      continue;
    }
    if (count === MAX_IMPORT_TICKETS) {
      throw new InvalidInput(`tickets must have at most ${MAX_IMPORT_TICKETS} items`);
    }
    const ticket = parse(piece.text);
    if (!checkTicket(ticket)) throw invalid(checkTicket.errors, `/tickets/${count}`);
    count += 1;
    yield { ticket: ticket as ImportTicket, text: piece.text };
  }
  // The rest of the document, checked with an empty list where its tickets were.
  const streamed = !("tickets" in members);
  const rest = streamed ? { ...members, tickets: [] } : members;
  if (!document(rest)) throw invalid(document.errors, "");
  delete rest.tickets;
  onHead(rest as unknown as ImportHead);
}

const NOT_JSON = "request body is not valid JSON";

/** The body's members and tickets; a malformed body is a 400 naming it (InvalidInput). */
async function* bodyPieces(message: IncomingMessage) {
  try {
    yield* jsonMembers(counted(message), {
      subject: "request body",
      streamedKey: "tickets",
      maxDepth: BODY_MAX_DEPTH,
    });
  } catch (error) {
    throw error instanceof JsonReadError ? new InvalidInput(error.message) : error;
  }
}

/** A piece of the document parsed as secure-json-parse parses a whole body (body-parsing.ts). */
function parse(text: string): unknown {
  try {
    return secureJson.parse(text, undefined, {
      protoAction: "remove",
      constructorAction: "remove",
    });
  } catch {
    throw new InvalidInput(NOT_JSON);
  }
}

function invalid(errors: FastifySchemaValidationError[] | null | undefined, prefix: string) {
  const found = (errors ?? []) as ErrorObject[];
  const first = found[0];
  const located = first ? [{ ...first, instancePath: prefix + first.instancePath }] : [];
  return new InvalidInput(describeValidationError(located, "body"));
}

/** The body's chunks, refused with 413 once they pass IMPORT_STREAM_BYTE_LIMIT. */
async function* counted(message: IncomingMessage): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of message as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > IMPORT_STREAM_BYTE_LIMIT) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    yield chunk;
  }
}
