import { effect, signal } from "@preact/signals";
import { api, errorMessage, requestWithHeaders } from "./api";
import { streamMessages, tickets } from "./board-data";
import { recall, remember } from "./prefs";
import { navigate } from "./router";
import type { Ask } from "./types";

// The inbox: every open ask of every board (docs/api.md, "Asks"), kept live on every page for the
// title's count, the sidebar and the /inbox view.
//
// How it stays live: polling `GET /api/asks` with If-None-Match, not a stream per board. Streams
// are per board, and an EventSource holds one of the browser's six HTTP/1.1 connections to the
// origin for as long as it is open: following ten boards that way would starve the page's own
// requests, and the server caps streams per process. An unchanged list costs one 304 with no
// body. The open board's own stream (already open) triggers a poll at once, so on that board a
// change shows without waiting; other boards' changes show within POLL_MS.

/** Poll period while the page is visible, and while it is hidden (new asks are notified then). */
const POLL_MS = 4000;
const HIDDEN_POLL_MS = 15000;

export const openAsks = signal<Ask[]>([]);
/** Whether the first answer came (the inbox says "Loading…" until then). */
export const asksLoaded = signal(false);
export const asksError = signal<string | null>(null);

/**
 * The name sent as `by` with an answer. The UI has no other name for the person (a token's name
 * is not exposed to the page), so it is a preference edited in the inbox, "you" until set.
 */
export const personName = signal<string>(recall<string>("tack.person", "you"));
effect(() => remember("tack.person", personName.value));

export function answerer(): string {
  return personName.value.trim() || "you";
}

/** Browser notifications of new asks while the tab is hidden: off until the person turns them on. */
export const notifyOn = signal<boolean>(
  recall<boolean>("tack.notifyAsks", false) &&
    typeof Notification !== "undefined" &&
    Notification.permission === "granted",
);
effect(() => remember("tack.notifyAsks", notifyOn.value));

/** Asks the browser for permission (only ever from the inbox's button) and turns them on. */
export async function enableNotifications(): Promise<NotificationPermission | "unsupported"> {
  if (typeof Notification === "undefined") return "unsupported";
  const permission =
    Notification.permission === "default"
      ? await Notification.requestPermission()
      : Notification.permission;
  notifyOn.value = permission === "granted";
  return permission;
}

let etag: string | null = null;
let inFlight: Promise<void> | null = null;
let again = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let seen: Set<number> | null = null;

/** Fetches the open asks (a 304 when nothing changed); overlapping calls collapse into one more. */
export function refreshAsks(): Promise<void> {
  if (inFlight) {
    again = true;
    return inFlight;
  }
  inFlight = (async () => {
    try {
      const answer = await requestWithHeaders<{ asks: Ask[] }>("GET", "/api/asks", undefined, {
        ifNoneMatch: etag ?? undefined,
      });
      if (!answer.notModified) {
        etag = answer.etag;
        announceNew(answer.data.asks);
        openAsks.value = answer.data.asks;
      }
      asksError.value = null;
    } catch (error) {
      asksError.value = errorMessage(error);
    } finally {
      asksLoaded.value = true;
    }
  })().finally(() => {
    inFlight = null;
    if (again) {
      again = false;
      void refreshAsks();
    }
    scheduleNext();
  });
  return inFlight;
}

function scheduleNext(): void {
  clearTimeout(timer);
  timer = setTimeout(
    () => void refreshAsks(),
    document.visibilityState === "hidden" ? HIDDEN_POLL_MS : POLL_MS,
  );
}

/** A notification for each ask not seen before, while the tab is hidden and they are on. */
function announceNew(asks: Ask[]): void {
  const before = seen;
  seen = new Set(asks.map((ask) => ask.id));
  if (!before || !notifyOn.value || document.visibilityState !== "hidden") return;
  for (const ask of asks) {
    if (before.has(ask.id)) continue;
    try {
      const shown = new Notification(`${ask.actor} asks (#${ask.ticketId})`, {
        body: plainText(ask.question),
        tag: `tack-ask-${ask.id}`,
      });
      shown.onclick = () => {
        window.focus();
        navigate("/inbox");
      };
    } catch {
      // A browser that refuses page notifications (some mobile ones): the title still counts.
    }
  }
}

function plainText(markdown: string): string {
  const flat = markdown
    .replace(/[`*_#>[\]]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

/** Answers with an option and/or a text; the ask leaves the list at once. */
export async function answerAsk(
  askId: number,
  answer: { option?: string; text?: string },
): Promise<Ask> {
  const answered = await api.post<Ask>(`/api/asks/${askId}/answer`, { by: answerer(), ...answer });
  dropAsk(askId);
  return answered;
}

function dropAsk(askId: number): void {
  openAsks.value = openAsks.value.filter((ask) => ask.id !== askId);
  void refreshAsks();
}

/** Titles of the tickets asked about, for the inbox: the open board's copy, else one GET each. */
export const askTickets = signal<Map<number, { shortRef: string; title: string }>>(new Map());
const askedFor = new Set<number>();

export function loadAskTickets(asks: readonly Ask[]): void {
  for (const ask of asks) {
    const known = tickets.value.get(ask.ticketId);
    if (known) {
      const cached = askTickets.value.get(ask.ticketId);
      if (cached?.title !== known.title)
        askTickets.value = new Map(askTickets.value).set(ask.ticketId, known);
      continue;
    }
    if (askedFor.has(ask.ticketId)) continue;
    askedFor.add(ask.ticketId);
    api.get<{ shortRef: string; title: string }>(`/api/tickets/${ask.ticketId}`).then(
      (ticket) =>
        (askTickets.value = new Map(askTickets.value).set(ask.ticketId, {
          shortRef: ticket.shortRef,
          title: ticket.title,
        })),
      () => askedFor.delete(ask.ticketId),
    );
  }
}

/** Starts following the asks: now, on a timer, on the open board's stream, on coming back. */
export function followAsks(): void {
  let lastMessages = -1;
  effect(() => {
    const count = streamMessages.value;
    if (count !== lastMessages) {
      lastMessages = count;
      void refreshAsks();
    }
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") void refreshAsks();
  });
}

const BASE_TITLE = document.title || "tack";
/** The document title counts the open asks on every page: "(2) tack". */
effect(() => {
  const count = openAsks.value.length;
  document.title = count > 0 ? `(${count}) ${BASE_TITLE}` : BASE_TITLE;
});
