import { type Static, Type } from "@sinclair/typebox";
import { ExportedAsk } from "./asks.js";
import { BoardRef, LaneRef, TagRef } from "./boards.js";
import { ExportedComment } from "./comments.js";
import { Id, Nullable, Timestamp } from "./common.js";
import { TicketEventRef } from "./records.js";
import { tagReasonFields } from "./tag-reasons.js";
import { ExportedTemplate } from "./templates.js";
import { ticketCoreFields } from "./tickets.js";

// The board document of docs/api.md, "Export and import" (docs/export-format.md) as export
// answers it. What an import accepts (the same shape, most fields optional) is a request schema:
// http/schemas/board-export.ts.

export const EXPORT_FORMAT = "tack.board";
export const EXPORT_VERSION = 1;

/** A tag link's reason in the export: the tag's id and the link's reason metadata. */
export const ExportedTagReason = Type.Object({ tagId: Id, ...tagReasonFields });
export type ExportedTagReason = Static<typeof ExportedTagReason>;

/** The ticket's own fields as Ticket declares them, in the order given. */
function ticketFields<K extends keyof typeof ticketCoreFields>(...keys: K[]) {
  return Object.fromEntries(keys.map((key) => [key, ticketCoreFields[key]])) as Pick<
    typeof ticketCoreFields,
    K
  >;
}

/** One ticket of the export: remote tracking, claims and derived fields are left out. */
export const ExportedTicket = Type.Object({
  ...ticketFields("id", "boardId", "laneId", "parentTicketId", "hasChildren", "title"),
  bodyMarkdown: Type.String(),
  ...ticketFields(
    "isResolved",
    "isCompleted",
    "isArchived",
    "priority",
    "position",
    "createdAt",
    "updatedAt",
  ),
  notBefore: Nullable(Timestamp),
  ...ticketFields("tags"),
  comments: Type.Array(ExportedComment, { description: "Newest first." }),
  ...ticketFields("blockerIds", "relatedIds", "externalReferences"),
  tagReasons: Type.Array(ExportedTagReason, { description: "One entry per attached tag." }),
  events: Type.Array(TicketEventRef, { description: "Newest first." }),
  asks: Type.Array(ExportedAsk, { description: "Oldest first, every status." }),
});
export type ExportedTicket = Static<typeof ExportedTicket>;

export const BoardExport = Type.Object(
  {
    format: Type.Literal(EXPORT_FORMAT),
    version: Type.Literal(EXPORT_VERSION),
    board: BoardRef,
    lanes: Type.Array(LaneRef),
    tags: Type.Array(TagRef),
    tickets: Type.Array(ExportedTicket, {
      description: "Board order; archived tickets included; remote tracking omitted.",
    }),
    templates: Type.Array(ExportedTemplate, {
      description: "The board's templates by name (ignoring case), without ids.",
    }),
  },
  { $id: "BoardExport" },
);
export type BoardExport = Static<typeof BoardExport>;
