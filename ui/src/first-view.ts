import { effect } from "@preact/signals";
import { loading } from "./board-data";

/** How long the first view may stay if the board's load never starts (it should at once). */
const LAST_RESORT_MS = 10_000;

/**
 * The board page's first view (ARCHITECTURE.md, "The first view"): the server draws the board's
 * first cards into the page, over the app, so they show before this script has run. It goes in
 * the frame the app's own first cards are painted in, or once the board's load has ended
 * without any (an empty or filtered board, an error), or after LAST_RESORT_MS.
 */
export function retireFirstView(app: HTMLElement): void {
  const view = document.getElementById("first-view");
  if (!view) return;
  let started = false;
  let stopLoading = () => {};
  const drop = () => {
    observer.disconnect();
    stopLoading();
    clearTimeout(timer);
    view.remove();
  };
  const observer = new MutationObserver(() => {
    if (app.querySelector("[data-ticket-id]")) {
      observer.disconnect();
      requestAnimationFrame(drop);
    }
  });
  observer.observe(app, { childList: true, subtree: true });
  stopLoading = effect(() => {
    if (loading.value) started = true;
    else if (started) drop();
  });
  const timer = setTimeout(drop, LAST_RESORT_MS);
}
