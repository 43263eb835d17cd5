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
export const sidebarCollapsed = signal<boolean>(
  read("tack.sidebarCollapsed", window.matchMedia("(max-width: 700px)").matches),
);

effect(() => {
  remember("tack.theme", theme.value);
  const root = document.documentElement;
  if (theme.value === "system") delete root.dataset.theme;
  else root.dataset.theme = theme.value;
});
effect(() => remember("tack.sidebarCollapsed", sidebarCollapsed.value));
