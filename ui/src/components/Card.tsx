import { memo } from "preact/compat";
import { arrivingLaneId } from "../board-data";
import { onCardPointerDown } from "../drag";
import { PRIORITIES } from "../priorities";
import type { Ticket, TicketSummary } from "../types";
import { ClaimBadge, formatDateTime, PriorityBadge, TagChip } from "./bits";

export interface CardProps {
  ticket: TicketSummary;
  focused: boolean;
  tabbable: boolean;
  selected: boolean;
  dragging: boolean;
  lifted: boolean;
  dropIndex: number | null;
  /** Unresolved blockers, looked up by the lane. */
  blockedBy: number;
  childCount: number;
  onOpen: (id: number) => void;
  onFocus: (id: number) => void;
}

/** One ticket on the board: compact summary fields only (bodies load when the dialog opens). */
export const Card = memo(function Card(props: CardProps) {
  const { ticket } = props;
  const loop = loopFields(ticket);
  const classes = ["card"];
  if (props.focused) classes.push("is-focused");
  if (props.selected) classes.push("is-selected");
  if (props.dragging) classes.push("is-dragging");
  if (props.lifted) classes.push("is-lifted");
  if (ticket.isResolved) classes.push("is-resolved");
  if (ticket.isArchived) classes.push("is-archived");
  const state = [
    ticket.isResolved ? "resolved" : null,
    ticket.isArchived ? "archived" : null,
    props.selected ? "selected" : null,
    loop.openAsks > 0 ? `${loop.openAsks} open question(s)` : null,
    loop.checklist.total > 0
      ? `checklist ${loop.checklist.done} of ${loop.checklist.total} done`
      : null,
    loop.waiting && loop.notBefore ? `not before ${formatDateTime(loop.notBefore)}` : null,
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <div
      id={`card-${ticket.id}`}
      class={classes.join(" ")}
      role="listitem"
      tabIndex={props.tabbable ? 0 : -1}
      data-ticket-id={ticket.id}
      data-drop-index={props.dropIndex ?? undefined}
      aria-label={`${ticket.shortRef} ${ticket.title}, priority ${PRIORITIES[ticket.priority]}${state ? `, ${state}` : ""}`}
      aria-roledescription="card"
      onPointerDown={(event) => onCardPointerDown(event, ticket.id)}
      onClick={(event) => {
        if ((event.target as HTMLElement).closest("a, button")) return;
        props.onOpen(ticket.id);
      }}
      onFocus={() => props.onFocus(ticket.id)}
    >
      <div class="card-top">
        <span class="card-ref">{ticket.shortRef}</span>
        {ticket.isResolved && (
          <span class="badge badge-ok" title="Resolved">
            ✓ Resolved
          </span>
        )}
        {ticket.isArchived && (
          <span class="badge badge-muted" title="Archived">
            Archived
          </span>
        )}
        <span class="card-spacer" />
        {ticket.priority !== 2 && <PriorityBadge priority={ticket.priority} compact />}
      </div>
      <div class="card-title">{ticket.title}</div>
      {(ticket.tags.length > 0 ||
        props.blockedBy > 0 ||
        ticket.parentTicketId !== null ||
        ticket.hasChildren ||
        ticket.remote ||
        ticket.externalReferences.length > 0 ||
        ticket.claim ||
        loop.openAsks > 0 ||
        loop.checklist.total > 0 ||
        loop.waiting) && (
        <div class="card-meta">
          {loop.openAsks > 0 && (
            <span class="badge badge-ask" title={`${loop.openAsks} open question(s) to answer`}>
              ? {loop.openAsks} {loop.openAsks === 1 ? "question" : "questions"}
            </span>
          )}
          {loop.checklist.total > 0 && (
            <span
              class={`badge${loop.checklist.done === loop.checklist.total ? " badge-ok" : ""}`}
              title={`Checklist: ${loop.checklist.done} of ${loop.checklist.total} done`}
            >
              ☑ {loop.checklist.done}/{loop.checklist.total}
            </span>
          )}
          {loop.waiting && loop.notBefore && (
            <span class="badge" title={`Not before ${formatDateTime(loop.notBefore)}`}>
              ⏲ {formatDateTime(loop.notBefore)}
            </span>
          )}
          {ticket.tags.map((tag) => (
            <TagChip key={tag.id} tag={tag} />
          ))}
          {props.blockedBy > 0 && (
            <span class="badge badge-warn" title={`Blocked by ${props.blockedBy} open ticket(s)`}>
              ⊘ Blocked
            </span>
          )}
          {ticket.parentTicketId !== null && (
            <span class="badge" title={`Child of #${ticket.parentTicketId}`}>
              ↳ #{ticket.parentTicketId}
            </span>
          )}
          {/* Hidden at 0 only while a big board's list arrives (its children are in later
              lanes); once it is in, the server's hasChildren decides. */}
          {ticket.hasChildren && (props.childCount > 0 || arrivingLaneId.value === undefined) && (
            <span class="badge" title={`${props.childCount} child ticket(s)`}>
              ▤ {props.childCount}
            </span>
          )}
          {ticket.remote && (
            <span class="badge badge-remote" title={`Tracks ${ticket.remote.displayRef}`}>
              ⇄ {ticket.remote.displayRef}
            </span>
          )}
          {ticket.externalReferences.map((reference) => (
            <span
              key={reference.id}
              class="badge badge-ref"
              title={`${reference.kind}: ${reference.displayRef}`}
            >
              ↗ {reference.displayRef}
            </span>
          ))}
          {ticket.claim && <ClaimBadge claim={ticket.claim} />}
        </div>
      )}
    </div>
  );
});

/** A ticket's open asks, checklist and "not before", and whether that moment is still to come. */
export function loopFields(ticket: TicketSummary | Ticket) {
  const { openAsks, checklist, notBefore } = ticket;
  return {
    openAsks,
    checklist,
    notBefore,
    waiting: notBefore !== null && new Date(notBefore).getTime() > Date.now(),
  };
}
