import type { TicketRemote, TicketRemoteSummary } from "../domain/model.js";
import type { Db } from "./database.js";

interface RemoteLinkRow {
  ticket_id: number;
  provider: string;
  instance_url: string;
  resource_type: string;
  project_key: string;
  issue_key: string;
  display_ref: string;
  url: string;
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
  provider: row.provider,
  instanceUrl: row.instance_url,
  resourceType: row.resource_type,
  projectKey: row.project_key,
  issueKey: row.issue_key,
  displayRef: row.display_ref,
  url: row.url,
  title: row.title,
  bodyMarkdown: row.body_markdown,
  bodyHtml: row.body_html,
  state: row.state,
  remoteUpdatedAt: row.remote_updated_at,
  lastSyncedAt: row.last_synced_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function remoteLinkStore(db: Db) {
  const byTicket = db.prepare<[number], RemoteLinkRow>(
    `SELECT ticket_id, provider, instance_url, resource_type, project_key, issue_key, display_ref,
       url, title, body_markdown, body_html, state, remote_updated_at, last_synced_at, created_at,
       updated_at
     FROM remote_links WHERE ticket_id = ?`,
  );
  const summariesByBoard = db.prepare<
    [number],
    { ticket_id: number; provider: string; display_ref: string; url: string }
  >(
    `SELECT r.ticket_id, r.provider, r.display_ref, r.url FROM remote_links r
     JOIN tickets t ON t.id = r.ticket_id WHERE t.board_id = ?`,
  );

  return {
    get: (ticketId: number): TicketRemote | null => {
      const row = byTicket.get(ticketId);
      return row ? toRemote(row) : null;
    },
    /** The summary of every tracked ticket of a board in one query, keyed by ticket id. */
    summariesByBoard(boardId: number): Map<number, TicketRemoteSummary> {
      const map = new Map<number, TicketRemoteSummary>();
      for (const row of summariesByBoard.iterate(boardId)) {
        map.set(row.ticket_id, {
          provider: row.provider,
          displayRef: row.display_ref,
          url: row.url,
        });
      }
      return map;
    },
  };
}

export type RemoteLinkStore = ReturnType<typeof remoteLinkStore>;
