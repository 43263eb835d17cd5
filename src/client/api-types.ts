import type { Static } from "@sinclair/typebox";
import type { Board, BoardDetail, BoardShell, Lane, Tag } from "../http/schemas/boards.js";
import type { BoardInsights } from "../http/schemas/insights.js";
import type { RemoteDiagnosticResult, RemoteIssueImportPreview } from "../http/schemas/remote.js";
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
export type Ticket = Static<typeof TicketShape>;
export type TicketSummary = Static<typeof TicketSummaryShape>;
export type Claim = NonNullable<Ticket["claim"]>;
export type CommentT = Static<typeof Comment>;
export type ActivityEntry = Static<typeof ActivityLog>;
export type TicketEventT = Static<typeof TicketEvent>;
export type TicketEventInput = Static<typeof TicketEventCreateBody>;
export type TicketCreateInput = Static<typeof TicketCreateBody>;
export type TicketPatchInput = Static<typeof TicketPatchBody>;
export type TicketListFilter = Static<typeof TicketListQuery> & { ready?: boolean };
export type BoardInsightsT = Static<typeof BoardInsights>;
export type RemotePreview = Static<typeof RemoteIssueImportPreview>;
export type RemoteDiagnostic = Static<typeof RemoteDiagnosticResult>;
export type TrashItemT = Static<typeof TrashItem>;
export type TrashRestoredT = Static<typeof TrashRestored>;
