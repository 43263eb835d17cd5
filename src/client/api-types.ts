import type { Static } from "@sinclair/typebox";
import type { Ask } from "../http/schemas/asks.js";
import type { Board, BoardDetail, BoardShell, Lane, Tag } from "../http/schemas/boards.js";
import type { BoardInsights } from "../http/schemas/insights.js";
import type { RemoteDiagnosticResult, RemoteIssueImportPreview } from "../http/schemas/remote.js";
import type {
  Template,
  TemplateCreateBody,
  TemplateInstantiateBody,
  TemplatePatchBody,
  TemplateTicket,
} from "../http/schemas/templates.js";
import type {
  ActivityLog,
  TicketEvent,
  TicketEventCreateBody,
} from "../http/schemas/ticket-records.js";
import type {
  TicketCreateBody,
  TicketListQuery,
  TicketPatchBody,
} from "../http/schemas/ticket-requests.js";
import type {
  Comment,
  Ticket as TicketShape,
  TicketSummary as TicketSummaryShape,
} from "../http/schemas/tickets.js";
import type { TrashItem, TrashRestored } from "../http/schemas/trash.js";

// The API's shapes, typed from the very TypeBox schemas the server validates and serializes
// with. Type-only imports: nothing of the server is loaded at run time, so the command line and
// the MCP server stay clients of the HTTP API.

export type BoardT = Static<typeof Board>;
export type LaneT = Static<typeof Lane>;
export type TagT = Static<typeof Tag>;
export type BoardShellT = Static<typeof BoardShell>;
export type BoardDetailT = Static<typeof BoardDetail>;
export type Ticket = Static<typeof TicketShape> & TicketLoopFields;
export type TicketSummary = Static<typeof TicketSummaryShape> & TicketLoopFields;
export type Claim = NonNullable<Ticket["claim"]>;
export type CommentT = Static<typeof Comment>;
export type ActivityEntry = Static<typeof ActivityLog>;
export type TicketEventT = Static<typeof TicketEvent>;
export type TicketEventInput = Static<typeof TicketEventCreateBody>;
export type TicketCreateInput = Static<typeof TicketCreateBody> & NotBeforeInput;
export type TicketPatchInput = Static<typeof TicketPatchBody> & NotBeforeInput;
export type TicketListFilter = Static<typeof TicketListQuery> & { ready?: boolean };
export type BoardInsightsT = Static<typeof BoardInsights>;
export type RemotePreview = Static<typeof RemoteIssueImportPreview>;
export type RemoteDiagnostic = Static<typeof RemoteDiagnosticResult>;
export type TrashItemT = Static<typeof TrashItem>;
export type TrashRestoredT = Static<typeof TrashRestored>;

// The developer in the loop (docs/api.md: "Asks", "Not before", "Checklists"),
// written out here as the API states them. The ticket fields are optional so the clients also
// work against a server of this interface that does not have them yet.

/** What a ticket carries about asks, its moment and its checklist. */
export interface TicketLoopFields {
  /** Open asks of any kind on the ticket. */
  openAsks?: number;
  /** RFC 3339 date-time before which the ticket is not ready, or null. */
  notBefore?: string | null;
  checklist?: { done: number; total: number };
}

export interface NotBeforeInput {
  notBefore?: string | null;
}

export type AskT = Static<typeof Ask>;
export type AskStatus = AskT["status"];
export type AskAnswerT = NonNullable<AskT["answer"]>;

export interface AskInput {
  question: string;
  options?: string[] | undefined;
  blocking?: boolean | undefined;
}

export interface AnswerInput {
  text?: string | undefined;
  option?: string | undefined;
}

// Templates (docs/api.md, "Templates"), from their schemas like the shapes above.
export type TemplateTicketT = Static<typeof TemplateTicket>;
export type TemplateT = Static<typeof Template>;
/** A template as created: the ticket fields other than key and title may be left out. */
export type TemplateInput = Static<typeof TemplateCreateBody>;
export type TemplatePatchInput = Static<typeof TemplatePatchBody>;
export type InstantiateInput = Static<typeof TemplateInstantiateBody>;
