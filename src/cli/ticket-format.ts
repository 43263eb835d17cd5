import type { LaneT, Ticket, TicketSummary } from "../client/api-types.js";
import { laneMap, PRIORITY_NAMES, ticketRow } from "../client/ticket-rows.js";
import { table } from "./command-kit.js";

/** The ticket table of list commands. */
export function ticketTable(tickets: TicketSummary[], lanes: LaneT[]): string {
  const byId = laneMap(lanes);
  return table(
    ["ID", "PRI", "LANE", "TITLE", "TAGS", "CLAIM", "STATE"],
    tickets.map((ticket) => {
      const row = ticketRow(ticket, byId);
      const state = [row.resolved ? "resolved" : "", row.archived ? "archived" : ""]
        .filter(Boolean)
        .join(",");
      return [
        row.id,
        PRIORITY_NAMES[row.priority] ?? row.priority,
        row.lane,
        row.title,
        row.tags.join(","),
        row.claimedBy ?? "",
        state || "open",
      ];
    }),
  );
}

/** A ticket in full, as `tack ticket show` prints it. */
export function ticketText(ticket: Ticket, lanes: LaneT[]): string {
  const lane = lanes.find((candidate) => candidate.id === ticket.laneId)?.name ?? ticket.laneId;
  const lines = [
    `#${ticket.id} ${ticket.title}`,
    `lane ${lane} · priority ${PRIORITY_NAMES[ticket.priority]} · ${ticket.isResolved ? "resolved" : "open"}${ticket.isArchived ? " · archived" : ""}${ticket.version !== undefined ? ` · version ${ticket.version}` : ""}`,
  ];
  if (ticket.claim) lines.push(`claimed by ${ticket.claim.actor} until ${ticket.claim.expiresAt}`);
  if (ticket.notBefore) lines.push(`not before ${ticket.notBefore}`);
  if (ticket.openAsks) lines.push(`open asks: ${ticket.openAsks} (tack inbox)`);
  if (ticket.checklist?.total) {
    lines.push(`checklist: ${ticket.checklist.done}/${ticket.checklist.total} done`);
  }
  if (ticket.tags.length > 0) lines.push(`tags: ${ticket.tags.map((tag) => tag.name).join(", ")}`);
  if (ticket.parent) lines.push(`parent: #${ticket.parent.id} ${ticket.parent.title}`);
  const relations: Array<[string, Ticket["blockers"]]> = [
    ["children", ticket.children],
    ["blocked by", ticket.blockers],
    ["blocks", ticket.blockedBy],
    ["related", ticket.related],
  ];
  for (const [name, list] of relations) {
    if (list.length > 0) {
      lines.push(
        `${name}: ${list.map((other) => `#${other.id}${other.isResolved ? " (resolved)" : ""}`).join(", ")}`,
      );
    }
  }
  if (ticket.remote) lines.push(`remote: ${ticket.remote.displayRef} ${ticket.remote.url}`);
  if (ticket.bodyMarkdown.trim()) lines.push("", ticket.bodyMarkdown.trimEnd());
  if (ticket.comments.length > 0) {
    lines.push("", `comments (${ticket.comments.length}, newest first):`);
    for (const comment of ticket.comments) {
      lines.push(`- [${comment.id}] ${comment.createdAt}: ${comment.bodyMarkdown.split("\n")[0]}`);
    }
  }
  return lines.join("\n");
}
