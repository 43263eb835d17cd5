import { useSignal } from "@preact/signals";
import { useCallback, useLayoutEffect, useRef, useState } from "preact/hooks";
import { childCounts, lanes, lanesArriving, tickets } from "../board-data";
import {
  addingLaneId,
  drag,
  expandedLanes,
  focusedLaneId,
  focusedTicketId,
  type LaneView,
  selection,
} from "../board-state";
import { createTicket } from "../ticket-writes";
import type { Lane, TicketSummary } from "../types";
import { Card } from "./Card";
import { LaneMenu } from "./LaneMenu";
import { LaneFigure } from "./LaneWip";

/** Columns longer than this render only the cards near the visible part. */
const VIRTUALIZE_FROM = 60;
const ESTIMATED_CARD = 84;
const GAP = 8;
const OVERSCAN_PX = 600;

interface Props {
  lane: Lane;
  view: LaneView;
  onOpen: (id: number) => void;
}

type Entry = { kind: "card"; ticket: TicketSummary; dropIndex: number | null } | { kind: "drop" };

export function LaneColumn({ lane, view, onOpen }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<number, number>());
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(800);
  const [, setMeasured] = useState(0);
  const dragState = drag.value;
  const focusedId = focusedTicketId.value;
  const selected = selection.value;
  const all = tickets.value;
  const childrenOf = childCounts.value;
  const arriving = lanesArriving.value.has(lane.id);

  // The shown list, with the dragged card's drop position marked by an indicator.
  const entries: Entry[] = [];
  let dropIndex = 0;
  for (const ticket of view.shown) {
    const isDragged = dragState?.ticketId === ticket.id;
    if (dragState && dragState.laneId === lane.id && dropIndex === dragState.index && !isDragged) {
      entries.push({ kind: "drop" });
    }
    entries.push({ kind: "card", ticket, dropIndex: isDragged ? null : dropIndex });
    if (!isDragged) dropIndex++;
  }
  if (dragState && dragState.laneId === lane.id && dragState.index >= dropIndex) {
    entries.push({ kind: "drop" });
  }

  const heightOf = (entry: Entry) =>
    entry.kind === "drop" ? 6 : (heights.current.get(entry.ticket.id) ?? ESTIMATED_CARD);

  // Which entries to mount: all of a short lane; for a long one those near the viewport plus the
  // focused and dragged cards, with spacers standing in for the rest.
  const virtual = entries.length > VIRTUALIZE_FROM;
  const offsets: number[] = [];
  let total = 0;
  for (const entry of entries) {
    offsets.push(total);
    total += heightOf(entry) + GAP;
  }
  const mounted: number[] = [];
  if (!virtual) {
    for (let i = 0; i < entries.length; i++) mounted.push(i);
  } else {
    const top = scrollTop - OVERSCAN_PX;
    const bottom = scrollTop + viewport + OVERSCAN_PX;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as Entry;
      const start = offsets[i] as number;
      const keep =
        entry.kind === "card" &&
        (entry.ticket.id === focusedId || entry.ticket.id === dragState?.ticketId);
      if ((start + heightOf(entry) >= top && start <= bottom) || keep) mounted.push(i);
    }
  }

  // Measure what is mounted (long lanes only); re-render only when an estimate was off.
  useLayoutEffect(() => {
    const body = scroller.current;
    if (!body || !virtual) return;
    let changed = false;
    for (const element of body.querySelectorAll<HTMLElement>("[data-ticket-id]")) {
      const id = Number(element.dataset.ticketId);
      const height = element.offsetHeight;
      if (heights.current.get(id) !== height) {
        heights.current.set(id, height);
        changed = true;
      }
    }
    if (changed) setMeasured((count) => count + 1);
  });

  useLayoutEffect(() => {
    const body = scroller.current;
    if (!body) return;
    setViewport(body.clientHeight);
    const observer = new ResizeObserver(() => setViewport(body.clientHeight));
    observer.observe(body);
    return () => observer.disconnect();
  }, []);

  // Keyboard focus that lands on a card of this lane scrolls it into view (mounting it first).
  useLayoutEffect(() => {
    const body = scroller.current;
    if (!body || focusedId === null) return;
    const index = entries.findIndex(
      (entry) => entry.kind === "card" && entry.ticket.id === focusedId,
    );
    if (index < 0) return;
    const start = offsets[index] as number;
    const end = start + heightOf(entries[index] as Entry);
    if (start < body.scrollTop) body.scrollTop = start;
    else if (end > body.scrollTop + body.clientHeight)
      body.scrollTop = end - body.clientHeight + GAP;
  }, [focusedId]);

  const onScroll = useCallback(() => {
    const body = scroller.current;
    if (body) setScrollTop(body.scrollTop);
  }, []);

  const onFocusCard = useCallback(
    (id: number) => {
      focusedTicketId.value = id;
      focusedLaneId.value = lane.id;
    },
    [lane.id],
  );

  const firstTabbable =
    focusedId === null || !all.has(focusedId)
      ? lanes.value[0]?.id === lane.id
        ? view.shown[0]?.id
        : undefined
      : focusedId;

  const children = [];
  let cursor = 0;
  for (const index of mounted) {
    const start = offsets[index] as number;
    if (virtual && start > cursor) {
      children.push(
        <div
          key={`gap-${index}`}
          class="lane-gap"
          aria-hidden="true"
          ref={sizeTo(start - cursor)}
        />,
      );
    }
    const entry = entries[index] as Entry;
    if (entry.kind === "drop") {
      children.push(<div key="drop" class="drop-line" aria-hidden="true" />);
    } else {
      const ticket = entry.ticket;
      children.push(
        <Card
          key={ticket.id}
          ticket={ticket}
          focused={focusedId === ticket.id}
          tabbable={firstTabbable === ticket.id}
          selected={selected.has(ticket.id)}
          dragging={dragState?.mode === "pointer" && dragState.ticketId === ticket.id}
          lifted={dragState?.mode === "keyboard" && dragState.ticketId === ticket.id}
          dropIndex={dragState ? entry.dropIndex : null}
          blockedBy={
            ticket.blockerIds.filter((id) => {
              const blocker = all.get(id);
              return blocker ? !blocker.isResolved : false;
            }).length
          }
          childCount={ticket.hasChildren ? (childrenOf.get(ticket.id) ?? 0) : 0}
          onOpen={onOpen}
          onFocus={onFocusCard}
        />,
      );
    }
    cursor = start + heightOf(entry) + GAP;
  }
  if (virtual && total > cursor) {
    children.push(
      <div key="gap-end" class="lane-gap" aria-hidden="true" ref={sizeTo(total - cursor)} />,
    );
  }

  const expanded = expandedLanes.value.has(lane.id);
  return (
    <section
      class={`lane${dragState?.laneId === lane.id ? " is-drop-target" : ""}`}
      aria-labelledby={`lane-title-${lane.id}`}
      // Its cards are not all in yet: what it shows (count, empty or not) may still change.
      aria-busy={arriving ? "true" : undefined}
      data-lane-id={lane.id}
      data-lane-drop={lane.id}
    >
      <header class="lane-header">
        <h2 class="lane-title" id={`lane-title-${lane.id}`}>
          {lane.name}
        </h2>
        <LaneFigure lane={lane} shown={view.total} arriving={arriving} />
        <span class="card-spacer" />
        <button
          type="button"
          class="icon-button"
          title="Add a ticket (n)"
          aria-label={`Add a ticket to ${lane.name}`}
          onClick={() => {
            addingLaneId.value = lane.id;
          }}
        >
          +
        </button>
        <LaneMenu lane={lane} />
      </header>
      {addingLaneId.value === lane.id && (
        <QuickAdd
          laneId={lane.id}
          onDone={(created) => {
            addingLaneId.value = null;
            if (created) focusedTicketId.value = created;
          }}
        />
      )}
      <div class="lane-body" ref={scroller} data-lane-scroller="1" onScroll={onScroll}>
        {view.shown.length > 0 ? (
          <div class="lane-list" role="list" aria-label={`${lane.name} tickets`}>
            {children}
          </div>
        ) : (
          children.length > 0 && <div class="lane-list">{children}</div>
        )}
        {arriving && (
          <p class="lane-arriving" role="status">
            Loading tickets…
          </p>
        )}
        {!arriving && view.shown.length === 0 && !dragState && addingLaneId.value !== lane.id && (
          <button type="button" class="lane-empty" onClick={() => (addingLaneId.value = lane.id)}>
            No tickets. Add one
          </button>
        )}
        {view.hiddenDone > 0 && (
          <button
            type="button"
            class="show-more"
            onClick={() => {
              const next = new Set(expandedLanes.value);
              next.add(lane.id);
              expandedLanes.value = next;
            }}
          >
            Show {view.hiddenDone} more (resolved / archived)
          </button>
        )}
        {expanded && (
          <button
            type="button"
            class="show-more"
            onClick={() => {
              const next = new Set(expandedLanes.value);
              next.delete(lane.id);
              expandedLanes.value = next;
            }}
          >
            Hide resolved / archived
          </button>
        )}
      </div>
    </section>
  );
}

/** Spacer heights are set through the CSSOM (allowed by the CSP, unlike style attributes). */
function sizeTo(height: number) {
  return (element: HTMLElement | null) => {
    if (element) element.style.height = `${height}px`;
  };
}

export function QuickAdd(props: { laneId: number; onDone: (createdId: number | null) => void }) {
  const value = useSignal("");
  const busy = useSignal(false);
  const input = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => input.current?.focus(), []);
  const submit = async () => {
    const title = value.value.trim();
    if (!title || busy.value) return;
    busy.value = true;
    const created = await createTicket(props.laneId, title);
    busy.value = false;
    if (created) {
      value.value = "";
      input.current?.focus();
    }
  };
  return (
    <form
      class="quick-add"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <textarea
        ref={input}
        rows={2}
        aria-label="New ticket title"
        placeholder="Title, then Enter"
        value={value.value}
        onInput={(event) => {
          value.value = (event.target as HTMLTextAreaElement).value;
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey) {
            event.preventDefault();
            void submit();
          } else if (event.key === "Escape") {
            event.preventDefault();
            event.stopPropagation();
            props.onDone(null);
          }
        }}
        onBlur={() => {
          if (!value.value.trim()) props.onDone(null);
        }}
      />
      <div class="quick-add-actions">
        <button type="submit" class="button button-primary" disabled={busy.value}>
          Add
        </button>
        <button type="button" class="button" onClick={() => props.onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
