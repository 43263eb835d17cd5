import { signal } from "@preact/signals";

// Client routes: /, /boards/{id}, /boards/{id}/list, /boards/{id}/insights, /tickets/{id}, /inbox;
// filters (and the insights period) live in the query.

export type Route =
  | { name: "home" }
  | { name: "board"; boardId: number; view: "kanban" | "list" }
  | { name: "insights"; boardId: number }
  | { name: "ticket"; ticketId: number }
  | { name: "inbox" }
  | { name: "unknown" };

export function parseRoute(pathname: string): Route {
  if (pathname === "/" || pathname === "") return { name: "home" };
  if (/^\/inbox\/?$/.test(pathname)) return { name: "inbox" };
  let match = /^\/boards\/(\d+)(\/list)?\/?$/.exec(pathname);
  if (match)
    return { name: "board", boardId: Number(match[1]), view: match[2] ? "list" : "kanban" };
  match = /^\/boards\/(\d+)\/insights\/?$/.exec(pathname);
  if (match) return { name: "insights", boardId: Number(match[1]) };
  match = /^\/tickets\/(\d+)\/?$/.exec(pathname);
  if (match) return { name: "ticket", ticketId: Number(match[1]) };
  return { name: "unknown" };
}

export const route = signal<Route>(parseRoute(location.pathname));
export const query = signal<URLSearchParams>(new URLSearchParams(location.search));

export function navigate(url: string, options: { replace?: boolean } = {}): void {
  if (url === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  sync();
}

function sync(): void {
  route.value = parseRoute(location.pathname);
  query.value = new URLSearchParams(location.search);
}

window.addEventListener("popstate", sync);

export function boardUrl(boardId: number, view: "kanban" | "list", search = ""): string {
  return `/boards/${boardId}${view === "list" ? "/list" : ""}${search ? `?${search}` : ""}`;
}

export function insightsUrl(boardId: number, search = ""): string {
  return `/boards/${boardId}/insights${search ? `?${search}` : ""}`;
}
