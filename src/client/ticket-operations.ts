import type { LaneT, TagT, Ticket, TicketPatchInput } from "./api-types.js";
import { ApiError } from "./errors.js";
import type { TackClient } from "./tack-client.js";

// Operations the command line and the MCP server share, each built from plain API calls.

export type Relation = "parent" | "blocks" | "blocked_by" | "related";
export const RELATIONS: Relation[] = ["parent", "blocks", "blocked_by", "related"];

/**
 * Adds or removes one relation. `blocks` is stored on the other ticket (its blockerIds), the
 * others on this one; lists are read first and written whole, as PATCH replaces them.
 */
export async function setRelation(
  client: TackClient,
  ticketId: number,
  relation: Relation,
  otherId: number,
  remove: boolean,
): Promise<Ticket> {
  const edit = (list: number[], id: number) =>
    remove ? list.filter((one) => one !== id) : [...new Set([...list, id])];
  if (relation === "blocks") {
    const other = await client.getTicket(otherId);
    await client.updateTicket(otherId, { blockerIds: edit(other.blockerIds, ticketId) });
    return client.getTicket(ticketId);
  }
  const ticket = await client.getTicket(ticketId);
  if (relation === "parent") {
    if (remove && ticket.parentTicketId !== otherId) return ticket;
    return client.updateTicket(ticketId, { parentTicketId: remove ? null : otherId });
  }
  const field = relation === "blocked_by" ? "blockerIds" : "relatedIds";
  return client.updateTicket(ticketId, { [field]: edit(ticket[field], otherId) });
}

/**
 * PATCH guarded by the version the caller read: refused with a version conflict when the ticket
 * moved on. The GET's ETag then rides along as If-Match, so a change landing between the
 * check and the write is refused by the server too (412).
 */
export async function updateAtVersion(
  client: TackClient,
  ticketId: number,
  patch: TicketPatchInput,
  expectedVersion: number | undefined,
): Promise<Ticket> {
  if (expectedVersion === undefined) return client.updateTicket(ticketId, patch);
  const { ticket, etag } = await client.getTicketWithTag(ticketId);
  if (ticket.version !== expectedVersion) {
    throw new ApiError(
      "version_conflict",
      `ticket ${ticketId} is at version ${ticket.version ?? "unknown"}, not ${expectedVersion}`,
      "read the ticket again and apply your change to the current version",
      false,
      412,
    );
  }
  return client.updateTicket(ticketId, patch, etag ?? undefined);
}

export type Outcome = "done" | "blocked" | "handoff";

/**
 * Ends a claim with an outcome: done resolves the ticket (which ends the claim), blocked and
 * handoff leave it open for someone else. A note becomes a comment, so the next worker reads it.
 */
export async function finishClaim(
  client: TackClient,
  ticketId: number,
  outcome: Outcome,
  note?: string,
): Promise<Ticket> {
  if (note?.trim()) {
    const prefix = outcome === "blocked" ? "Blocked: " : outcome === "handoff" ? "Handoff: " : "";
    await client.addComment(ticketId, `${prefix}${note.trim()}`);
  }
  if (outcome === "done") await client.updateTicket(ticketId, { isResolved: true });
  return client.release(ticketId);
}

/** A lane by id (digits) or exact name, among the board's lanes. */
export function findLane(lanes: LaneT[], given: string | number): LaneT {
  const lane =
    typeof given === "number" || /^\d+$/.test(given)
      ? lanes.find((candidate) => candidate.id === Number(given))
      : lanes.find((candidate) => candidate.name === given);
  if (!lane) {
    throw new ApiError(
      "invalid_request",
      `no lane ${JSON.stringify(given)} on this board`,
      `use one of: ${lanes.map((candidate) => `${candidate.id} ${candidate.name}`).join(", ")}`,
      false,
      400,
    );
  }
  return lane;
}

/** Tag ids for names (case-insensitive, as the server compares them). */
export function findTags(tags: TagT[], names: string[]): number[] {
  return names.map((name) => {
    const tag = tags.find(
      (candidate) => candidate.name.toLowerCase() === name.trim().toLowerCase(),
    );
    if (!tag) {
      throw new ApiError(
        "invalid_request",
        `no tag named ${JSON.stringify(name)} on this board`,
        `use one of: ${tags.map((candidate) => candidate.name).join(", ") || "(none; create it first)"}`,
        false,
        400,
      );
    }
    return tag.id;
  });
}
