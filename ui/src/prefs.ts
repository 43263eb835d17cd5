import { effect, signal } from "@preact/signals";

// Preferences remembered in localStorage: theme, sidebar, per-board view and filters.

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function remember(key: string, value: unknown): void {
  try {
    if (value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or a full quota: preferences are a convenience.
  }
}

export function recall<T>(key: string, fallback: T): T {
  return read(key, fallback);
}

export type Theme = "system" | "light" | "dark";
export const theme = signal<Theme>(read<Theme>("tack.theme", "system"));
/**
 * Below this width the open sidebar is an overlay on the board (styles.css, "narrow windows"):
 * a page opened that narrow starts with it closed whatever was saved on a wide window, and
 * opening or closing it there is not saved, so the wide window's choice stays.
 */
const narrowWindow = window.matchMedia("(max-width: 700px)");
export const sidebarCollapsed = signal<boolean>(
  narrowWindow.matches || read("tack.sidebarCollapsed", false),
);

effect(() => {
  remember("tack.theme", theme.value);
  const root = document.documentElement;
  if (theme.value === "system") delete root.dataset.theme;
  else root.dataset.theme = theme.value;
});
effect(() => {
  const collapsed = sidebarCollapsed.value;
  if (!narrowWindow.matches) remember("tack.sidebarCollapsed", collapsed);
});
