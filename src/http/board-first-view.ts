import { escapeUTF8 as escapeHtml } from "entities";
import type { FirstView, FirstViewCard } from "../domain/boards/first-view.js";

/**
 * The board page's first view as HTML (ui/ARCHITECTURE.md, "The first view"): the board's first
 * cards, drawn with the web UI's own classes at the places the app draws them, in an overlay the
 * app removes once its own cards are on screen. Every text is escaped; the view is hidden from
 * assistive technology and inert (the app announces the board), and its cards carry no
 * `data-ticket-id`: nothing looks for the app's cards and finds these.
 */

/** The UI's priority words and glyphs (ui/src/priorities.ts, components/bits.tsx). */
const PRIORITY_LABELS: Record<number, string> = { 1: "Low", 2: "Medium", 3: "High", 4: "Urgent" };
const PRIORITY_GLYPHS: Record<number, string> = { 1: "↓", 2: "–", 3: "↑", 4: "‼" };

/**
 * A card's tags as the app's tag chips (ui/src/components/bits.tsx `TagChip`), in the card's
 * row of badges. The app's row also holds badges the first view leaves out (blocked, parent,
 * checklist, ...): a card with none of its tags but such a badge grows by the row when the app
 * takes over.
 */
function tagRow(tags: FirstViewCard["tags"]): string {
  if (tags.length === 0) return "";
  const chips = tags.map((tag) => {
    const dot = tag.color
      ? `<svg class="tag-dot" viewBox="0 0 10 10" aria-hidden="true">` +
        `<circle cx="5" cy="5" r="5" fill="${escapeHtml(tag.color)}"></circle></svg>`
      : `<span class="tag-dot tag-dot-none" aria-hidden="true"></span>`;
    const name = escapeHtml(tag.name);
    return `<span class="tag" title="${name}">${dot}<span class="tag-name">${name}</span></span>`;
  });
  return `<div class="card-meta">${chips.join("")}</div>`;
}

function cardHtml(card: FirstViewCard): string {
  // A card shows its priority unless it is the default (Medium), as the app's compact badge.
  const priority =
    card.priority === 2
      ? ""
      : `<span class="prio prio-${card.priority}"><span>${PRIORITY_GLYPHS[card.priority] ?? ""}</span>` +
        `<span class="prio-label">${PRIORITY_LABELS[card.priority] ?? card.priority}</span></span>`;
  return (
    `<div class="card" data-first-card="${card.id}">` +
    `<div class="card-top"><span class="card-ref">#${card.id}</span>` +
    `<span class="card-spacer"></span>${priority}</div>` +
    `<div class="card-title">${escapeHtml(card.title)}</div>${tagRow(card.tags)}</div>`
  );
}

export function firstViewHtml(view: FirstView): string {
  const lanes = view.lanes
    .map(
      (lane) =>
        `<section class="lane"><header class="lane-header">` +
        `<h2 class="lane-title">${escapeHtml(lane.name)}</h2></header>` +
        `<div class="lane-body"><div class="lane-list">${lane.cards.map(cardHtml).join("")}` +
        `</div></div></section>`,
    )
    .join("");
  // Narrow windows show one lane under a row of tabs, as the app does (the first lane's).
  const tabs = view.lanes
    .map(
      (lane, index) =>
        `<span class="lane-tab" aria-selected="${index === 0}">` +
        `${escapeHtml(lane.name)}</span>`,
    )
    .join("");
  return (
    `<div class="app first-view" id="first-view" aria-hidden="true" aria-busy="true" inert>` +
    `<div class="sidebar"></div><div class="main">` +
    `<div class="toolbar"><div class="toolbar-row"><span class="icon-button narrow-only"></span>` +
    `<h1 class="board-name">` +
    `${escapeHtml(view.boardName)}</h1></div><div class="toolbar-row filters is-folded"></div></div>` +
    `<div class="kanban"><div class="lane-tabs">${tabs}</div>` +
    `<div class="board-scroller">${lanes}</div></div></div></div>`
  );
}
