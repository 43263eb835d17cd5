import { batch } from "@preact/signals";
import { api, errorMessage, requestWithHeaders } from "./api";
import {
  applyShell,
  arrivingLaneId,
  board,
  boardId,
  boards,
  lanes,
  loadBoards,
  loadError,
  loading,
  remoteChange,
  tags,
  tickets,
} from "./board-data";
import { connectStream, disconnectStream, type StreamListener } from "./board-stream";
import { ListArrival } from "./list-arrival";
import {
  boardDeletedHere,
  deletingBoard,
  forgetLocalChanges,
  forgetRemovedHere,
  localChangeCount,
  newerHere,
  ticketsNewerHere,
} from "./local-changes";
import { TICKETS_PER_PAGE, wholeListIsCheaper } from "./refetch-cost";
import { navigate, route } from "./router";
import { readLaneLists, readTicketList } from "./ticket-list-reader";
import { toast } from "./toasts";
import type { BoardShell, Ticket, TicketSummary } from "./types";

// Keeps board-data.ts's copy of the open board in step with the server: the first load, the
// refetches the stream's messages ask for (coalesced, one at a time), closing and deleting.

let loadToken = 0;
/** Calls off the list still arriving for the board opened before. */
let loadAborter: AbortController | null = null;

/**
 * Loads a board's shell and every ticket summary (archived too: the status filter shows them).
 * The shell comes first: its lanes say which list to ask for, one lane at a time in board
 * order, so the first lane's cards wait neither for the other lanes' answers nor for a server
 * that has not read this board since it started to build the whole list before its first byte
 * (a lane's list costs it that lane's tickets). Each lane's list is shown as it arrives
 * (ticket-list-reader.ts, list-arrival.ts): its first run at once, then in growing steps, each
 * after a frame, so the browser paints what is there before the parse goes on; the next lane's
 * list is asked for once the one before has answered, so the server prepares it meanwhile.
 */
export async function openBoard(id: number): Promise<void> {
  // peek(): callers run inside effects, which must not re-run when the board arrives.
  if (boardId.peek() === id && (board.peek() || loading.peek())) return;
  const token = ++loadToken;
  loadAborter?.abort();
  const aborter = new AbortController();
  loadAborter = aborter;
  forgetLocalChanges();
  batch(() => {
    boardId.value = id;
    loading.value = true;
    loadError.value = null;
    arrivingLaneId.value = null;
    tickets.value = new Map();
    lanes.value = [];
    tags.value = [];
    board.value = null;
  });
  // The stream opens before the list is asked for: a change made while a big list arrives is
  // then a message, kept until the list is in (`flush`), not lost between the lists' reads and
  // the stream's start. A ticket that moves to a lane already read while a later lane is read
  // is such a message too.
  connectStream(id, listener);
  const arrival = new ListArrival(localChangeCount());
  try {
    const shell = await api.get<BoardShell>(`/api/boards/${id}`);
    if (token !== loadToken) return;
    applyShell(shell);
    const laneIds = lanes.peek().map((lane) => lane.id);
    await readLaneLists(id, laneIds, aborter.signal, {
      async onRun(run, lane) {
        if (token !== loadToken) return aborter.abort();
        if (arrival.add(run)) {
          arrival.show(laneIds[lane]);
          await nextFrame();
        } else await nextTask();
      },
      async onLaneEnd(lane) {
        if (token !== loadToken) return aborter.abort();
        const next = laneIds[lane + 1];
        // The last lane's end is the list's, shown below with the load's end.
        if (next === undefined) return;
        // The lane shows whole before it reads as complete.
        arrival.show(next);
        await nextFrame();
      },
    });
    if (token !== loadToken) return;
    batch(() => {
      arrival.show(undefined);
      loading.value = false;
    });
    flush();
  } catch (error) {
    if (token !== loadToken) return;
    aborter.abort();
    disconnectStream();
    batch(() => {
      loading.value = false;
      loadError.value = errorMessage(error);
      arrivingLaneId.value = undefined;
      board.value = null;
      tickets.value = new Map();
    });
  }
}

/** Resolves once other tasks had their turn (input, the network): parsing goes on after. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Resolves after the browser had a chance to paint (a frame, then a task). */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

export function closeBoard(): void {
  loadToken++;
  loadAborter?.abort();
  loadAborter = null;
  disconnectStream();
  forgetLocalChanges();
  batch(() => {
    boardId.value = null;
    arrivingLaneId.value = undefined;
    board.value = null;
    tickets.value = new Map();
    lanes.value = [];
    tags.value = [];
  });
}

/**
 * Deletes board `id`; when it is the open one, closes it (the caller navigates away). Returns
 * whether it was open.
 */
export async function deleteBoard(id: number): Promise<boolean> {
  await deletingBoard(id, () => api.delete(`/api/boards/${id}`));
  boards.value = boards.value.filter((entry) => entry.id !== id);
  if (boardId.value !== id) return false;
  closeBoard();
  return true;
}

async function fetchTicket(ticketId: number): Promise<Ticket | { id: number; missing: true }> {
  try {
    return (await requestWithHeaders<Ticket>("GET", `/api/tickets/${ticketId}`)).data;
  } catch {
    return { id: ticketId, missing: true as const };
  }
}

/**
 * Refetches what changed: the shell always (small), then the named tickets, 50 at a time, or the
 * whole list when the message did not say (null) or named so many that the list is cheaper (a
 * busy board names hundreds in one 60 ms window; its whole list is megabytes; refetch-cost.ts).
 * `[]`: no ticket changed (a lane or tag did), so the shell is all there is to fetch.
 */
export async function refresh(ticketIds: number[] | null): Promise<void> {
  const id = boardId.value;
  if (id === null) return;
  const since = localChangeCount();
  try {
    const shell = await api.get<BoardShell>(`/api/boards/${id}`);
    if (boardId.value !== id) return;
    if (ticketIds && ticketIds.length === 0) {
      applyShell(shell);
    } else if (ticketIds && !wholeListIsCheaper(ticketIds.length, tickets.value.size)) {
      for (let start = 0; start < ticketIds.length; start += TICKETS_PER_PAGE) {
        const page = ticketIds.slice(start, start + TICKETS_PER_PAGE);
        const answers = await Promise.all(page.map(fetchTicket));
        if (boardId.value !== id) return;
        batch(() => {
          if (start === 0) applyShell(shell);
          const next = new Map(tickets.value);
          for (const answer of answers) {
            if (newerHere(answer.id, since)) continue;
            if ("missing" in answer || answer.boardId !== id) next.delete(answer.id);
            else next.set(answer.id, answer as unknown as TicketSummary);
          }
          tickets.value = next;
        });
      }
    } else {
      // Read as it arrives too: the parse of a big list is spread over its chunks.
      const list: TicketSummary[] = [];
      await readTicketList(`/api/boards/${id}/tickets?archived=all`, (run) => {
        for (const ticket of run) list.push(ticket);
      });
      if (boardId.value !== id) return;
      batch(() => {
        applyShell(shell);
        const next = new Map(list.map((ticket) => [ticket.id, ticket]));
        for (const ticketId of ticketsNewerHere(since)) {
          const mine = tickets.value.get(ticketId);
          if (mine) next.set(ticketId, mine);
          else next.delete(ticketId);
        }
        tickets.value = next;
      });
    }
    remoteChange.value = { ticketIds, at: Date.now() };
  } catch (error) {
    if (boardDeletedHere(id)) return;
    if (boardId.value === id && (error as { status?: number }).status === 404) {
      // Named: the page goes on to show another board, which the toast must not seem to be.
      const name = board.value?.name;
      toast(name ? `Board “${name}” was deleted elsewhere.` : "This board was deleted.", "info");
      closeBoard();
      await loadBoards();
      // Deleted elsewhere: leave its address as after a delete here (home opens the first board).
      const shown = route.peek();
      if ("boardId" in shown && shown.boardId === id) navigate("/", { replace: true });
    }
  }
}

const listener: StreamListener = {
  changed: schedule,
  boardDeleted: () => void refresh(null),
};

let pending: { all: boolean; ids: Set<number> } | null = null;
let running: Promise<void> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Coalesces stream messages: one refetch at a time, the next one collects everything new. */
export function schedule(ids: number[] | null): void {
  pending ??= { all: false, ids: new Set() };
  if (ids === null) {
    pending.all = true;
    // The whole list is refetched, the truth about removals too; the message a mark waits for
    // may be one this catch-up stands for.
    forgetRemovedHere();
  } else for (const id of ids) pending.ids.add(id);
  // A window from the first message, not a quiet gap after the last: agents that write without
  // pause would otherwise hold every refetch off until they all stop.
  if (timer !== undefined) return;
  timer = setTimeout(() => {
    timer = undefined;
    flush();
  }, 60);
}

/** Refetches what the messages named, unless a refetch runs or the board's list still arrives. */
function flush(): void {
  if (running || !pending || loading.peek()) return;
  const work = pending;
  pending = null;
  running = refresh(work.all ? null : [...work.ids]).finally(() => {
    running = null;
    if (pending) flush();
  });
}
