import { focusedTicketId } from "./board-state";
import { navigate, route } from "./router";

// Opening a ticket changes the URL to /tickets/{id} (a link anyone can reload); closing returns
// to the board view it was opened from.

let returnTo: string | null = null;

export function openTicket(id: number, options: { edit?: boolean } = {}): void {
  if (route.value.name !== "ticket") returnTo = location.pathname + location.search;
  focusedTicketId.value = id;
  editTitleOnOpen = options.edit ?? false;
  navigate(`/tickets/${id}`);
}

export let editTitleOnOpen = false;
export function consumeEditTitle(): boolean {
  const value = editTitleOnOpen;
  editTitleOnOpen = false;
  return value;
}

export function closeTicket(boardId: number | null): void {
  const target = returnTo ?? (boardId !== null ? `/boards/${boardId}` : "/");
  returnTo = null;
  navigate(target);
  // Focus returns to the card that was open.
  const id = focusedTicketId.value;
  requestAnimationFrame(() => document.getElementById(`card-${id}`)?.focus());
}

/** Where the open ticket dialog returns to (the Insights view stays behind a dialog opened there). */
export function ticketReturnPath(): string | null {
  return returnTo;
}
