import type { Static } from "@sinclair/typebox";
import type { Ask as AskSchema } from "../../src/http/schemas/asks.js";
import type {
  Board as BoardSchema,
  BoardShell as BoardShellSchema,
  Lane as LaneSchema,
  Tag as TagSchema,
} from "../../src/http/schemas/boards.js";
import type { TicketClaim } from "../../src/http/schemas/coordination.js";
import type { RemoteIssueImportPreview } from "../../src/http/schemas/remote.js";
import type {
  ServiceMeta,
  SessionState as SessionStateSchema,
} from "../../src/http/schemas/service.js";
import type {
  Template as TemplateSchema,
  TemplateTicket as TemplateTicketSchema,
} from "../../src/http/schemas/templates.js";
import type {
  ActivityLog,
  TicketEvent as TicketEventSchema,
} from "../../src/http/schemas/ticket-records.js";
import type {
  Comment as CommentSchema,
  TicketExternalReference,
  TicketRelation as TicketRelationSchema,
  TicketRemote,
  TicketRemoteSummary,
  Ticket as TicketSchema,
  TicketSummary as TicketSummarySchema,
} from "../../src/http/schemas/tickets.js";
import type { TrashItem as TrashItemSchema } from "../../src/http/schemas/trash.js";

// The API's resources as the UI reads them, typed from the very TypeBox schemas the server
// validates and serializes with (as src/client/api-types.ts does for the CLI and MCP). A field
// renamed or retyped on the server is a type error in the UI (`npm run typecheck`), not a
// silent `undefined` in the browser. Only `import type`: the build erases these imports, so no
// server code reaches the bundle (test/ui/types.test.ts checks both).
//
// Every export here is a type alias of a server schema or a derivation of one; nothing is
// restated by hand.

export type Board = Static<typeof BoardSchema>;
export type Lane = Static<typeof LaneSchema>;
export type Tag = Static<typeof TagSchema>;
export type BoardShell = Static<typeof BoardShellSchema>;
export type Claim = Static<typeof TicketClaim>;
export type RemoteSummary = Static<typeof TicketRemoteSummary>;
export type RemoteDetail = Static<typeof TicketRemote>;
export type ExternalReference = Static<typeof TicketExternalReference>;
export type TicketRelation = Static<typeof TicketRelationSchema>;
export type TicketSummary = Static<typeof TicketSummarySchema>;
export type Comment = Static<typeof CommentSchema>;
export type Ticket = Static<typeof TicketSchema>;
export type ActivityEntry = Static<typeof ActivityLog>;
export type TicketEvent = Static<typeof TicketEventSchema>;
export type Meta = Static<typeof ServiceMeta>;
export type ImportPreview = Static<typeof RemoteIssueImportPreview>;
export type TrashItem = Static<typeof TrashItemSchema>;
export type SessionState = Static<typeof SessionStateSchema>;
export type Ask = Static<typeof AskSchema>;
export type Template = Static<typeof TemplateSchema>;
export type TemplateTicket = Static<typeof TemplateTicketSchema>;
