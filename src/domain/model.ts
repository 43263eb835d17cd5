/**
 * The resources of docs/api.md as the domain and storage use them: each type is the TypeBox
 * schema of the same name in src/model/ (`Static<typeof …>`), the one description of its shape
 * that the HTTP layer validates and serializes with and the clients are typed from.
 */
export type { Ask, AskAnswer, AskStatus } from "../model/asks.js";
export type { Board, BoardShell, Lane, Tag } from "../model/boards.js";
export type { TicketClaim } from "../model/claims.js";
export type { Comment, CommentSync, CommentSyncStatus } from "../model/comments.js";
export type { ActivityLog, TicketEvent } from "../model/records.js";
export type {
  TicketExternalReference,
  TicketRemote,
  TicketRemoteSummary,
} from "../model/references.js";
export type { Ticket, TicketCore, TicketRelation, TicketSummary } from "../model/tickets.js";
