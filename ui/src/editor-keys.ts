// Markdown shortcuts of the body textarea: Ctrl/Cmd+B bold, +I italic, +K link; Tab / Shift+Tab
// indent and outdent list items. Edits go through execCommand("insertText") where available so
// the browser's undo history keeps them.

export function handleEditorKey(event: KeyboardEvent, textarea: HTMLTextAreaElement): boolean {
  const mod = event.ctrlKey || event.metaKey;
  if (mod && !event.shiftKey && !event.altKey) {
    const key = event.key.toLowerCase();
    if (key === "b") return wrap(textarea, "**", "**", event);
    if (key === "i") return wrap(textarea, "_", "_", event);
    if (key === "k") return wrap(textarea, "[", "](https://)", event);
  }
  if (event.key === "Tab" && !mod && !event.altKey) {
    const { value, selectionStart } = textarea;
    const lineStart = value.lastIndexOf("\n", selectionStart - 1) + 1;
    const line = value.slice(
      lineStart,
      value.indexOf("\n", lineStart) === -1 ? undefined : value.indexOf("\n", lineStart),
    );
    if (!/^\s*([-*+]|\d+[.)])\s/.test(line)) return false;
    event.preventDefault();
    const caret = selectionStart;
    if (event.shiftKey) {
      const remove = line.startsWith("  ") ? 2 : line.startsWith(" ") ? 1 : 0;
      if (remove === 0) return true;
      replaceRange(textarea, lineStart, lineStart + remove, "");
      textarea.setSelectionRange(
        Math.max(lineStart, caret - remove),
        Math.max(lineStart, caret - remove),
      );
    } else {
      replaceRange(textarea, lineStart, lineStart, "  ");
      textarea.setSelectionRange(caret + 2, caret + 2);
    }
    return true;
  }
  return false;
}

function wrap(
  textarea: HTMLTextAreaElement,
  before: string,
  after: string,
  event: KeyboardEvent,
): boolean {
  event.preventDefault();
  const { selectionStart: start, selectionEnd: end, value } = textarea;
  const selected = value.slice(start, end);
  replaceRange(textarea, start, end, before + selected + after);
  textarea.setSelectionRange(start + before.length, start + before.length + selected.length);
  return true;
}

function replaceRange(
  textarea: HTMLTextAreaElement,
  start: number,
  end: number,
  text: string,
): void {
  textarea.focus();
  textarea.setSelectionRange(start, end);
  if (!document.execCommand?.("insertText", false, text)) {
    textarea.setRangeText(text, start, end, "end");
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
  }
}
