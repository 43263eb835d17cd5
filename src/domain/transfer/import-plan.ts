// What a board import works with between checking the document and answering: the checked
// plan (board-import.ts builds it, import-detail.ts answers from it) and the ids the write gave.
// Its own module, so that the two read the same types without importing each other.
import type { ImportedTicketRow } from "../../storage/board-export.js";
import type { TemplateWrite } from "../../storage/templates.js";
import type { cleanExternalReference } from "../annotations/external-references.js";
import type { cleanTicketEvent } from "../annotations/ticket-events.js";
import type { PlannedAsk } from "../asks/ask-transfer.js";

/** A checked ticket, everything resolved to indexes into the plan's own arrays. */
export interface PlannedTicket {
  /** Index in the document's `tickets`, for messages and the old→new id map. */
  index: number;
  sourceId: number;
  laneIndex: number;
  parentIndex: number | null;
  row: ImportedTicketRow;
  /** Tag index → reason metadata (null fields when the tag is attached without a reason). */
  tags: Map<number, PlannedReason>;
  /** Oldest first, as they are inserted. */
  comments: Array<{
    sourceId: number | undefined;
    bodyMarkdown: string;
    bodyHtml: string;
    createdAt: string;
  }>;
  /** Blocker ticket index → its position in the document's blockerIds (for messages). */
  blockers: Map<number, number>;
  relatedIndexes: number[];
  references: Array<{
    kind: string;
    fields: ReturnType<typeof cleanExternalReference>;
    createdAt: string;
    updatedAt: string;
  }>;
  /** Oldest first. */
  events: Array<ReturnType<typeof cleanTicketEvent> & { createdAt: string }>;
  /** In document order (oldest first in an export). */
  asks: PlannedAsk[];
}

export interface PlannedReason {
  reason: string | null;
  details: Record<string, unknown> | null;
  /** Source comment id, mapped once the comments exist. */
  reasonCommentId: number | null;
  attachedAt: string | null;
  updatedAt: string | null;
}

export interface ImportPlan {
  boardName: string;
  lanes: Array<{ name: string; wipLimit: number | null }>;
  tags: Array<{ name: string; color: string }>;
  tickets: PlannedTicket[];
  templates: TemplateWrite[];
}

/** The ids a board import gave what it wrote, by index into the plan's arrays. */
export interface WrittenBoard {
  boardId: number;
  laneIds: number[];
  tagIds: number[];
  ticketIds: number[];
  /** Per ticket, its comments' ids in the plan's order (oldest first). */
  commentIds: number[][];
  /** Per ticket, its external references' ids in the plan's order. */
  referenceIds: number[][];
}
