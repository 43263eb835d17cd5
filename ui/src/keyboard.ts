import { lanes, tickets } from "./board-data";
import {
  addingLaneId,
  cancelLift,
  drag,
  dropAt,
  dropLifted,
  focusedLaneId,
  focusedTicketId,
  laneViews,
  liftWithKeyboard,
  moveLifted,
  overlay,
  phoneLaneId,
  shownInLane,
  toggleSelected,
} from "./board-state";
import { rememberedView } from "./filters";
import { openTicket } from "./navigation";
import { recall } from "./prefs";
import { boardUrl, insightsUrl, navigate, route } from "./router";
import { patchTicket } from "./ticket-writes";
import { announce } from "./toasts";
import { undoLastDelete } from "./undo";

// One focus model for the whole app: single-key shortcuts act only when focus is on the board
// (a card, a lane, the page), never while typing in a field or inside a dialog.

export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

export function focusCard(id: number | null): void {
  if (id === null) return;
  focusedTicketId.value = id;
  const ticket = tickets.value.get(id);
  if (ticket) {
    focusedLaneId.value = ticket.laneId;
    if (phoneLaneId.value !== null) phoneLaneId.value = ticket.laneId;
  }
  // Focus moves with the key press when the card is on the page, so the next key (or anything
  // reading the focus) finds it there, not a frame later. Otherwise the next frame focuses it: a
  // virtualized lane mounts the card first. That frame also gives focus back when the render
  // dropped it with the card's element (a card that changed lanes is a new element), but never
  // takes it from wherever the user has put it meanwhile.
  const card = document.getElementById(`card-${id}`);
  card?.focus();
  const landed = card !== null && document.activeElement === card;
  requestAnimationFrame(() => {
    const now = document.activeElement;
    if (!landed || now === null || now === document.body)
      document.getElementById(`card-${id}`)?.focus();
  });
}

function moveFocus(dx: number, dy: number): void {
  const laneList = lanes.value;
  const views = laneViews.value;
  const current =
    focusedTicketId.value === null ? undefined : tickets.value.get(focusedTicketId.value);
  if (!current) {
    const first = laneList.map((lane) => views.get(lane.id)?.shown[0]).find(Boolean);
    if (first) focusCard(first.id);
    return;
  }
  const laneIndex = laneList.findIndex((lane) => lane.id === current.laneId);
  const list = views.get(current.laneId)?.shown ?? [];
  const index = list.findIndex((ticket) => ticket.id === current.id);
  if (dy !== 0) {
    const next = list[Math.max(0, Math.min(list.length - 1, index + dy))];
    if (next) focusCard(next.id);
    return;
  }
  // Sideways: the nearest lane in that direction with cards, same index or its last card.
  for (let i = laneIndex + dx; i >= 0 && i < laneList.length; i += dx) {
    const lane = laneList[i];
    const target = lane ? (views.get(lane.id)?.shown ?? []) : [];
    if (target.length > 0) {
      const next = target[Math.min(Math.max(index, 0), target.length - 1)];
      if (next) focusCard(next.id);
      return;
    }
  }
}

export function installKeyboard(focusSearch: () => void): void {
  window.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTyping(event.target)) return;
    // Inside a dialog only the dialog's own keys apply.
    if ((event.target as HTMLElement).closest?.("dialog")) return;
    if (document.querySelector("dialog[open]")) return;
    const current = route.value;

    const lifted = drag.value;
    if (lifted?.mode === "keyboard") {
      const moves: Record<string, [number, number]> = {
        ArrowUp: [0, -1],
        k: [0, -1],
        ArrowDown: [0, 1],
        j: [0, 1],
        ArrowLeft: [-1, 0],
        h: [-1, 0],
        ArrowRight: [1, 0],
        l: [1, 0],
      };
      const move = moves[event.key];
      event.preventDefault();
      if (move) moveLifted(move[0], move[1]);
      else if (event.key === " " || event.key === "Enter") void dropLifted();
      else if (event.key === "Escape") cancelLift();
      return;
    }

    if (event.key === "?") {
      event.preventDefault();
      overlay.value = { kind: "help" };
      return;
    }
    if (event.key === "T") {
      event.preventDefault();
      overlay.value = { kind: "trash" };
      return;
    }
    if (event.key === "u") {
      event.preventDefault();
      undoLastDelete();
      return;
    }
    if (event.key === "a") {
      // The inbox of open asks, from every page; again: back to the last board.
      event.preventDefault();
      if (current.name !== "inbox") navigate("/inbox");
      else {
        const last = recall<number | null>("tack.lastBoard", null);
        navigate(
          last === null
            ? "/"
            : boardUrl(last, rememberedView(last).view, rememberedView(last).search),
        );
      }
      return;
    }
    if (event.key === "/") {
      event.preventDefault();
      focusSearch();
      return;
    }
    if (event.key === "i" && (current.name === "board" || current.name === "insights")) {
      // The board's Insights view, and back to the board from it.
      event.preventDefault();
      const back = rememberedView(current.boardId);
      navigate(
        current.name === "board"
          ? insightsUrl(current.boardId)
          : boardUrl(current.boardId, back.view, back.search),
      );
      return;
    }
    if (current.name !== "board") return;
    const focused = focusedTicketId.value;
    const ticket = focused === null ? undefined : tickets.value.get(focused);
    const onCard = (event.target as HTMLElement).closest?.("[data-ticket-id]") !== null;

    switch (event.key) {
      case "ArrowUp":
      case "k":
        if (current.view === "kanban") {
          event.preventDefault();
          moveFocus(0, -1);
        }
        return;
      case "ArrowDown":
      case "j":
        if (current.view === "kanban") {
          event.preventDefault();
          moveFocus(0, 1);
        }
        return;
      case "ArrowLeft":
      case "h":
      case "ArrowRight":
      case "l": {
        if (current.view !== "kanban") return;
        event.preventDefault();
        const dx = event.key === "ArrowLeft" || event.key === "h" ? -1 : 1;
        if (event.shiftKey && ticket) {
          // Shift+←/→: move the card one lane over, keeping it focused.
          const laneList = lanes.value;
          const target = laneList[laneList.findIndex((lane) => lane.id === ticket.laneId) + dx];
          if (target) {
            const card = document.activeElement;
            void dropAt(ticket.id, target.id, shownInLane(target.id, ticket.id).length).then(() => {
              // The card re-renders in its new lane and loses focus: give it back, unless the
              // user has moved on to another element while the move was on its way.
              const now = document.activeElement;
              if (now === card || now === null || now === document.body || !now.isConnected)
                focusCard(ticket.id);
            });
          }
          return;
        }
        moveFocus(dx, 0);
        return;
      }
      case "Enter":
        if (ticket && onCard) {
          event.preventDefault();
          openTicket(ticket.id);
        }
        return;
      case "e":
        if (ticket) {
          event.preventDefault();
          openTicket(ticket.id, { edit: true });
        }
        return;
      case "x":
        if (ticket) {
          event.preventDefault();
          toggleSelected([ticket.id]);
          announce(`${ticket.shortRef} ${event.shiftKey ? "" : ""}selection toggled.`);
        }
        return;
      case "m":
        if (ticket) {
          event.preventDefault();
          overlay.value = { kind: "move", ticketId: ticket.id };
        }
        return;
      case "n": {
        event.preventDefault();
        const laneId =
          ticket?.laneId ?? focusedLaneId.value ?? phoneLaneId.value ?? lanes.value[0]?.id ?? null;
        addingLaneId.value = laneId;
        return;
      }
      case " ":
        if (ticket && onCard && current.view === "kanban") {
          event.preventDefault();
          liftWithKeyboard(ticket.id);
        }
        return;
      case "1":
      case "2":
      case "3":
      case "4":
        if (ticket) {
          event.preventDefault();
          const priority = Number(event.key);
          void patchTicket(ticket.id, { priority }).then(() =>
            announce(`${ticket.shortRef} priority ${priority}.`),
          );
        }
        return;
    }
  });
}
