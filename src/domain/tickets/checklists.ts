import { InvalidInput } from "../errors.js";
import { taskItems } from "../markdown.js";

/** A ticket's checklist as Ticket and TicketSummary show it (docs/api.md, "Checklists"). */
export interface Checklist {
  done: number;
  total: number;
}

/**
 * What a task item's box looks like in the source: `[`, one of the characters the task list
 * plugin reads as a box (space, no-break space, x, X), `]`. A body without one has no checklist,
 * which spares most bodies a second parse.
 */
const MAYBE_BOX = /\[[ \u00a0xX]\]/;

/** The checklist of a body: its task list items, and how many are checked. */
export function checklistOf(markdown: string): Checklist {
  if (!MAYBE_BOX.test(markdown)) return { done: 0, total: 0 };
  const items = taskItems(markdown);
  return { done: items.filter((item) => item.checked).length, total: items.length };
}

/** Line breaks as markdown-it reads them (it normalises each to "\n" before parsing). */
const LINE_BREAK = /\r\n?|\n/g;

/**
 * The body with item `index`'s box set to `checked`, every other character as it was; undefined
 * when the box is in that state already. InvalidInput when the checklist has no such item.
 */
export function withItemChecked(
  markdown: string,
  index: number,
  checked: boolean,
): string | undefined {
  const items = MAYBE_BOX.test(markdown) ? taskItems(markdown) : [];
  const item = items[index];
  if (!item) {
    throw new InvalidInput(
      items.length === 0
        ? "index is outside the checklist: the body has no task list items"
        : `index is outside the checklist: it must be between 0 and ${items.length - 1}`,
    );
  }
  if (item.checked === checked) return undefined;
  let start = 0;
  LINE_BREAK.lastIndex = 0;
  for (let line = 0; line < item.line; line++) {
    const found = LINE_BREAK.exec(markdown);
    if (!found) throw new Error("a task item past the body's last line");
    start = found.index + found[0].length;
  }
  // The item's text starts on its line with its box; before it on that line come only
  // indentation, block quote and list markers, none of which holds a "[".
  const box = markdown.indexOf("[", start) + 1;
  if (box === 0 || markdown[box + 1] !== "]") throw new Error("a task item without its box");
  return `${markdown.slice(0, box)}${checked ? "x" : " "}${markdown.slice(box + 1)}`;
}
