import { useEffect, useRef, useState } from "preact/hooks";
import { board, lanes, meta, tags } from "../board-data";
import { overlay } from "../board-state";
import {
  filters,
  filtersActive,
  filtersToSearch,
  resetFilters,
  type Status,
  setFilters,
} from "../filters";
import { theme } from "../prefs";
import { PRIORITIES } from "../priorities";
import { route } from "../router";
import { BoardHeading } from "./BoardHeading";

export const SEARCH_ID = "search";

/** Board header: name, Kanban/List switch, search and filters, remote import, theme, help. */
export function Toolbar() {
  const current = route.value;
  const value = filters.value;
  const [q, setQ] = useState(value.q);
  const typing = useRef(false);
  const [folded, setFolded] = useState(true);
  useEffect(() => {
    if (!typing.current) setQ(value.q);
  }, [value.q]);
  useEffect(() => {
    if (q === filters.value.q) return;
    const timer = setTimeout(() => {
      setFilters({ q });
      typing.current = false;
    }, 150);
    return () => clearTimeout(timer);
  }, [q]);
  if (current.name !== "board" || !board.value) return null;
  const search = filtersToSearch(value);
  const canImport = meta.value?.remoteProviders.some((provider) => provider.hasCredential) ?? false;

  return (
    <div class="toolbar">
      <div class="toolbar-row">
        <BoardHeading
          boardId={current.boardId}
          name={board.value.name}
          view={current.view}
          search={search}
          liveTitle="Live: changes appear as they happen"
        />
        <span class="card-spacer" />
        {canImport && (
          <button type="button" class="button" onClick={() => (overlay.value = { kind: "import" })}>
            Import issue
          </button>
        )}
        <button
          type="button"
          class="icon-button"
          title={`Theme: ${theme.value} (click to change)`}
          aria-label={`Colour theme: ${theme.value}`}
          onClick={() => {
            theme.value =
              theme.value === "system" ? "dark" : theme.value === "dark" ? "light" : "system";
          }}
        >
          {theme.value === "dark" ? "☾" : theme.value === "light" ? "☀" : "◐"}
        </button>
        <button
          type="button"
          class="icon-button wide-only"
          title="Keyboard shortcuts (?)"
          aria-label="Keyboard shortcuts"
          onClick={() => (overlay.value = { kind: "help" })}
        >
          ?
        </button>
      </div>
      <div class={`toolbar-row filters${folded ? " is-folded" : ""}`} role="search">
        <input
          id={SEARCH_ID}
          class="search"
          type="search"
          placeholder="Search  (/)   #12, gh#34, text"
          aria-label="Search tickets"
          value={q}
          onInput={(event) => {
            typing.current = true;
            setQ((event.target as HTMLInputElement).value);
          }}
          onKeyDown={(event) => {
            if (event.key === "Escape") {
              (event.target as HTMLInputElement).blur();
            }
          }}
        />
        <select
          aria-label="Lane filter"
          value={value.lane ?? ""}
          onChange={(event) => {
            const raw = (event.target as HTMLSelectElement).value;
            setFilters({ lane: raw ? Number(raw) : null });
          }}
        >
          <option value="">All lanes</option>
          {lanes.value.map((lane) => (
            <option key={lane.id} value={lane.id}>
              {lane.name}
            </option>
          ))}
        </select>
        <select
          aria-label="Tag filter"
          value={value.tag === null ? "\u0000" : value.tag}
          onChange={(event) => {
            const raw = (event.target as HTMLSelectElement).value;
            setFilters({ tag: raw === "\u0000" ? null : raw });
          }}
        >
          <option value={"\u0000"}>All tags</option>
          <option value="">No tag</option>
          {tags.value.map((tag) => (
            <option key={tag.id} value={tag.name}>
              {tag.name}
            </option>
          ))}
        </select>
        <select
          aria-label="Priority filter"
          value={value.priority ?? ""}
          onChange={(event) => {
            const raw = (event.target as HTMLSelectElement).value;
            setFilters({ priority: raw ? Number(raw) : null });
          }}
        >
          <option value="">Any priority</option>
          {[4, 3, 2, 1].map((priority) => (
            <option key={priority} value={priority}>
              {PRIORITIES[priority]}
            </option>
          ))}
        </select>
        <select
          aria-label="Status filter"
          value={value.status}
          onChange={(event) =>
            setFilters({ status: (event.target as HTMLSelectElement).value as Status })
          }
        >
          <option value="all">Open + done</option>
          <option value="open">Open</option>
          <option value="resolved">Resolved</option>
          <option value="archived">Archived</option>
        </select>
        <button
          type="button"
          class="button filters-toggle"
          aria-expanded={!folded}
          onClick={() => setFolded(!folded)}
        >
          Filters{filtersActive.value ? " •" : ""}
        </button>
        {filtersActive.value && (
          <button
            type="button"
            class="button button-ghost"
            onClick={() => {
              typing.current = false;
              setQ("");
              resetFilters();
            }}
          >
            Reset
          </button>
        )}
      </div>
    </div>
  );
}
