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
