// The API's resources as the UI reads them (API.md; CONTRACT.md §12-13 fields are optional so the
// UI works against servers that do not send them yet).

export interface Board {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  position?: number;
}

export interface Lane {
  id: number;
  boardId: number;
  name: string;
  position: number;
  /** Soft limit on open tickets (CONTRACT.md §14); null or absent: none. */
  wipLimit?: number | null;
}

export interface Tag {
  id: number;
  boardId: number;
  name: string;
  color: string;
}

export interface Claim {
  actor: string;
  claimedAt: string;
  expiresAt: string;
}

export interface RemoteSummary {
  provider: string;
  displayRef: string;
  url: string;
}

export interface RemoteDetail extends RemoteSummary {
  ticketId: number;
  instanceUrl: string;
  title: string;
  bodyMarkdown: string;
  bodyHtml: string;
  state: string | null;
  remoteUpdatedAt: string | null;
  lastSyncedAt: string;
}

export interface ExternalReference {
  id: number;
  kind: string;
  provider: string;
  displayRef: string;
  url: string;
  title: string | null;
}

export interface TicketRelation {
  id: number;
  title: string;
  laneId: number;
  isResolved: boolean;
  priority: number;
  ref: string;
  shortRef: string;
}

export interface TicketSummary {
  id: number;
  boardId: number;
  laneId: number;
  parentTicketId: number | null;
  hasChildren: boolean;
  title: string;
  isResolved: boolean;
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
  remote: RemoteSummary | null;
  externalReferences: ExternalReference[];
  version?: number;
  claim?: Claim | null;
}

export interface Comment {
  id: number;
  ticketId: number;
  bodyMarkdown: string;
  bodyHtml: string;
  createdAt: string;
  sync: {
    status: "local_only" | "pushing" | "pushed" | "push_failed";
    lastError: string | null;
    pushedAt: string | null;
  };
}

export interface Ticket extends Omit<TicketSummary, "remote"> {
  bodyMarkdown: string;
  bodyHtml: string;
  comments: Comment[];
  blockers: TicketRelation[];
  blockedBy: TicketRelation[];
  related: TicketRelation[];
  parent: TicketRelation | null;
  children: TicketRelation[];
  remote: RemoteDetail | null;
}

export interface BoardShell {
  board: Board;
  lanes: Lane[];
  tags: Tag[];
}

export interface ActivityEntry {
  id: number;
  action: string;
  message: string;
  createdAt: string;
}

export interface TicketEvent {
  id: number;
  source: string;
  kind: string;
  title: string;
  summary: string | null;
  createdAt: string;
}

export interface Meta {
  name: string;
  version: string;
  remoteProviders: { id: string; hasCredential: boolean }[];
}

export interface ImportPreview {
  displayRef: string;
  url: string;
  title: string;
  state: string | null;
  duplicate: boolean;
  existingTicketId: number | null;
  existingTicketRef: string | null;
}

export const PRIORITIES: Record<number, string> = { 1: "Low", 2: "Medium", 3: "High", 4: "Urgent" };
