import type { Static } from "@sinclair/typebox";
import type { AskAnswerBody, AskCreateBody } from "../http/schemas/asks.js";
import type {
  TemplateCreateBody,
  TemplateInstantiateBody,
  TemplatePatchBody,
} from "../http/schemas/templates.js";
import type { TicketEventCreateBody } from "../http/schemas/ticket-records.js";
import type {
  TicketCreateBody,
  TicketListQuery,
  TicketPatchBody,
} from "../http/schemas/ticket-requests.js";

// The API's shapes, typed from the very TypeBox schemas the server validates and serializes
// with: the resources are src/model/'s types (under the names the clients use), the requests the
// HTTP layer's bodies. Type-only imports: nothing of the server is loaded at run time, so the
// command line and the MCP server stay clients of the HTTP API.

export type {
  Ask as AskT,
  AskAnswer as AskAnswerT,
  AskStatus,
} from "../model/asks.js";
export type {
  Board as BoardT,
  BoardShell as BoardShellT,
  Lane as LaneT,
  Tag as TagT,
} from "../model/boards.js";
export type { TicketClaim as Claim } from "../model/claims.js";
export type { Comment as CommentT } from "../model/comments.js";
export type { BoardInsights as BoardInsightsT } from "../model/insights.js";
export type {
  ActivityLog as ActivityEntry,
  TicketEvent as TicketEventT,
} from "../model/records.js";
export type {
  RemoteDiagnosticResult as RemoteDiagnostic,
  RemoteIssueImportPreview as RemotePreview,
} from "../model/remote.js";
export type {
  Template as TemplateT,
  TemplateTicket as TemplateTicketT,
} from "../model/templates.js";
export type { BoardDetail as BoardDetailT, Ticket, TicketSummary } from "../model/tickets.js";
export type { TrashItem as TrashItemT, TrashRestored as TrashRestoredT } from "../model/trash.js";

export type TicketEventInput = Static<typeof TicketEventCreateBody>;
export type TicketCreateInput = Static<typeof TicketCreateBody>;
export type TicketPatchInput = Static<typeof TicketPatchBody>;
export type TicketListFilter = Static<typeof TicketListQuery>;

/** An ask as the clients send it; the actor is the client's own. */
export type AskInput = Omit<Static<typeof AskCreateBody>, "actor">;
/** An answer as the clients send it; who answers is the client's actor. */
export type AnswerInput = Omit<Static<typeof AskAnswerBody>, "by">;

// Templates (docs/api.md, "Templates"): requests as the schemas state them.
/** A template as created: the ticket fields other than key and title may be left out. */
export type TemplateInput = Static<typeof TemplateCreateBody>;
export type TemplatePatchInput = Static<typeof TemplatePatchBody>;
export type InstantiateInput = Static<typeof TemplateInstantiateBody>;
