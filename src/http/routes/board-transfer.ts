import { type Static, Type } from "@sinclair/typebox";
import type { EntityTags } from "../../domain/entity-tags.js";
import type { BoardExporter } from "../../domain/transfer/board-export.js";
import type { BoardImporter } from "../../domain/transfer/board-import.js";
import type { ImportDocument } from "../../domain/transfer/import-plan.js";
import { AnswerCache, answerFromTag, boardTagOf } from "../conditional-requests.js";
import {
  type KeepWhole,
  serializeWholeDocument,
  streamDocument,
} from "../document-serialization.js";
import { IdempotencyKeyHeaders } from "../idempotency-keys.js";
import { BoardExport, BoardImport } from "../schemas/board-export.js";
import { type BoardDetail, BoardDetailRef } from "../schemas/boards.js";
import { answer, BoardIdParams, errors } from "../schemas/common.js";
import {
  importSource,
  importValidatorCompiler,
  installImportBodyParsing,
  type StreamedImportBody,
} from "../streamed-import.js";
import type { TackApp } from "../types.js";

/** Exports up to this size may be kept for the next requests of the unchanged board. */
export const KEEP_EXPORT_BYTES = 64 * 1024 * 1024;

/** Export and import of whole boards (docs/api.md, "Export and import", docs/export-format.md). */
export function boardTransferRoutes(
  app: TackApp,
  services: { boardExport: BoardExporter; boardImport: BoardImporter; entityTags: EntityTags },
): void {
  // The last exports of unchanged boards: an export is the board's tag (its revision) away from
  // being stale, and a client polling for backups or sync asks again and again (a fresh export
  // costs ~0.1 ms of CPU a ticket). Every export is streamed; the second one of the same board
  // state, if at most KEEP_EXPORT_BYTES (a 5,000-ticket board is ~21 MiB, 15,000 ~64 MiB), is
  // gathered and kept once sent, so a one-off export (a backup) holds no memory afterwards and
  // a larger one is never held whole.
  const exports = new AnswerCache(KEEP_EXPORT_BYTES, { admitOnRepeat: true });

  app.get(
    "/api/boards/:boardId/export",
    {
      schema: {
        operationId: "exportBoard",
        summary: "Export a board as one document",
        tags: ["boards"],
        description:
          "The whole board as one document (format tack.board, version 1), written as it is " +
          "read, all of it from one state of the database.",
        params: BoardIdParams,
        response: {
          200: answer(
            Type.Ref(BoardExport),
            "The whole board: lanes, tags, tickets, comments, events and history.",
          ),
          ...errors(400, 404),
        },
      },
    },
    async (request, reply) => {
      const { boardId } = request.params;
      // The board's tag names its state, so no hash of the body is needed for the ETag. The
      // export's snapshot is taken in this same tick, so the tag names the state it reads.
      const tag = boardTagOf(services.entityTags, boardId);
      const key = String(boardId);
      if (tag !== undefined && answerFromTag(request, reply, tag, { store: exports, key })) {
        return reply;
      }
      const exported = services.boardExport.export(boardId);
      // Ends the snapshot when the client leaves early too (or never reads a byte).
      reply.raw.once("close", exported.close);
      const keep: KeepWhole | undefined =
        tag !== undefined && exports.admit(key, tag)
          ? { maxBytes: KEEP_EXPORT_BYTES, keep: (bytes) => exports.keep(key, tag, bytes) }
          : undefined;
      // Serialized by streamDocument (JSON.stringify piece by piece), not the schema serializer:
      // test/api/board-export.test.ts checks it equals its schema-serialized form. The type
      // provider knows only the plain object form of the answer, hence the cast.
      reply.type("application/json; charset=utf-8");
      const body = streamDocument(exported.document, keep);
      return reply.send(body as unknown as Static<typeof BoardExport>);
    },
  );

  // Its own context: the import's body is read as it arrives, by its own JSON parser.
  app.register(async (scope) => {
    installImportBodyParsing(scope);
    scope.post(
      "/api/boards/import",
      {
        ...serializeWholeDocument,
        validatorCompiler: importValidatorCompiler,
        schema: {
          operationId: "importBoard",
          summary: "Import a board document as a new board",
          tags: ["boards"],
          description:
            "Creates a new board from a BoardExport document, in one transaction. Any violation " +
            "is a 400 naming the element (e.g. tickets[4].priority) and nothing is created. The " +
            "body is read as it arrives: at most 100,000 tickets and 1 GiB (413 beyond); with an " +
            "Idempotency-Key it is read whole, at most 64 MiB.",
          body: Type.Ref(BoardImport),
          headers: IdempotencyKeyHeaders,
          response: {
            201: answer(BoardDetailRef, "The new board with its lanes and tags."),
            ...errors(400, 413, 422),
          },
        },
        config: { idempotent: true },
      },
      async (request, reply) => {
        const body = request.body as unknown as StreamedImportBody | ImportDocument;
        const { detail, release } = await services.boardImport.import(importSource(body));
        // Streamed (document-serialization.ts), its tickets made as they are written, unless an
        // Idempotency-Key asks for the answer to be stored for replay, which needs it whole
        // (JSON.stringify reads the tickets as an array). The type provider knows only the
        // plain object form of the answer, hence the casts.
        type Answer = Static<typeof BoardDetail>;
        const whole = request.headers["idempotency-key"] !== undefined;
        reply.raw.once("close", release);
        reply.type("application/json; charset=utf-8");
        if (whole) {
          // Made now: the scratch file is released when the client leaves, which a keyed
          // answer outlives (it is kept for the retry).
          const text = JSON.stringify(detail);
          release();
          return reply.code(201).send(text as unknown as Answer);
        }
        return reply.code(201).send(streamDocument(detail) as unknown as Answer);
      },
    );
  });
}
