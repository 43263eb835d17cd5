// The ticket family's resource shapes are the model's (src/model/): re-exported here under the
// names the routes use. Request bodies are in ticket-requests.ts.
export {
  Comment,
  CommentRef,
  CommentSync,
  CommentSyncStatus,
} from "../../model/comments.js";
export {
  TicketExternalReference,
  TicketRemote,
  TicketRemoteSummary,
} from "../../model/references.js";
export {
  Priority,
  Ticket,
  TicketRef,
  TicketRelation,
  TicketRelations,
  TicketSummary,
  TicketSummaryRef,
} from "../../model/tickets.js";
