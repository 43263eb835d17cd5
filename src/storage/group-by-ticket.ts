/**
 * The rows of a one-query read of many tickets' records (comments, events, tag links,
 * references) as each ticket's list, in row order: how a board's records are joined to its
 * tickets without a query per ticket. Rows are objects with a `ticket_id`, or raw rows (arrays)
 * with `ticketIdOf` saying where their ticket's id is.
 */
export function groupByTicket<Row extends { ticket_id: number }, Item>(
  rows: Iterable<Row>,
  toItem: (row: Row) => Item,
): Map<number, Item[]>;
export function groupByTicket<Row, Item>(
  rows: Iterable<Row>,
  toItem: (row: Row) => Item,
  ticketIdOf: (row: Row) => number,
): Map<number, Item[]>;
export function groupByTicket<Row, Item>(
  rows: Iterable<Row>,
  toItem: (row: Row) => Item,
  ticketIdOf = (row: Row) => (row as { ticket_id: number }).ticket_id,
): Map<number, Item[]> {
  const groups = new Map<number, Item[]>();
  for (const row of rows) {
    const ticketId = ticketIdOf(row);
    const list = groups.get(ticketId);
    if (list) list.push(toItem(row));
    else groups.set(ticketId, [toItem(row)]);
  }
  return groups;
}
