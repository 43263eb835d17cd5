// What the page did itself that a refetch or a stream message must not undo or repeat. Module
// state, one open board at a time: board-sync.ts forgets it when a board opens or closes.

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

export function changedLocally(ids: Iterable<number>): void {
  const at = ++localChanges;
  for (const id of ids) changedLocallyAt.set(id, at);
}

/** The moment a refetch starts, to compare with later changes (`newerHere`). */
export function localChangeCount(): number {
  return localChanges;
}

/** Whether a refetch that started at `since` is older than the page's copy of ticket `id`. */
export function newerHere(id: number, since: number): boolean {
  return movesOnTheWay.has(id) || (changedLocallyAt.get(id) ?? 0) > since;
}

/** The tickets a refetch that started at `since` must leave as the page has them. */
export function ticketsNewerHere(since: number): number[] {
  return [...changedLocallyAt.keys(), ...movesOnTheWay.keys()].filter((id) => newerHere(id, since));
}

export function moveStarted(ticketId: number): void {
  movesOnTheWay.set(ticketId, (movesOnTheWay.get(ticketId) ?? 0) + 1);
}

export function moveAnswered(ticketId: number): void {
  const left = (movesOnTheWay.get(ticketId) ?? 1) - 1;
  if (left > 0) movesOnTheWay.set(ticketId, left);
  else movesOnTheWay.delete(ticketId);
}

export function forgetLocalChanges(): void {
  changedLocallyAt.clear();
  movesOnTheWay.clear();
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
export function notRemovedHere(ids: number[]): number[] {
  if (removedHere.size === 0) return ids;
  return ids.filter((id) => !removedHere.delete(id));
}

/**
 * Drops every mark: the messages they wait for will not come (another board's stream, a stream
 * that missed them), or a whole-list refetch stands for them; kept, a mark would skip a later
 * change instead.
 */
export function forgetRemovedHere(): void {
  removedHere.clear();
}

/**
 * Boards this page is deleting, until the DELETE answers. The board's stream may bring its
 * `board_deleted` before that answer: the message, and a refetch's 404, are then the page's own
 * doing, and its answer closes the board and leaves it as after any delete (no "This board was
 * deleted." error, no refetch of the deleted board).
 */
const boardsRemovedHere = new Set<number>();

/** Runs `write`, the DELETE of board `id`, with the board marked as deleted by this page. */
export async function deletingBoard(id: number, write: () => Promise<void>): Promise<void> {
  boardsRemovedHere.add(id);
  try {
    await write();
  } finally {
    boardsRemovedHere.delete(id);
  }
}

export function boardDeletedHere(id: number): boolean {
  return boardsRemovedHere.has(id);
}
