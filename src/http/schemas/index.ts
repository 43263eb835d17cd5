import { Ask, AskAnswer, AskStatus } from "./asks.js";
import { BoardExport, BoardImport } from "./board-export.js";
import { Board, BoardDetail, BoardShell, Lane, Tag } from "./boards.js";
import { ErrorBody } from "./common.js";
import { TicketClaim } from "./coordination.js";
import { TicketExternalReferenceSet } from "./external-references.js";
import { BoardInsights } from "./insights.js";
import {
  RemoteDiagnosticRequest,
  RemoteDiagnosticResult,
  RemoteDiagnosticStatus,
  RemoteIssueImport,
  RemoteIssueImportPreview,
} from "./remote.js";
import { TicketTagReason, TicketTagReasonSetBody } from "./tag-reasons.js";
import { Template, TemplateTicket } from "./templates.js";
import { ActivityLog, TicketEvent, TicketEventCreateBody } from "./ticket-records.js";
import {
  Comment,
  CommentSync,
  CommentSyncStatus,
  Ticket,
  TicketExternalReference,
  TicketRelation,
  TicketRelations,
  TicketRemote,
  TicketRemoteSummary,
  TicketSummary,
} from "./tickets.js";
import { TrashItem, TrashKind } from "./trash.js";

/**
 * Every named schema (one with an $id). They are registered once with the validators and the
 * serializer, and appear in the OpenAPI document as components under the names docs/api.md uses.
 * A schema given an $id must be listed here.
 */
export const namedSchemas = [
  ErrorBody,
  Board,
  Lane,
  Tag,
  BoardShell,
  BoardDetail,
  CommentSyncStatus,
  CommentSync,
  Comment,
  TicketRelation,
  TicketRelations,
  TicketRemote,
  TicketRemoteSummary,
  TicketExternalReference,
  TicketClaim,
  Ticket,
  TicketSummary,
  ActivityLog,
  TicketEvent,
  TicketEventCreateBody,
  TicketTagReason,
  TicketTagReasonSetBody,
  AskStatus,
  AskAnswer,
  Ask,
  TicketExternalReferenceSet,
  BoardExport,
  BoardImport,
  BoardInsights,
  RemoteIssueImport,
  RemoteIssueImportPreview,
  RemoteDiagnosticRequest,
  RemoteDiagnosticStatus,
  RemoteDiagnosticResult,
  TrashKind,
  TrashItem,
  TemplateTicket,
  Template,
];
