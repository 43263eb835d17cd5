import { batch, computed, signal } from "@preact/signals";
import { api, errorMessage, requestWithHeaders } from "./api";
import { navigate, route } from "./router";
import { toast } from "./toasts";
import type { Board, BoardShell, Lane, Meta, Tag, Ticket, TicketSummary } from "./types";

// The one client-side copy of what the server holds for the open board. Tickets are kept as a Map
// of summaries (the board list answer); a single-ticket answer (a superset) replaces its entry.
// The server's order is the truth: every write answers, and the stream triggers a refetch.

export const meta = signal<Meta | null>(null);
export const boards = signal<Board[]>([]);
export const boardId = signal<number | null>(null);
export const board = signal<Board | null>(null);
export const lanes = signal<Lane[]>([]);
export const tags = signal<Tag[]>([]);
export const tickets = signal<Map<number, TicketSummary>>(new Map());
export const loading = signal(false);
export const loadError = signal<string | null>(null);
/** Bumped when a ticket changed on the server (stream): open dialogs compare versions. */
export const remoteChange = signal<{ ticketIds: number[] | null; at: number }>({
  ticketIds: null,
  at: 0,
});
export const streamState = signal<"connecting" | "live" | "offline">("connecting");
/** Bumped on every message of the open board's stream (the Insights view refetches on it). */
export const streamMessages = signal(0);

/**
 * Tickets per lane in board order (docs/api.md, "Ordering": non-archived first, then position, then
 * id).
 */
export const ticketsByLane = computed(() => {
  const byLane = new Map<number, TicketSummary[]>();
  for (const lane of lanes.value) byLane.set(lane.id, []);
  for (const ticket of tickets.value.values()) byLane.get(ticket.laneId)?.push(ticket);
  for (const list of byLane.values()) list.sort(compareInLane);
  return byLane;
});

export function compareInLane(a: TicketSummary, b: TicketSummary): number {
  if (a.isArchived !== b.isArchived) return a.isArchived ? 1 : -1;
  return a.position - b.position || a.id - b.id;
}

export async function loadMeta(): Promise<void> {
  try {
    meta.value = await api.get<Meta>("/api/meta");
  } catch {
    meta.value = null;
  }
}

export async function loadBoards(): Promise<void> {
  const answer = await api.get<{ boards: Board[] }>("/api/boards");
  boards.value = answer.boards;
}

let loadToken = 0;

/** Loads a board's shell and every ticket summary (archived too: the status filter shows them). */
export async function openBoard(id: number): Promise<void> {
  // peek(): callers run inside effects, which must not re-run when the board arrives.
  if (boardId.peek() === id && (board.peek() || loading.peek())) return;
  const token = ++loadToken;
  forgetLocalChanges();
  batch(() => {
    boardId.value = id;
    loading.value = true;
    loadError.value = null;
    tickets.value = new Map();
    lanes.value = [];
    tags.value = [];
    board.value = null;
  });
  try {
    const [shell, list] = await Promise.all([
      api.get<BoardShell>(`/api/boards/${id}`),
      api.get<{ tickets: TicketSummary[] }>(`/api/boards/${id}/tickets?archived=all`),
    ]);
    if (token !== loadToken) return;
    batch(() => {
      applyShell(shell);
      tickets.value = new Map(list.tickets.map((ticket) => [ticket.id, ticket]));
      loading.value = false;
    });
    connectStream(id);
  } catch (error) {
    if (token !== loadToken) return;
    batch(() => {
      loading.value = false;
      loadError.value = errorMessage(error);
    });
  }
}

export function closeBoard(): void {
  loadToken++;
  disconnectStream();
  forgetLocalChanges();
  batch(() => {
    boardId.value = null;
    board.value = null;
    tickets.value = new Map();
    lanes.value = [];
    tags.value = [];
  });
}

function applyShell(shell: BoardShell): void {
  board.value = shell.board;
  lanes.value = [...shell.lanes].sort((a, b) => a.position - b.position || a.id - b.id);
  tags.value = shell.tags;
  boards.value = boards.value.map((entry) => (entry.id === shell.board.id ? shell.board : entry));
}

/**
 * The page's own changes to its copy of tickets (write answers, removals) are counted, and each
 * ticket keeps the count of its latest one; a ticket shown moved before the server answered
 * counts as changed until the answer comes. A refetch started before that would bring back what
 * the page replaced (a read the server answered before the page's write): it leaves such tickets
 * as they are. The write's own stream message refetches them afterwards.
 */
let localChanges = 0;
const changedLocallyAt = new Map<number, number>();
/** Tickets shown moved whose move has no answer yet (how many moves, for quick repeats). */
const movesOnTheWay = new Map<number, number>();

function changedLocally(ids: Iterable<number>): void {
  const at = ++localChanges;
  for (const id of ids) changedLocallyAt.set(id, at);
}

/** Whether a refetch that started at `since` is older than the page's copy of ticket `id`. */
function newerHere(id: number, since: number): boolean {
  return movesOnTheWay.has(id) || (changedLocallyAt.get(id) ?? 0) > since;
}

function forgetLocalChanges(): void {
  changedLocallyAt.clear();
  movesOnTheWay.clear();
}

export function putTicket(ticket: TicketSummary | Ticket): void {
  changedLocally([ticket.id]);
  if (ticket.boardId !== boardId.value) {
    removeTickets([ticket.id]);
    return;
  }
  const next = new Map(tickets.value);
  next.set(ticket.id, ticket as TicketSummary);
  tickets.value = next;
}

export function putTickets(list: readonly TicketSummary[]): void {
  changedLocally(list.map((ticket) => ticket.id));
  const next = new Map(tickets.value);
  for (const ticket of list) {
    if (ticket.boardId === boardId.value) next.set(ticket.id, ticket);
    else next.delete(ticket.id);
  }
  tickets.value = next;
}

export function removeTickets(ids: readonly number[]): void {
  changedLocally(ids);
  const next = new Map(tickets.value);
  for (const id of ids) next.delete(id);
  tickets.value = next;
}

/**
 * Tickets this page is taking, or took, off the open board itself (deleted, which puts them in
 * the trash, or moved to another board) whose stream message has not come yet. The page drops
 * them from its copy on its own answer; refetching them for that message would only cost a
 * request (and, for a deleted one, a 404 in the console). Each is skipped once, by the first
 * message naming it, so a later change (a restore by someone else) is fetched as usual.
 */
const removedHere = new Set<number>();

/**
 * Runs a write that takes `ids` off the open board (a delete, a move to another board): they are
 * marked before the request goes out, since the stream's message may arrive before the answer,
 * and unmarked when it fails (no change, so no message). The caller drops them from its copy.
 */
export async function removing<T>(ids: readonly number[], write: () => Promise<T>): Promise<T> {
  for (const id of ids) removedHere.add(id);
  try {
    return await write();
  } catch (error) {
    for (const id of ids) removedHere.delete(id);
    throw error;
  }
}

/** A message's ticket ids without the ones this page removed itself (each skipped once). */
function notRemovedHere(ids: number[]): number[] {
  if (removedHere.size === 0) return ids;
  return ids.filter((id) => !removedHere.delete(id));
}

/**
 * Boards this page is deleting, until the DELETE answers. The board's stream may bring its
 * `board_deleted` before that answer: the message, and a refetch's 404, are then the page's own
 * doing, and its answer closes the board and leaves it as after any delete (no "This board was
 * deleted." error, no refetch of the deleted board).
 */
const boardsRemovedHere = new Set<number>();

/**
 * Deletes board `id`; when it is the open one, closes it (the caller navigates away). Returns
 * whether it was open.
 */
export async function deleteBoard(id: number): Promise<boolean> {
  boardsRemovedHere.add(id);
  try {
    await api.delete(`/api/boards/${id}`);
  } finally {
    boardsRemovedHere.delete(id);
  }
  boards.value = boards.value.filter((entry) => entry.id !== id);
  if (boardId.value !== id) return false;
  closeBoard();
  return true;
}

/** Named tickets are fetched this many at a time, each page shown as it arrives. */
const TICKETS_PER_PAGE = 50;
/**
 * A single-ticket answer (body, rendered HTML, comments) weighs ~12 summaries on a board of
 * ordinary tickets (6.7 KB against 570 bytes on the issue #20 benchmark's board). Past that
 * many named tickets per ticket of the board, one list costs less than the tickets' answers.
 */
const TICKET_ANSWER_IN_SUMMARIES = 12;

/**
 * Past this many named tickets the whole list is fetched whatever the board's size: each
 * single-ticket answer costs the server ~0.3-0.6 ms of CPU, a 10,000-ticket list ~5 ms, so a
 * hundred single reads already cost it more than the list, and take two round trips more.
 */
const MOST_TICKETS_FETCHED_ONE_BY_ONE = 2 * TICKETS_PER_PAGE;

/**
 * Whether the whole list is cheaper than refetching `named` tickets one by one: in bytes (a
 * twelfth of the board) or in the server's work (more than two pages).
 */
function wholeListIsCheaper(named: number): boolean {
  if (named <= TICKETS_PER_PAGE) return false;
  return (
    named * TICKET_ANSWER_IN_SUMMARIES > tickets.value.size ||
    named > MOST_TICKETS_FETCHED_ONE_BY_ONE
  );
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
 * busy board names hundreds in one 60 ms window; its whole list is megabytes). `[]`: no ticket
 * changed (a lane or tag did), so the shell is all there is to fetch.
 */
export async function refresh(ticketIds: number[] | null): Promise<void> {
  const id = boardId.value;
  if (id === null) return;
  const since = localChanges;
  try {
    const shell = await api.get<BoardShell>(`/api/boards/${id}`);
    if (boardId.value !== id) return;
    if (ticketIds && ticketIds.length === 0) {
      applyShell(shell);
    } else if (ticketIds && !wholeListIsCheaper(ticketIds.length)) {
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
      const list = await api.get<{ tickets: TicketSummary[] }>(
        `/api/boards/${id}/tickets?archived=all`,
      );
      if (boardId.value !== id) return;
      batch(() => {
        applyShell(shell);
        const next = new Map(list.tickets.map((ticket) => [ticket.id, ticket]));
        for (const ticketId of [...changedLocallyAt.keys(), ...movesOnTheWay.keys()]) {
          if (!newerHere(ticketId, since)) continue;
          const mine = tickets.value.get(ticketId);
          if (mine) next.set(ticketId, mine);
          else next.delete(ticketId);
        }
        tickets.value = next;
      });
    }
    remoteChange.value = { ticketIds, at: Date.now() };
  } catch (error) {
    if (boardsRemovedHere.has(id)) return;
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

// ---- live stream ------------------------------------------------------------------------------

let source: EventSource | null = null;
let pending: { all: boolean; ids: Set<number> } | null = null;
let running: Promise<void> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Follows board `id`'s stream. `missedChanges`: this replaces a stream the server refused or
 * closed with an error status; a new EventSource sends no `Last-Event-ID`, so the server cannot
 * tell it what it missed, and the whole list is refetched once it opens.
 */
function connectStream(id: number, missedChanges = false): void {
  disconnectStream();
  // Marks wait for the old stream's messages, which this one never sends (another board, or
  // missed while closed): kept, they would skip a later change instead.
  removedHere.clear();
  streamState.value = "connecting";
  const stream = new EventSource(`/api/boards/${id}/events`);
  source = stream;
  let wasOffline = missedChanges;
  stream.onopen = () => {
    streamState.value = "live";
    // After a reconnect (server restarted, stream refused) changes may have been missed.
    if (wasOffline) schedule(null);
    wasOffline = false;
  };
  stream.onerror = () => {
    streamState.value = "offline";
    wasOffline = true;
    // EventSource retries by itself unless the server answered with an error status.
    if (stream.readyState === EventSource.CLOSED && source === stream) {
      setTimeout(() => {
        if (source === stream && boardId.value === id) connectStream(id, true);
      }, 2000);
    }
  };
  stream.onmessage = (message) => {
    streamMessages.value++;
    let data: { event?: string; ticketIds?: unknown } = {};
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    if (data.event === "board_deleted") {
      // Deleted by this page: its answer closes the board. The stream is closed now, so that
      // EventSource does not retry a board that is gone (a 404 in the console).
      if (boardsRemovedHere.has(id)) disconnectStream();
      else void refresh(null);
      return;
    }
    const ids = Array.isArray(data.ticketIds)
      ? notRemovedHere(data.ticketIds.filter((value): value is number => typeof value === "number"))
      : null;
    schedule(ids);
  };
}

function disconnectStream(): void {
  source?.close();
  source = null;
}

/** Coalesces stream messages: one refetch at a time, the next one collects everything new. */
function schedule(ids: number[] | null): void {
  pending ??= { all: false, ids: new Set() };
  if (ids === null) {
    pending.all = true;
    // The whole list is refetched, the truth about removals too; the message a mark waits for
    // may be one this catch-up stands for.
    removedHere.clear();
  } else for (const id of ids) pending.ids.add(id);
  clearTimeout(timer);
  timer = setTimeout(flush, 60);
}

function flush(): void {
  if (running || !pending) return;
  const work = pending;
  pending = null;
  running = refresh(work.all ? null : [...work.ids]).finally(() => {
    running = null;
    if (pending) flush();
  });
}

// ---- ticket writes ----------------------------------------------------------------------------

/** Moves a ticket (optimistically) next to the given neighbours; rolls back on error. */
export async function moveTicket(
  ticketId: number,
  laneId: number,
  anchor: { beforeTicketId?: number; afterTicketId?: number; position?: number },
): Promise<boolean> {
  const before = tickets.value;
  const ticket = before.get(ticketId);
  if (!ticket) return false;
  const onBoard = boardId.value;
  // Shown moved at once; until the answer comes, no refetch puts it back where it was.
  movesOnTheWay.set(ticketId, (movesOnTheWay.get(ticketId) ?? 0) + 1);
  const shown = reorderLocally(before, ticket, laneId, anchor);
  tickets.value = shown;
  try {
    const moved = await api.patch<Ticket>(`/api/tickets/${ticketId}/position`, {
      laneId,
      ...anchor,
    });
    moveAnswered(ticketId);
    putTicket(moved);
    return true;
  } catch (error) {
    moveAnswered(ticketId);
    changedLocally([ticketId]);
    tickets.value = rolledBack(tickets.value, shown, before);
    // Refetches that came during the move left the moved ticket as shown (they may have read
    // it before the move); one read now brings what changed meanwhile (a title edited
    // elsewhere), or drops it if it is gone.
    if (boardId.value === onBoard) schedule([ticketId]);
    toast(`Move failed: ${errorMessage(error)}`, "error");
    return false;
  }
}

/**
 * The page's copy after a failed move: each ticket the move showed changed (`shown` against
 * `before`) goes back to what it was, unless something replaced it since (a refetch, a write's
 * answer) or took it away, which is newer than both; everything else stays as it is now.
 */
function rolledBack(
  now: Map<number, TicketSummary>,
  shown: Map<number, TicketSummary>,
  before: Map<number, TicketSummary>,
): Map<number, TicketSummary> {
  const next = new Map(now);
  for (const [id, entry] of shown) {
    const old = before.get(id);
    if (old === entry || now.get(id) !== entry) continue;
    if (old) next.set(id, old);
    else next.delete(id);
  }
  return next;
}

function moveAnswered(ticketId: number): void {
  const left = (movesOnTheWay.get(ticketId) ?? 1) - 1;
  if (left > 0) movesOnTheWay.set(ticketId, left);
  else movesOnTheWay.delete(ticketId);
}

function reorderLocally(
  all: Map<number, TicketSummary>,
  ticket: TicketSummary,
  laneId: number,
  anchor: { beforeTicketId?: number; afterTicketId?: number; position?: number },
): Map<number, TicketSummary> {
  const next = new Map(all);
  const laneOf = (id: number) =>
    [...all.values()]
      .filter((entry) => entry.laneId === id && entry.id !== ticket.id)
      .sort(compareInLane);
  const target = laneOf(laneId);
  let index = target.length;
  if (anchor.beforeTicketId !== undefined) {
    const at = target.findIndex((entry) => entry.id === anchor.beforeTicketId);
    if (at >= 0) index = at;
  } else if (anchor.afterTicketId !== undefined) {
    const at = target.findIndex((entry) => entry.id === anchor.afterTicketId);
    if (at >= 0) index = at + 1;
  } else if (anchor.position !== undefined) {
    index = Math.min(anchor.position, target.length);
  }
  target.splice(index, 0, { ...ticket, laneId });
  const renumber = (list: TicketSummary[]) => {
    const active = list.filter((entry) => !entry.isArchived);
    const archived = list.filter((entry) => entry.isArchived);
    [...active, ...archived].forEach((entry, position) => {
      next.set(entry.id, { ...entry, position });
    });
  };
  renumber(target);
  if (ticket.laneId !== laneId) renumber(laneOf(ticket.laneId));
  return next;
}

/** PATCHes a ticket; the answer replaces the local copy. Errors become a toast and rethrow. */
export async function patchTicket(
  ticketId: number,
  changes: Record<string, unknown>,
  options: { ifMatch?: string; quiet?: boolean } = {},
): Promise<Ticket> {
  try {
    const updated = await api.patch<Ticket>(`/api/tickets/${ticketId}`, changes, {
      ifMatch: options.ifMatch,
    });
    putTicket(updated);
    return updated;
  } catch (error) {
    if (!options.quiet) toast(errorMessage(error), "error");
    throw error;
  }
}

export async function createTicket(laneId: number, title: string): Promise<Ticket | null> {
  const id = boardId.value;
  if (id === null) return null;
  try {
    const created = await api.post<Ticket>(`/api/boards/${id}/tickets`, { laneId, title });
    putTicket(created);
    return created;
  } catch (error) {
    toast(errorMessage(error), "error");
    return null;
  }
}

export function tagsOfBoard(): Tag[] {
  return [...tags.value].sort((a, b) => a.name.localeCompare(b.name));
}
