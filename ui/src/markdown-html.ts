/**
 * Rendered Markdown as shown in the UI. Task-list checkboxes come from the server without a label
 * (by design: ids would collide); screen readers get one here, "done" or "to do". `tickable`:
 * the boxes are a checklist that ticks (checklist.ts), so they lose `disabled`.
 */
export function labelTaskCheckboxes(html: string, tickable = false): string {
  let item = 0;
  return html.replace(/<input\b([^>]*?)\s*\/?>/g, (tag, attributes: string) => {
    if (!/type="checkbox"/.test(attributes) || /aria-label=/.test(attributes)) return tag;
    item++;
    // A box that ticks says its state itself; the label says which item it is.
    if (tickable) {
      const kept = attributes.replace(/\s+disabled(="[^"]*")?/, "");
      return `<input${kept} aria-label="Checklist item ${item}" />`;
    }
    return `<input${attributes} aria-label="${/\bchecked\b/.test(attributes) ? "done" : "to do"}" />`;
  });
}

/**
 * A click in rendered Markdown. A link within the body (`[jump](#hello-world)`) leads to its
 * heading: the server writes a heading's anchor as `id="user-content-<slug>"` (and an anchor the
 * body wrote, `<a id|name="x">`, as `user-content-x`; docs/api.md, "Markdown rendering"), and
 * `#slug` is looked up as `user-content-slug`, as GitHub's page does,
 * first in the body or comment that was clicked, then in any rendered Markdown of the dialog. The
 * heading scrolls into view and takes the focus (screen readers read where the link led); the
 * page's URL stays as it is. Any other link is left to the browser, which opens it in a new tab.
 */
export function followInPageLink(event: MouseEvent): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return;
  }
  const link = (event.target as Element | null)?.closest?.("a");
  const href = link?.getAttribute("href");
  if (!href?.startsWith("#")) return;
  event.preventDefault();
  let fragment = href.slice(1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    // A stray `%` in the fragment: look it up as written.
  }
  const id = fragment.startsWith("user-content-") ? fragment : `user-content-${fragment}`;
  const container = event.currentTarget as HTMLElement;
  const escaped = CSS.escape(id);
  const scope = container.closest("dialog, .ticket-dialog") ?? document;
  const heading =
    container.querySelector<HTMLElement>(`#${escaped}, a[name="${escaped}"]`) ??
    scope.querySelector<HTMLElement>(`.markdown #${escaped}, .markdown a[name="${escaped}"]`);
  if (!heading) return;
  heading.scrollIntoView({ block: "start" });
  if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  heading.focus({ preventScroll: true });
}
