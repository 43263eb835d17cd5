// What a board import works with between reading the document and answering: the document's
// shapes, the checked plan (import-checks.ts builds it, import-write.ts writes it,
// import-detail.ts answers from it) and the ids the write gave. Its own module, so that those
// read the same types without importing each other.
import type { ImportedTicketRow } from "../../storage/board-export.js";
import type { TemplateWrite } from "../../storage/templates.js";
import type {
  cleanExternalReference,
  ExternalReferenceInput,
} from "../annotations/external-references.js";
import type { cleanTicketEvent, TicketEventInput } from "../annotations/ticket-events.js";
import type { ImportAsk, PlannedAsk } from "../asks/ask-transfer.js";
import type { ImportTemplate } from "../templates/template-import.js";

// The shapes an import accepts (docs/api.md, "Export and import"): a tack export, or the same shape
// from another implementation of the interface. Types and ranges are checked against the route's
// schema as the document is read; the import checks what a schema cannot.

export interface ImportTag {
  id?: number;
  name: string;
  color?: string;
}

export interface ImportTicket {
  id: number;
  laneId: number;
  title: string;
  parentTicketId?: number | null;
  bodyMarkdown?: string;
  isResolved?: boolean;
  isCompleted?: boolean;
  isArchived?: boolean;
  priority?: number;
  position?: number;
  createdAt?: string;
  updatedAt?: string;
  notBefore?: string | null;
  tags?: Array<{ id?: number; name?: string }>;
  comments?: Array<{ id?: number; bodyMarkdown: string; createdAt?: string }>;
  blockerIds?: number[] | null;
  relatedIds?: number[] | null;
  externalReferences?: Array<
    ExternalReferenceInput & { kind: string; createdAt?: string; updatedAt?: string }
  >;
  tagReasons?: Array<{
    tagId: number;
    reason?: string | null;
    details?: Record<string, unknown> | null;
    reasonCommentId?: number | null;
    attachedAt?: string | null;
    updatedAt?: string | null;
  }>;
  events?: Array<TicketEventInput & { createdAt?: string }>;
  asks?: ImportAsk[];
}

export interface ImportDocument {
  format?: string;
  version?: number;
  board: { name: string };
  lanes: Array<{ id: number; name: string; wipLimit?: unknown }>;
  tags?: ImportTag[];
  tickets?: ImportTicket[];
  templates?: ImportTemplate[];
}

/** The document without its tickets. */
export type ImportHead = Omit<ImportDocument, "tickets">;

/**
 * A document as the import reads it: its tickets one at a time, in document order, each already
 * checked against the schema and given with its JSON text; the rest of the document (`head`,
 * checked too) once the tickets have all been read. The HTTP layer reads a request body this
 * way as it arrives (http/streamed-import.ts), so no whole document is ever in memory.
 */
export interface ImportSource {
  tickets: AsyncIterable<SourceTicket>;
  /** The document's size in bytes, when known before it is read (import-keeping.ts). */
  bytes: number | undefined;
  /** Throws if called before `tickets` has ended. */
  head(): ImportHead;
}

export interface SourceTicket {
  ticket: ImportTicket;
  /** The ticket's JSON text as the document gave it, if at hand (a scratch file keeps it). */
  text?: string;
}

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

/** The checked document apart from its tickets (those are planned a batch at a time). */
export interface ImportPlan {
  boardName: string;
  lanes: Array<{ name: string; wipLimit: number | null }>;
  tags: Array<{ name: string; color: string }>;
  templates: TemplateWrite[];
}

/**
 * What the import keeps in memory of each planned ticket (the plan itself waits in a scratch
 * file): what the checks across tickets, the write's links and the answer's relation lists need.
 * A few dozen bytes and its title per ticket, however long its bodies and comments.
 */
export interface TicketOutline {
  sourceId: number;
  laneIndex: number;
  parentIndex: number | null;
  title: string;
  isResolved: boolean;
  isArchived: boolean;
  priority: number;
  position: number;
  /** As in PlannedTicket; null when the ticket has none. */
  blockers: Map<number, number> | null;
  relatedIndexes: number[] | null;
}

/**
 * A planned ticket's parts as they wait in the import's scratch files: its row in one, the rest
 * in another (the write reads the rows in id order, the rest in document order), by index into
 * the document's tickets. With the outline, they make the whole PlannedTicket.
 */
export interface PlannedTickets {
  row(index: number): ImportedTicketRow;
  rest(index: number): TicketRest;
  ticket(index: number): PlannedTicket;
}

export type TicketRest = Pick<
  PlannedTicket,
  "comments" | "tags" | "references" | "events" | "asks"
>;

/** The ids a board import gave what it wrote, by index into the document's tickets. */
export interface WrittenBoard {
  boardId: number;
  laneIds: number[];
  tagIds: number[];
  ticketIds: number[];
  /** Per ticket, the id of its first comment in the plan's order; the others follow it. */
  firstCommentIds: number[];
  /** Per ticket, the id of its first external reference in the plan's order; the others follow. */
  firstReferenceIds: number[];
}
