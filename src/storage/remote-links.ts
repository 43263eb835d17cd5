import type { TicketRemote, TicketRemoteSummary } from "../domain/model.js";
import type { IssueIdentity } from "../model/references.js";
import type { Db } from "./database.js";
import { IN_IDS } from "./id-lists.js";
import { type IssueLocationRow, issueLocationOf } from "./issue-locations.js";

interface RemoteLinkRow extends IssueLocationRow {
  ticket_id: number;
  title: string;
  body_markdown: string;
  body_html: string;
  state: string | null;
  remote_updated_at: string | null;
  last_synced_at: string;
  created_at: string;
  updated_at: string;
}

const toRemote = (row: RemoteLinkRow): TicketRemote => ({
  ticketId: row.ticket_id,
  ...issueLocationOf(row),
  title: row.title,
  bodyMarkdown: row.body_markdown,
  bodyHtml: row.body_html,
  state: row.state,
  remoteUpdatedAt: row.remote_updated_at,
  lastSyncedAt: row.last_synced_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The identity of a tracked issue (docs/api.md, "Remote tracking"): one ticket per identity. */
export type RemoteIdentity = IssueIdentity;

/** What a fetch of the remote issue yields: the read-only snapshot and its display fields. */
export interface RemoteSnapshot
  extends Pick<
    TicketRemote,
    "displayRef" | "url" | "title" | "bodyMarkdown" | "bodyHtml" | "state" | "remoteUpdatedAt"
  > {
  /** Folded text the list's `q` matches (domain/search-text.ts). */
  searchText: string;
}

export interface RemoteLinkWrite extends RemoteIdentity, RemoteSnapshot {
  ticketId: number;
  /** Creation time; also the first lastSyncedAt and updatedAt. */
  at: string;
}

const COLUMNS = `r.ticket_id, r.provider, r.instance_url, r.resource_type, r.project_key,
  r.issue_key, r.display_ref, r.url, r.title, r.body_markdown, r.body_html, r.state,
  r.remote_updated_at, r.last_synced_at, r.created_at, r.updated_at`;

export function remoteLinkStore(db: Db) {
  const byTicket = db.prepare<[number], RemoteLinkRow>(
    `SELECT ${COLUMNS} FROM remote_links r WHERE r.ticket_id = ?`,
  );
  const byBoard = db.prepare<[number], RemoteLinkRow>(
    `SELECT ${COLUMNS} FROM remote_links r JOIN tickets t ON t.id = r.ticket_id
     WHERE t.board_id = ?`,
  );
  const summariesByBoard = db.prepare<
    [number],
    { ticket_id: number; provider: string; display_ref: string; url: string }
  >(
    `SELECT r.ticket_id, r.provider, r.display_ref, r.url FROM remote_links r
     JOIN tickets t ON t.id = r.ticket_id WHERE t.board_id = ?`,
  );
  const summariesByTickets = db.prepare<
    [string],
    { ticket_id: number; provider: string; display_ref: string; url: string }
  >(
    `SELECT r.ticket_id, r.provider, r.display_ref, r.url FROM remote_links r
     WHERE r.ticket_id ${IN_IDS}`,
  );

  // Project paths of GitHub and GitLab are case-insensitive, so a differently cased request that
  // the provider answers with the same issue must still count as the same identity.
  const byIdentity = db.prepare<[RemoteIdentity], { ticket_id: number }>(
    `SELECT ticket_id FROM remote_links
     WHERE provider = @provider AND issue_key = @issueKey AND instance_url = @instanceUrl
       AND resource_type = @resourceType AND project_key = @projectKey COLLATE NOCASE
     ORDER BY ticket_id LIMIT 1`,
  );
  const insert = db.prepare<[RemoteLinkWrite]>(
    `INSERT INTO remote_links (ticket_id, provider, instance_url, resource_type, project_key,
       issue_key, display_ref, url, title, body_markdown, body_html, state, remote_updated_at,
       search_text, last_synced_at, created_at, updated_at)
     VALUES (@ticketId, @provider, @instanceUrl, @resourceType, @projectKey, @issueKey,
       @displayRef, @url, @title, @bodyMarkdown, @bodyHtml, @state, @remoteUpdatedAt,
       @searchText, @at, @at, @at)`,
  );
  // The identity stays: a refresh that answers with another identity is refused, not applied.
  const updateSnapshot = db.prepare<[RemoteSnapshot & { ticketId: number; at: string }]>(
    `UPDATE remote_links SET display_ref = @displayRef, url = @url, title = @title,
       body_markdown = @bodyMarkdown, body_html = @bodyHtml, state = @state,
       remote_updated_at = @remoteUpdatedAt, search_text = @searchText, last_synced_at = @at,
       updated_at = @at
     WHERE ticket_id = @ticketId`,
  );

  return {
    get: (ticketId: number): TicketRemote | null => {
      const row = byTicket.get(ticketId);
      return row ? toRemote(row) : null;
    },
    /** The full remote of every tracked ticket of a board in one query, keyed by ticket id. */
    byBoard(boardId: number): Map<number, TicketRemote> {
      const map = new Map<number, TicketRemote>();
      for (const row of byBoard.iterate(boardId)) map.set(row.ticket_id, toRemote(row));
      return map;
    },
    /** The summary of every tracked ticket of a board in one query, keyed by ticket id. */
    summariesByBoard: (boardId: number): Map<number, TicketRemoteSummary> =>
      summariesFrom(summariesByBoard.iterate(boardId)),
    /**
     * The summaries of the tracked ones of `ids`, keyed by ticket id: for a few tickets (those a
     * write changed), where the board's query walks every ticket of the board.
     */
    summariesByTickets: (ids: readonly number[]): Map<number, TicketRemoteSummary> =>
      summariesFrom(summariesByTickets.iterate(JSON.stringify(ids))),
    /** The ticket tracking this identity, if any. */
    ticketIdOf: (identity: RemoteIdentity): number | undefined =>
      byIdentity.get(identity)?.ticket_id,
    insert(link: RemoteLinkWrite): void {
      insert.run(link);
    },
    /** Stores a fresh snapshot; lastSyncedAt and updatedAt become `at`. */
    updateSnapshot(ticketId: number, snapshot: RemoteSnapshot, at: string): void {
      updateSnapshot.run({ ...snapshot, ticketId, at });
    },
  };
}

function summariesFrom(
  rows: Iterable<{ ticket_id: number; provider: string; display_ref: string; url: string }>,
): Map<number, TicketRemoteSummary> {
  const map = new Map<number, TicketRemoteSummary>();
  for (const row of rows) {
    map.set(row.ticket_id, { provider: row.provider, displayRef: row.display_ref, url: row.url });
  }
  return map;
}
