import { signal } from "@preact/signals";

export interface Toast {
  id: number;
  kind: "info" | "error";
  text: string;
  /** A button in the toast (Undo of a delete). */
  action?: { label: string; run: () => void };
}

let nextId = 1;
export const toasts = signal<Toast[]>([]);
/** Screen-reader announcements (drag moves, results of actions). */
export const announcement = signal("");

export function toast(
  text: string,
  kind: Toast["kind"] = "info",
  options: { action?: Toast["action"]; ms?: number } = {},
): number {
  const id = nextId++;
  toasts.value = [...toasts.value, { id, kind, text, action: options.action }];
  setTimeout(() => dismiss(id), options.ms ?? (kind === "error" ? 8000 : 4000));
  return id;
}

export function dismiss(id: number): void {
  toasts.value = toasts.value.filter((entry) => entry.id !== id);
}

export function announce(text: string): void {
  // Re-set even when equal, so the live region speaks it again.
  announcement.value = "";
  queueMicrotask(() => {
    announcement.value = text;
  });
}
