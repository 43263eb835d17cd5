// What a refetch costs the server and the network, to choose between reading the tickets a
// stream message named one by one and reading the board's whole list (board-sync.ts).

/** Named tickets are fetched this many at a time, each page shown as it arrives. */
export const TICKETS_PER_PAGE = 50;
/**
 * A single-ticket answer (body, rendered HTML, comments) weighs ~12 summaries on a board of
 * ordinary tickets (6.7 KB against 570 bytes on the board bench/dataset.ts generates). Past that
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
 * Whether the whole list of a board of `boardSize` tickets is cheaper than refetching `named`
 * tickets one by one: in bytes (a twelfth of the board) or in the server's work (more than two
 * pages).
 */
export function wholeListIsCheaper(named: number, boardSize: number): boolean {
  if (named <= TICKETS_PER_PAGE) return false;
  return named * TICKET_ANSWER_IN_SUMMARIES > boardSize || named > MOST_TICKETS_FETCHED_ONE_BY_ONE;
}
