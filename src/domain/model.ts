/**
 * The resources of docs/api.md as plain types. Storage returns them, domain modules build them,
 * and the HTTP schemas (http/schemas) describe the same shapes for validation and OpenAPI;
 * the TypeScript compiler checks that route handlers return values of these shapes.
 */
export interface Board {
  id: number;
  name: string;
  /** 0..n-1 across all boards, the order clients list them in. */
  position: number;
  createdAt: string;
  updatedAt: string;
}

export interface Lane {
  id: number;
  boardId: number;
  name: string;
  position: number;
  /** Soft limit on the lane's load (tickets neither resolved nor archived); null: none. */
  wipLimit: number | null;
}

export interface Tag {
  id: number;
  boardId: number;
  name: string;
  color: string;
}

export interface BoardShell {
  board: Board;
  lanes: Lane[];
  tags: Tag[];
}

export type CommentSyncStatus = "local_only" | "pushing" | "pushed" | "push_failed";

export interface CommentSync {
  commentId: number;
  status: CommentSyncStatus;
  remoteCommentId: string | null;
  pushedAt: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Comment {
  id: number;
  ticketId: number;
  bodyMarkdown: string;
  bodyHtml: string;
  createdAt: string;
  sync: CommentSync;
}

export interface ActivityLog {
  id: number;
  boardId: number;
  ticketId: number | null;
  subjectTicketId: number;
  action: string;
  message: string;
  details: Record<string, unknown>;
  createdAt: string;
}

export interface TicketEvent {
  id: number;
  ticketId: number;
  source: string;
  kind: string;
  title: string;
  summary: string | null;
  severity: string | null;
  icon: string | null;
  data: Record<string, unknown>;
  createdAt: string;
}

export type AskStatus = "open" | "answered" | "withdrawn";

/** The answer to an ask: `text`, `textHtml` and `option` are each null when not given. */
export interface AskAnswer {
  text: string | null;
  textHtml: string | null;
  option: string | null;
  by: string;
}

/** A question an actor puts to the people on a board about one ticket (docs/api.md, "Asks"). */
export interface Ask {
  id: number;
  ticketId: number;
  /** The ticket's board now (an ask follows its ticket to another board). */
  boardId: number;
  actor: string;
  question: string;
  questionHtml: string;
  options: string[];
  blocking: boolean;
  status: AskStatus;
  answer: AskAnswer | null;
  createdAt: string;
  /** When it left `open` (answered or withdrawn); null while open. */
  answeredAt: string | null;
}

export interface TicketRelation {
  id: number;
  title: string;
  laneId: number;
  isResolved: boolean;
  isCompleted: boolean;
  priority: number;
  ref: string;
  shortRef: string;
}

export interface TicketRemote {
  ticketId: number;
  provider: string;
  instanceUrl: string;
  resourceType: string;
  projectKey: string;
  issueKey: string;
  displayRef: string;
  url: string;
  title: string;
  bodyMarkdown: string;
  bodyHtml: string;
  state: string | null;
  remoteUpdatedAt: string | null;
  lastSyncedAt: string;
  createdAt: string;
  updatedAt: string;
}

export interface TicketRemoteSummary {
  provider: string;
  displayRef: string;
  url: string;
}

export interface TicketExternalReference {
  id: number;
  ticketId: number;
  kind: string;
  provider: string;
  instanceUrl: string;
  resourceType: string;
  projectKey: string;
  issueKey: string;
  displayRef: string;
  url: string;
  title: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Who works on a ticket until when (docs/api.md, "Coordination for agents"). */
export interface TicketClaim {
  actor: string;
  claimedAt: string;
  expiresAt: string;
}

/** Fields shared by Ticket and TicketSummary. */
export interface TicketCore {
  id: number;
  boardId: number;
  laneId: number;
  parentTicketId: number | null;
  hasChildren: boolean;
  title: string;
  isResolved: boolean;
  isCompleted: boolean;
  isArchived: boolean;
  priority: number;
  position: number;
  createdAt: string;
  updatedAt: string;
  tags: Tag[];
  blockerIds: number[];
  relatedIds: number[];
  ref: string;
  shortRef: string;
  externalReferences: TicketExternalReference[];
  /**
   * 1 at creation, +1 per transaction that changes the full representation (docs/api.md,
   * "Coordination for agents").
   */
  version: number;
  /** The live claim; null when none or expired. */
  claim: TicketClaim | null;
  /** Not ready before this moment (docs/api.md, "Not before"); null: no such moment. */
  notBefore: string | null;
  /** Its open asks of any kind (docs/api.md, "Asks"). */
  openAsks: number;
  /** Its body's task list items (docs/api.md, "Checklists"). */
  checklist: { done: number; total: number };
}

export interface TicketSummary extends TicketCore {
  remote: TicketRemoteSummary | null;
}

export interface Ticket extends TicketCore {
  bodyMarkdown: string;
  bodyHtml: string;
  comments: Comment[];
  blockers: TicketRelation[];
  blockedBy: TicketRelation[];
  related: TicketRelation[];
  parent: TicketRelation | null;
  children: TicketRelation[];
  remote: TicketRemote | null;
}
