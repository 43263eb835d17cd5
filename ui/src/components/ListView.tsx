import { useSignal } from "@preact/signals";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { arrivingLaneId, lanes, tickets } from "../board-data";
import { focusedTicketId, laneName, selection, toggleSelected } from "../board-state";
import { matches } from "../filters";
import { openTicket } from "../navigation";
import type { TicketSummary } from "../types";
import { PriorityBadge, TagChip } from "./bits";

const ROW = 40;
const OVERSCAN = 12;

type SortKey = "board" | "id" | "title" | "priority" | "lane" | "status";

/** Every ticket matching the filters as a table, children under their parents; virtualized. */
export function ListView() {
  const sort = useSignal<{ key: SortKey; dir: 1 | -1 }>({ key: "board", dir: 1 });
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    setHeight(element.clientHeight);
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const all = tickets.value;
  const match = matches.value;
  const laneOrder = new Map(lanes.value.map((lane, index) => [lane.id, index]));
  const visible = [...all.values()].filter(match);
  const compare = comparer(sort.value.key, laneOrder);
  visible.sort((a, b) => sort.value.dir * compare(a, b) || a.id - b.id);
  // Children follow their parent when the parent is shown too.
  const shownIds = new Set(visible.map((ticket) => ticket.id));
  const childrenOf = new Map<number, TicketSummary[]>();
  const rows: { ticket: TicketSummary; child: boolean }[] = [];
  for (const ticket of visible) {
    if (ticket.parentTicketId !== null && shownIds.has(ticket.parentTicketId)) {
      const siblings = childrenOf.get(ticket.parentTicketId) ?? [];
      siblings.push(ticket);
      childrenOf.set(ticket.parentTicketId, siblings);
    }
  }
  for (const ticket of visible) {
    if (ticket.parentTicketId !== null && shownIds.has(ticket.parentTicketId)) continue;
    rows.push({ ticket, child: false });
    for (const child of childrenOf.get(ticket.id) ?? []) rows.push({ ticket: child, child: true });
  }

  // The board's list is still arriving: more rows may come, and none yet is not "none match".
  const arriving = arrivingLaneId.value !== undefined;
  const selected = selection.value;
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.ticket.id));
  const first = Math.max(0, Math.floor(scrollTop / ROW) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW) + OVERSCAN);
  const focusedIndex = rows.findIndex((row) => row.ticket.id === focusedTicketId.value);

  const focusRow = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (!row) return;
    focusedTicketId.value = row.ticket.id;
    const element = scroller.current;
    if (element) {
      const top = Math.max(0, Math.min(rows.length - 1, index)) * ROW;
      if (top < element.scrollTop) element.scrollTop = top;
      else if (top + ROW > element.scrollTop + element.clientHeight - ROW)
        element.scrollTop = top + 2 * ROW - element.clientHeight;
    }
    requestAnimationFrame(() => document.getElementById(`row-${row.ticket.id}`)?.focus());
  };

  const header = (key: SortKey, label: string, className: string) => (
    <div
      role="columnheader"
      class={className}
      aria-sort={
        sort.value.key === key ? (sort.value.dir === 1 ? "ascending" : "descending") : "none"
      }
    >
      <button
        type="button"
        class="sort-button"
        onClick={() => {
          sort.value =
            sort.value.key === key ? { key, dir: sort.value.dir === 1 ? -1 : 1 } : { key, dir: 1 };
        }}
      >
        {label}
        {sort.value.key === key ? (sort.value.dir === 1 ? " ▲" : " ▼") : ""}
      </button>
    </div>
  );

  const rendered = [];
  const mountedIndexes = new Set<number>();
  for (let i = first; i < last; i++) mountedIndexes.add(i);
  if (focusedIndex >= 0) mountedIndexes.add(focusedIndex);
  for (const index of [...mountedIndexes].sort((a, b) => a - b)) {
    const row = rows[index];
    if (!row) continue;
    const { ticket } = row;
    const isSelected = selected.has(ticket.id);
    rendered.push(
      <div
        key={ticket.id}
        id={`row-${ticket.id}`}
        role="row"
        class={`list-row${row.child ? " is-child" : ""}${isSelected ? " is-selected" : ""}${ticket.isResolved ? " is-resolved" : ""}`}
        aria-rowindex={index + 2}
        aria-selected={isSelected}
        tabIndex={focusedTicketId.value === ticket.id || (focusedIndex < 0 && index === 0) ? 0 : -1}
        data-ticket-id={ticket.id}
        ref={(element) => {
          if (element) element.style.transform = `translateY(${index * ROW}px)`;
        }}
        onFocus={() => (focusedTicketId.value = ticket.id)}
        onClick={(event) => {
          if ((event.target as HTMLElement).closest("input, a, button")) return;
          openTicket(ticket.id);
        }}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "j") {
            event.preventDefault();
            focusRow(index + 1);
          } else if (event.key === "ArrowUp" || event.key === "k") {
            event.preventDefault();
            focusRow(index - 1);
          } else if (event.key === "Enter") {
            event.preventDefault();
            openTicket(ticket.id);
          }
        }}
      >
        <div role="gridcell" class="col-check">
          <input
            type="checkbox"
            tabIndex={-1}
            aria-label={`Select ${ticket.shortRef}`}
            checked={isSelected}
            onChange={() => {
              const ids = [
                ticket.id,
                ...(childrenOf.get(ticket.id) ?? []).map((child) => child.id),
              ];
              toggleSelected(ids, !isSelected);
            }}
          />
        </div>
        <div role="gridcell" class="col-id">
          {ticket.shortRef}
        </div>
        <div role="gridcell" class="col-title">
          {row.child && (
            <span class="child-mark" title="Child ticket">
              <span aria-hidden="true">↳ </span>
              <span class="sr-only">child of #{ticket.parentTicketId}: </span>
            </span>
          )}
          <span class="list-title" title={ticket.title}>
            {ticket.title}
          </span>
        </div>
        <div role="gridcell" class="col-blockers">
          {ticket.blockerIds.length > 0 ? ticket.blockerIds.map((id) => `#${id}`).join(" ") : ""}
        </div>
        <div role="gridcell" class="col-tags">
          {ticket.tags.map((tag) => (
            <TagChip key={tag.id} tag={tag} />
          ))}
          {ticket.remote && <span class="badge badge-remote">⇄ {ticket.remote.displayRef}</span>}
          {ticket.externalReferences.map((reference) => (
            <span key={reference.id} class="badge badge-ref">
              ↗ {reference.displayRef}
            </span>
          ))}
        </div>
        <div role="gridcell" class="col-priority">
          <PriorityBadge priority={ticket.priority} />
        </div>
        <div role="gridcell" class="col-lane">
          {laneName(ticket.laneId)}
        </div>
        <div role="gridcell" class="col-status">
          {ticket.isArchived ? (
            <span class="badge badge-muted">Archived</span>
          ) : ticket.isResolved ? (
            <span class="badge badge-ok">Resolved</span>
          ) : (
            <span class="badge">Open</span>
          )}
        </div>
      </div>,
    );
  }

  return (
    <div
      class="list-view"
      role="grid"
      aria-label="Tickets"
      aria-rowcount={rows.length + 1}
      aria-multiselectable="true"
      aria-busy={arriving ? "true" : undefined}
    >
      <div role="row" class="list-row list-head" aria-rowindex={1}>
        <div role="columnheader" class="col-check">
          <input
            type="checkbox"
            aria-label="Select all shown tickets"
            checked={allSelected}
            onChange={() =>
              toggleSelected(
                rows.map((row) => row.ticket.id),
                !allSelected,
              )
            }
          />
        </div>
        {header("id", "ID", "col-id")}
        {header("title", "Title", "col-title")}
        <div role="columnheader" class="col-blockers">
          Blockers
        </div>
        <div role="columnheader" class="col-tags">
          Tags
        </div>
        {header("priority", "Priority", "col-priority")}
        {header("lane", "Lane", "col-lane")}
        {header("status", "Status", "col-status")}
      </div>
      <div
        class="list-body"
        ref={scroller}
        onScroll={(event) => setScrollTop((event.target as HTMLElement).scrollTop)}
      >
        <div
          class="list-canvas"
          ref={(element) => {
            if (element) element.style.height = `${rows.length * ROW}px`;
          }}
        >
          {rendered}
        </div>
        {rows.length === 0 && (
          <p class="empty">{arriving ? "Loading tickets…" : "No tickets match."}</p>
        )}
      </div>
    </div>
  );
}

function comparer(key: SortKey, laneOrder: Map<number, number>) {
  const status = (ticket: TicketSummary) => (ticket.isArchived ? 2 : ticket.isResolved ? 1 : 0);
  switch (key) {
    case "id":
      return (a: TicketSummary, b: TicketSummary) => a.id - b.id;
    case "title":
      return (a: TicketSummary, b: TicketSummary) => a.title.localeCompare(b.title);
    case "priority":
      return (a: TicketSummary, b: TicketSummary) => b.priority - a.priority;
    case "lane":
      return (a: TicketSummary, b: TicketSummary) =>
        (laneOrder.get(a.laneId) ?? 0) - (laneOrder.get(b.laneId) ?? 0);
    case "status":
      return (a: TicketSummary, b: TicketSummary) => status(a) - status(b);
    default:
      return (a: TicketSummary, b: TicketSummary) =>
        (laneOrder.get(a.laneId) ?? 0) - (laneOrder.get(b.laneId) ?? 0) ||
        Number(a.isArchived) - Number(b.isArchived) ||
        a.position - b.position;
  }
}
