import { requestWithHeaders } from "./api";
import type { Ticket } from "./types";

// A ticket's checklist is the task list of its body (docs/api.md, "Checklists"). Its boxes tick
// where they are shown, in the dialog's rendered body: a box's index is its place among the
// rendered checkboxes, which holds only while they are exactly the checklist's items. A body
// whose raw HTML adds a checkbox (the sanitizer keeps it, the checklist does not count it)
// renders more boxes than `checklist.total`; the boxes then stay read-only rather than tick the
// wrong item.

export function boxCount(html: string): number {
  return (html.match(/<input\b[^>]*type="checkbox"/g) ?? []).length;
}

/** Whether the boxes of `html` are the checklist's items, one for one. */
export function boxesAreChecklist(html: string, total: number): boolean {
  return total > 0 && boxCount(html) === total;
}

/** Sets item `index` through `PATCH /api/tickets/{id}/checklist`; If-Match when known. */
export function tickChecklist(
  ticketId: number,
  index: number,
  checked: boolean,
  etag: string | null,
): Promise<{ data: Ticket; etag: string | null }> {
  return requestWithHeaders<Ticket>(
    "PATCH",
    `/api/tickets/${ticketId}/checklist`,
    { index, checked },
    { ifMatch: etag ?? undefined },
  );
}
