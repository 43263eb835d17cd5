import { signal } from "@preact/signals";

export interface Toast {
  id: number;
  kind: "info" | "error";
  text: string;
}

let nextId = 1;
export const toasts = signal<Toast[]>([]);
/** Screen-reader announcements (drag moves, results of actions). */
export const announcement = signal("");

export function toast(text: string, kind: Toast["kind"] = "info"): void {
  const id = nextId++;
  toasts.value = [...toasts.value, { id, kind, text }];
  setTimeout(() => dismiss(id), kind === "error" ? 8000 : 4000);
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
