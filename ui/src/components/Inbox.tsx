import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import {
  asksError,
  asksLoaded,
  askTickets,
  enableNotifications,
  loadAskTickets,
  notifyOn,
  openAsks,
  personName,
} from "../asks";
import { boards } from "../board-data";
import { openTicket } from "../navigation";
import { sidebarCollapsed } from "../prefs";
import { AskItem } from "./AskItem";

/** /inbox: every open ask of every board, oldest first, answered in place. */
export function Inbox() {
  const asks = openAsks.value;
  // Ages ("5 min ago") move on even when the list does not change.
  const tick = useSignal(0);
  useEffect(() => {
    const timer = setInterval(() => tick.value++, 30_000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => loadAskTickets(asks), [asks]);
  void tick.value;
  const boardNames = new Map(boards.value.map((entry) => [entry.id, entry.name]));

  return (
    <section class="inbox" aria-labelledby="inbox-title">
      <header class="inbox-head">
        <button
          type="button"
          class="icon-button narrow-only inbox-menu"
          aria-label="Boards and tags"
          title="Boards and tags"
          onClick={() => (sidebarCollapsed.value = false)}
        >
          ☰
        </button>
        <h1 id="inbox-title" class="inbox-title">
          Inbox{" "}
          {asks.length > 0 && (
            <span class="count-badge">
              {asks.length}
              <span class="sr-only"> open</span>
            </span>
          )}
        </h1>
        <p class="muted inbox-intro">
          Questions agents put to you, from every board, oldest first. A blocking question holds its
          ticket out of the ready queue until you answer.
        </p>
        <div class="inbox-prefs">
          <label class="inbox-name">
            Answer as
            <input
              class="inline-input"
              value={personName.value}
              maxLength={100}
              onChange={(event) =>
                (personName.value = (event.target as HTMLInputElement).value.trim() || "you")
              }
            />
          </label>
          <NotifyControl />
        </div>
      </header>
      {asksError.value && (
        <p class="notice notice-warn" role="alert">
          The questions cannot be read: {asksError.value}
        </p>
      )}
      {!asksLoaded.value ? (
        <p class="muted">Loading…</p>
      ) : asks.length === 0 ? (
        <div class="inbox-empty">
          <h2>Nothing to answer</h2>
          <p class="muted">When an agent asks you something, it shows here and in the tab title.</p>
        </div>
      ) : (
        <ol class="inbox-list">
          {asks.map((ask) => {
            const ticket = askTickets.value.get(ask.ticketId);
            return (
              <li key={ask.id}>
                <AskItem
                  ask={ask}
                  context={
                    <div class="ask-context">
                      <a
                        class="ask-ticket"
                        href={`/tickets/${ask.ticketId}`}
                        onClick={(event) => {
                          event.preventDefault();
                          openTicket(ask.ticketId);
                        }}
                      >
                        <span class="card-ref">{ticket?.shortRef ?? `#${ask.ticketId}`}</span>{" "}
                        {ticket?.title ?? ""}
                      </a>
                      <span class="badge ask-board" title="Board">
                        {boardNames.get(ask.boardId) ?? `Board ${ask.boardId}`}
                      </span>
                    </div>
                  }
                />
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

function NotifyControl() {
  const state = useSignal<string | null>(null);
  if (typeof Notification === "undefined") return null;
  if (notifyOn.value) {
    return (
      <button type="button" class="button" onClick={() => (notifyOn.value = false)}>
        🔔 Notifying · turn off
      </button>
    );
  }
  return (
    <span class="inbox-notify">
      <button
        type="button"
        class="button"
        title="A browser notification for each new question while this tab is in the background"
        onClick={async () => {
          const result = await enableNotifications();
          state.value =
            result === "denied"
              ? "Notifications are blocked in this browser's site settings."
              : null;
        }}
      >
        Notify me of new questions
      </button>
      {state.value && <span class="muted small">{state.value}</span>}
    </span>
  );
}
