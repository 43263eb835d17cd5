import { tickets } from "./board-data";
import { drag, dropAt, focusedTicketId, shownInLane } from "./board-state";
import { announce } from "./toasts";

// Pointer dragging of cards (mouse, pen, touch). Hand-written rather than a library: the board's
// order lives in signals and the server decides it, columns are virtualized, and all a drag needs
// is "which lane, which index" under the pointer, an indicator, and edge autoscroll. Every lane's
// whole column is a drop zone (empty lanes too). Touch starts after a short press, so scrolling
// a lane with a finger never drags by accident; the "Move to…" dialog is the no-drag path.

const MOUSE_THRESHOLD = 4;
const TOUCH_DELAY_MS = 280;
const TOUCH_SLOP = 8;
const EDGE = 56;

export function onCardPointerDown(event: PointerEvent, ticketId: number): void {
  if (event.button !== 0 || drag.value) return;
  const target = event.target as HTMLElement;
  if (target.closest("button, a, input, textarea, select, [data-no-drag]")) return;
  const card = event.currentTarget as HTMLElement;
  const startX = event.clientX;
  const startY = event.clientY;
  const touch = event.pointerType === "touch";
  let started = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let session: DragSession | null = null;

  const begin = (x: number, y: number) => {
    started = true;
    session = new DragSession(card, ticketId, x, y, startX, startY);
  };
  const move = (moveEvent: PointerEvent) => {
    const dx = moveEvent.clientX - startX;
    const dy = moveEvent.clientY - startY;
    if (!started) {
      if (touch) {
        if (Math.hypot(dx, dy) > TOUCH_SLOP) cleanup();
        return;
      }
      if (Math.hypot(dx, dy) < MOUSE_THRESHOLD) return;
      begin(moveEvent.clientX, moveEvent.clientY);
    }
    moveEvent.preventDefault();
    session?.move(moveEvent.clientX, moveEvent.clientY);
  };
  const up = () => {
    const active = session;
    cleanup();
    void active?.drop();
  };
  const cancel = () => {
    const active = session;
    cleanup();
    active?.cancel();
  };
  const key = (keyEvent: KeyboardEvent) => {
    if (keyEvent.key === "Escape" && session) {
      keyEvent.preventDefault();
      keyEvent.stopPropagation();
      cancel();
    }
  };
  // While a touch drag runs, the page must not scroll under the finger.
  const blockTouchScroll = (touchEvent: TouchEvent) => {
    if (started) touchEvent.preventDefault();
  };
  function cleanup() {
    clearTimeout(timer);
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
    window.removeEventListener("keydown", key, true);
    window.removeEventListener("touchmove", blockTouchScroll);
  }
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", cancel);
  window.addEventListener("keydown", key, true);
  window.addEventListener("touchmove", blockTouchScroll, { passive: false });
  if (touch) {
    timer = setTimeout(() => begin(startX, startY), TOUCH_DELAY_MS);
  }
}

class DragSession {
  private readonly ghost: HTMLElement;
  private readonly offsetX: number;
  private readonly offsetY: number;
  private x: number;
  private y: number;
  private frame = 0;

  constructor(
    card: HTMLElement,
    private readonly ticketId: number,
    x: number,
    y: number,
    startX: number,
    startY: number,
  ) {
    const rect = card.getBoundingClientRect();
    this.offsetX = startX - rect.left;
    this.offsetY = startY - rect.top;
    this.x = x;
    this.y = y;
    this.ghost = card.cloneNode(true) as HTMLElement;
    this.ghost.classList.add("drag-ghost");
    this.ghost.removeAttribute("id");
    this.ghost.setAttribute("aria-hidden", "true");
    this.ghost.style.width = `${rect.width}px`;
    document.body.append(this.ghost);
    document.body.classList.add("is-dragging");
    const ticket = tickets.value.get(ticketId);
    if (ticket) {
      const index = shownInLane(ticket.laneId).findIndex((entry) => entry.id === ticketId);
      drag.value = {
        ticketId,
        fromLaneId: ticket.laneId,
        laneId: ticket.laneId,
        index,
        mode: "pointer",
      };
      announce(`Dragging ${ticket.shortRef}.`);
    }
    this.place();
    this.frame = requestAnimationFrame(this.tick);
  }

  move(x: number, y: number): void {
    this.x = x;
    this.y = y;
    this.place();
    this.target();
  }

  private place(): void {
    this.ghost.style.transform = `translate(${this.x - this.offsetX}px, ${this.y - this.offsetY}px) rotate(1.5deg)`;
  }

  /** Finds the lane under the pointer and the index the card would take there. */
  private target(): void {
    const state = drag.value;
    if (!state) return;
    const element = document
      .elementsFromPoint(this.x, this.y)
      .find((candidate) => candidate instanceof HTMLElement && candidate.dataset.laneDrop);
    if (!(element instanceof HTMLElement)) return;
    const laneId = Number(element.dataset.laneDrop);
    const cards = element.querySelectorAll<HTMLElement>("[data-drop-index]");
    let index: number | null = null;
    let last = -1;
    for (const card of cards) {
      const cardIndex = Number(card.dataset.dropIndex);
      const rect = card.getBoundingClientRect();
      last = Math.max(last, cardIndex);
      if (index === null && this.y < rect.top + rect.height / 2) index = cardIndex;
    }
    index ??= last + 1;
    if (state.laneId !== laneId || state.index !== index) {
      drag.value = { ...state, laneId, index };
    }
  }

  /** Edge autoscroll: the board sideways, the lane under the pointer up and down. */
  private tick = () => {
    const board = document.querySelector<HTMLElement>("[data-board-scroller]");
    if (board) {
      const rect = board.getBoundingClientRect();
      if (this.x < rect.left + EDGE) board.scrollLeft -= speed(rect.left + EDGE - this.x);
      else if (this.x > rect.right - EDGE) board.scrollLeft += speed(this.x - (rect.right - EDGE));
    }
    const lane = document
      .elementsFromPoint(this.x, this.y)
      .find((candidate) => candidate instanceof HTMLElement && candidate.dataset.laneScroller);
    if (lane instanceof HTMLElement) {
      const rect = lane.getBoundingClientRect();
      if (this.y < rect.top + EDGE) lane.scrollTop -= speed(rect.top + EDGE - this.y);
      else if (this.y > rect.bottom - EDGE) lane.scrollTop += speed(this.y - (rect.bottom - EDGE));
    }
    this.target();
    this.frame = requestAnimationFrame(this.tick);
  };

  async drop(): Promise<void> {
    this.end();
    const state = drag.value;
    drag.value = null;
    if (!state) return;
    focusedTicketId.value = state.ticketId;
    await dropAt(state.ticketId, state.laneId, state.index);
  }

  cancel(): void {
    this.end();
    drag.value = null;
    announce("Drag cancelled.");
  }

  private end(): void {
    cancelAnimationFrame(this.frame);
    this.ghost.remove();
    document.body.classList.remove("is-dragging");
    void this.ticketId;
  }
}

function speed(depth: number): number {
  return Math.min(24, Math.max(2, depth / 2.5));
}
