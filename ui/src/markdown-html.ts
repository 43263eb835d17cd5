/**
 * Rendered Markdown as shown in the UI. Task-list checkboxes come from the server without a label
 * (by design: ids would collide); screen readers get one here, "done" or "to do".
 */
export function labelTaskCheckboxes(html: string): string {
  return html.replace(/<input\b([^>]*?)\s*\/?>/g, (tag, attributes: string) =>
    /type="checkbox"/.test(attributes) && !/aria-label=/.test(attributes)
      ? `<input${attributes} aria-label="${/\bchecked\b/.test(attributes) ? "done" : "to do"}" />`
      : tag,
  );
}
