/**
 * The rows of a one-query read of many tickets' records (comments, events, tag links,
 * references) as each ticket's list, in row order: how a board's records are joined to its
 * tickets without a query per ticket.
 */
export function groupByTicket<Row extends { ticket_id: number }, Item>(
  rows: Iterable<Row>,
  toItem: (row: Row) => Item,
): Map<number, Item[]> {
  const groups = new Map<number, Item[]>();
  for (const row of rows) {
    const list = groups.get(row.ticket_id);
    if (list) list.push(toItem(row));
    else groups.set(row.ticket_id, [toItem(row)]);
  }
  return groups;
}
