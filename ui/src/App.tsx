import { useSignal, useSignalEffect } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api, errorMessage } from "./api";
import { followAsks } from "./asks";
import { board, boardId, boards, loadBoards, loadError, loading, loadMeta } from "./board-data";
import { closeBoard, openBoard } from "./board-sync";
import { BulkBar } from "./components/BulkBar";
import { Inbox } from "./components/Inbox";
import { InsightsLoader } from "./components/InsightsLoader";
import { KanbanView } from "./components/Kanban";
import { ListView } from "./components/ListView";
import { Overlays } from "./components/Overlays";
import { Sidebar } from "./components/Sidebar";
import { TicketDialog } from "./components/TicketDialog";
import { SEARCH_ID, Toolbar } from "./components/Toolbar";
import { rememberedView } from "./filters";
import { installKeyboard } from "./keyboard";
import { ticketReturnPath } from "./navigation";
import { recall, remember } from "./prefs";
import { boardUrl, navigate, query, route } from "./router";
import { announcement, dismiss, toasts } from "./toasts";
import type { BoardShell, Ticket } from "./types";

installKeyboard(() => {
  const search = document.getElementById(SEARCH_ID) as HTMLInputElement | null;
  search?.focus();
  search?.select();
});
openFirstBoard();
followAsks();

/**
 * The board the page opens on is asked for while the modules run, before the first render:
 * the route's effect runs only after the first paint, and the bundle's first render takes a
 * good part of the page's start (docs/performance.md, "The web UI on a big board"). The
 * effect's own `openBoard` then finds it loading. Not when filters used last time are brought
 * back first (the effect navigates to them before it opens the board).
 */
function openFirstBoard(): void {
  const first = route.peek();
  if (first.name === "insights") void openBoard(first.boardId);
  if (first.name !== "board") return;
  if (query.peek().toString() === "" && rememberedView(first.boardId).search) return;
  void openBoard(first.boardId);
}

export function App() {
  const ready = useSignal(false);
  const ticketBoard = useSignal<{ ticketId: number; boardId: number } | null>(null);
  const ticketError = useSignal<string | null>(null);

  useEffect(() => {
    void Promise.all([loadMeta(), loadBoards()]).finally(() => (ready.value = true));
  }, []);

  // Route → data: which board to show (for /tickets/{id}, the ticket's own board behind it).
  useSignalEffect(() => {
    const current = route.value;
    if (current.name === "home") {
      if (!ready.value) return;
      const last = recall<number | null>("tack.lastBoard", null);
      const target = boards.value.find((entry) => entry.id === last) ?? boards.value[0];
      if (target) {
        const remembered = rememberedView(target.id);
        navigate(boardUrl(target.id, remembered.view, remembered.search), { replace: true });
      } else closeBoard();
      return;
    }
    if (current.name === "board") {
      if (boardId.peek() !== current.boardId && query.peek().toString() === "") {
        // Entering a board without filters in the URL: bring back the ones used last time.
        const remembered = rememberedView(current.boardId);
        if (remembered.search) {
          navigate(boardUrl(current.boardId, current.view, remembered.search), { replace: true });
          return;
        }
      }
      remember("tack.lastBoard", current.boardId);
      void openBoard(current.boardId);
      return;
    }
    if (current.name === "insights") {
      void openBoard(current.boardId);
      return;
    }
    if (current.name === "ticket") {
      const known = ticketBoard.peek();
      if (known?.ticketId === current.ticketId) {
        void openBoard(known.boardId);
        return;
      }
      ticketError.value = null;
      void api
        .get<Ticket>(`/api/tickets/${current.ticketId}`)
        .then((ticket) => {
          ticketBoard.value = { ticketId: ticket.id, boardId: ticket.boardId };
          void openBoard(ticket.boardId);
        })
        .catch((error) => (ticketError.value = errorMessage(error)));
    }
  });

  const current = route.value;
  const view =
    current.name === "board"
      ? current.view
      : boardId.value !== null
        ? rememberedView(boardId.value).view
        : "kanban";

  // The Insights view, also behind a ticket dialog opened from it.
  const showInsights =
    current.name === "insights" ||
    (current.name === "ticket" && /\/insights(\?|$)/.test(ticketReturnPath() ?? ""));
  // The inbox, also behind a ticket dialog opened from it.
  const showInbox =
    current.name === "inbox" || (current.name === "ticket" && ticketReturnPath() === "/inbox");

  return (
    <div class="app">
      <a class="skip-link" href="#main">
        Skip to board
      </a>
      <Sidebar />
      <main class="main" id="main">
        {current.name === "unknown" && (
          <Empty title="Page not found" text="Pick a board on the left." />
        )}
        {ticketError.value && current.name === "ticket" && (
          <Empty title={`Ticket #${current.ticketId} cannot be opened`} text={ticketError.value} />
        )}
        {ready.value && boards.value.length === 0 && current.name === "home" && <FirstBoard />}
        {showInbox && <Inbox />}
        {loadError.value && !showInbox && (
          <Empty title="This board cannot be shown" text={loadError.value} />
        )}
        {board.value && showInsights && <InsightsLoader />}
        {board.value && !showInsights && !showInbox && (
          <>
            <Toolbar />
            <BulkBar />
            {view === "list" ? <ListView /> : <KanbanView />}
          </>
        )}
        {loading.value && !board.value && !showInbox && <div class="loading">Loading board…</div>}
      </main>
      {current.name === "ticket" &&
        board.value &&
        ticketBoard.value?.ticketId === current.ticketId && (
          <TicketDialog key={current.ticketId} ticketId={current.ticketId} />
        )}
      <Overlays />
      <div class="toasts" role="status" aria-live="polite">
        {toasts.value.map((entry) => (
          <div key={entry.id} class={`toast toast-${entry.kind}`}>
            <span>{entry.text}</span>
            {entry.action && (
              <button type="button" class="toast-action" onClick={entry.action.run}>
                {entry.action.label}
              </button>
            )}
            <button
              type="button"
              class="icon-button"
              aria-label="Dismiss"
              onClick={() => dismiss(entry.id)}
            >
              ✕
            </button>
          </div>
        ))}
      </div>
      <div class="sr-only" aria-live="assertive" aria-atomic="true">
        {announcement.value}
      </div>
    </div>
  );
}

function Empty(props: { title: string; text: string }) {
  return (
    <div class="empty-state">
      <h1>{props.title}</h1>
      <p>{props.text}</p>
    </div>
  );
}

function FirstBoard() {
  const name = useSignal("");
  return (
    <div class="empty-state">
      <h1>Welcome to tack</h1>
      <p>Create a board to start. It comes with three lanes: todo, doing, done.</p>
      <form
        class="first-board"
        onSubmit={async (event) => {
          event.preventDefault();
          if (!name.value.trim()) return;
          const created = await api.post<BoardShell>("/api/boards", { name: name.value });
          await loadBoards();
          navigate(boardUrl(created.board.id, "kanban"));
        }}
      >
        <input
          aria-label="Board name"
          placeholder="Board name"
          value={name.value}
          onInput={(event) => (name.value = (event.target as HTMLInputElement).value)}
        />
        <button type="submit" class="button button-primary">
          Create board
        </button>
      </form>
    </div>
  );
}
