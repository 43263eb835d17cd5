import { Type } from "@sinclair/typebox";
import { TagColor } from "../../model/boards.js";
import { BODY_MAX, grouped, WIP_LIMIT_MAX, WIP_LIMIT_MIN } from "../../model/limits.js";
import { Priority } from "../../model/tickets.js";
import {
  MAX_IMPORT_COMMENTS_PER_TICKET,
  MAX_IMPORT_TEMPLATES,
  MAX_IMPORT_TICKETS,
} from "../request-limits.js";
import { ImportedAsk } from "./asks.js";
import { FreeObjectInput, Id, Nullable, Timestamp } from "./common.js";
import { ReferenceKind, referenceSetFields } from "./external-references.js";
import { ImportedTemplate } from "./templates.js";

export { BoardExport } from "../../model/board-export.js";

// The board document of docs/api.md, "Export and import" (docs/export-format.md): `BoardExport`
// (src/model/board-export.ts) is what export answers, `BoardImport` what import accepts (the same
// shape, with only ids, names and titles required, so documents of other implementations of the
// interface load too).

/** Generous bounds, so a hostile document cannot make validation itself the problem. */
const MANY = 1_000_000;

const ImportedTicket = Type.Object({
  id: Id,
  laneId: Id,
  title: Type.String(),
  parentTicketId: Type.Optional(Nullable(Id)),
  bodyMarkdown: Type.Optional(Type.String({ maxLength: BODY_MAX })),
  isResolved: Type.Optional(Type.Boolean()),
  isCompleted: Type.Optional(
    Type.Boolean({ description: "Alias of isResolved, which wins when both are present." }),
  ),
  isArchived: Type.Optional(Type.Boolean()),
  priority: Type.Optional(Priority),
  position: Type.Optional(Type.Integer({ minimum: 0 })),
  createdAt: Type.Optional(Timestamp),
  updatedAt: Type.Optional(Timestamp),
  notBefore: Type.Optional(
    Nullable(Type.String({ description: "RFC 3339 date-time with an offset, or null." })),
  ),
  tags: Type.Optional(
    Type.Array(Type.Object({ id: Type.Optional(Id), name: Type.Optional(Type.String()) }), {
      maxItems: MANY,
      description: "Matched to the document's tags by name, else by id.",
    }),
  ),
  comments: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.Optional(Id),
        bodyMarkdown: Type.String(),
        createdAt: Type.Optional(Timestamp),
      }),
      { maxItems: MAX_IMPORT_COMMENTS_PER_TICKET },
    ),
  ),
  blockerIds: Type.Optional(Nullable(Type.Array(Id, { maxItems: MANY }))),
  relatedIds: Type.Optional(Nullable(Type.Array(Id, { maxItems: MANY }))),
  externalReferences: Type.Optional(
    Type.Array(
      Type.Object({
        kind: ReferenceKind,
        ...referenceSetFields,
        createdAt: Type.Optional(Timestamp),
        updatedAt: Type.Optional(Timestamp),
      }),
      { maxItems: MANY },
    ),
  ),
  tagReasons: Type.Optional(
    Type.Array(
      Type.Object({
        tagId: Id,
        reason: Type.Optional(Nullable(Type.String())),
        details: Type.Optional(Nullable(FreeObjectInput)),
        reasonCommentId: Type.Optional(Nullable(Id)),
        attachedAt: Type.Optional(Nullable(Timestamp)),
        updatedAt: Type.Optional(Nullable(Timestamp)),
      }),
      { maxItems: MANY },
    ),
  ),
  events: Type.Optional(
    Type.Array(
      Type.Object({
        source: Type.String(),
        kind: Type.String(),
        title: Type.String(),
        summary: Type.Optional(Nullable(Type.String())),
        severity: Type.Optional(Nullable(Type.String())),
        icon: Type.Optional(Nullable(Type.String())),
        data: Type.Optional(FreeObjectInput),
        createdAt: Type.Optional(Timestamp),
      }),
      { maxItems: MANY },
    ),
  ),
  asks: Type.Optional(
    Type.Array(ImportedAsk, {
      maxItems: MANY,
      description: "Recreated with new ids; times, status and answer kept.",
    }),
  ),
});

export const BoardImport = Type.Object(
  {
    format: Type.Optional(Type.Literal("tack.board")),
    version: Type.Optional(Type.Literal(1)),
    board: Type.Object({ name: Type.String() }),
    lanes: Type.Array(
      Type.Object({
        id: Id,
        name: Type.String(),
        // Checked by the import itself, so the 400 names the lane (docs/api.md, "Insights").
        wipLimit: Type.Optional(
          Type.Unknown({
            description: `${WIP_LIMIT_MIN}-${grouped(WIP_LIMIT_MAX)} or null (none); absent: none`,
          }),
        ),
      }),
      { maxItems: MANY },
    ),
    tags: Type.Optional(
      Type.Array(
        Type.Object({ id: Type.Optional(Id), name: Type.String(), color: Type.Optional(TagColor) }),
        { maxItems: MANY },
      ),
    ),
    tickets: Type.Optional(Type.Array(ImportedTicket, { maxItems: MAX_IMPORT_TICKETS })),
    templates: Type.Optional(
      Type.Array(ImportedTemplate, {
        maxItems: MAX_IMPORT_TEMPLATES,
        description: "Absent: the board has no templates. laneName names a lane of `lanes`.",
      }),
    ),
  },
  {
    $id: "BoardImport",
    description:
      "A BoardExport document; format and version may be absent. Per ticket only id, laneId " +
      "and title are required.",
  },
);
